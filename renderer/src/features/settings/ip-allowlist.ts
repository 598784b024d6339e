// Client-side check of one IP allowlist entry, mirroring server/http/ip.ts (parseRange over node:net's isIP).
// It only gives feedback while typing: the server validates every entry again and has the final word.

const V4_SEG = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])';
const V4 = `(?:${V4_SEG}\\.){3}${V4_SEG}`;
const V6_SEG = '(?:[0-9a-fA-F]{1,4})';
const IPV4 = new RegExp(`^${V4}$`);
// The same grammar as node:net's isIPv6: every placement of `::`, an IPv4 tail, and an optional zone id.
const IPV6 = new RegExp(
  '^(?:' +
    `(?:${V6_SEG}:){7}(?:${V6_SEG}|:)|` +
    `(?:${V6_SEG}:){6}(?:${V4}|:${V6_SEG}|:)|` +
    `(?:${V6_SEG}:){5}(?::${V4}|(?::${V6_SEG}){1,2}|:)|` +
    `(?:${V6_SEG}:){4}(?:(?::${V6_SEG}){0,1}:${V4}|(?::${V6_SEG}){1,3}|:)|` +
    `(?:${V6_SEG}:){3}(?:(?::${V6_SEG}){0,2}:${V4}|(?::${V6_SEG}){1,4}|:)|` +
    `(?:${V6_SEG}:){2}(?:(?::${V6_SEG}){0,3}:${V4}|(?::${V6_SEG}){1,5}|:)|` +
    `(?:${V6_SEG}:){1}(?:(?::${V6_SEG}){0,4}:${V4}|(?::${V6_SEG}){1,6}|:)|` +
    `(?::(?:(?::${V6_SEG}){0,5}:${V4}|(?::${V6_SEG}){1,7}|:))` +
    ')(?:%[0-9a-zA-Z-.:]{1,})?$',
);
const MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

export type EntryCheck =
  | { ok: true; family: 'ipv4' | 'ipv6'; prefix: number; single: boolean; address: string; describe: string }
  | { ok: false; error: string };

function ipFamily(value: string): 4 | 6 | 0 {
  if (IPV4.test(value)) return 4;
  if (IPV6.test(value)) return 6;
  return 0;
}

function rangeSize(family: 'ipv4' | 'ipv6', prefix: number): string {
  if (family === 'ipv4') {
    const n = 2 ** (32 - prefix);
    return `${n.toLocaleString('en-US')} addresses`;
  }
  return `/${prefix} network`;
}

/** Validates one entry the way the server will: literal address or CIDR, IPv4, IPv6 or IPv4-mapped IPv6. */
export function checkEntry(raw: string): EntryCheck {
  const entry = raw.trim();
  if (!entry) return { ok: false, error: 'Empty entry' };
  if (entry.length > 100) return { ok: false, error: 'Entry too long (at most 100 characters)' };
  const parts = entry.split('/');
  if (parts.length > 2) return { ok: false, error: 'Only one “/” is allowed, before the prefix length' };
  const [addressPart = '', prefixPart] = parts;
  let address = addressPart.trim();
  if (address.startsWith('[') && address.endsWith(']')) address = address.slice(1, -1);
  const mapped = MAPPED.exec(address);
  const mappedRange = mapped !== null;
  if (mapped?.[1]) address = mapped[1];
  const family = ipFamily(address);
  if (family === 0) {
    if (/^[\d.]+$/.test(address))
      return {
        ok: false,
        error: 'Not an IPv4 address: four numbers 0–255 without leading zeros, like 203.0.113.7',
      };
    if (address.includes(':')) return { ok: false, error: 'Not a valid IPv6 address' };
    return { ok: false, error: 'Not an IP address or CIDR range (host names are not accepted)' };
  }
  const fam = family === 4 ? 'ipv4' : 'ipv6';
  const max = family === 4 ? 32 : 128;
  if (prefixPart === undefined) {
    return {
      ok: true,
      family: fam,
      prefix: max,
      single: true,
      address,
      describe: mappedRange
        ? `IPv4-mapped · address ${address}`
        : `${fam === 'ipv4' ? 'IPv4' : 'IPv6'} address`,
    };
  }
  const prefixText = prefixPart.trim();
  if (!/^\d{1,3}$/.test(prefixText))
    return { ok: false, error: 'The prefix length after “/” must be a number' };
  let prefix = Number(prefixText);
  if (mappedRange) {
    if (prefix < 96 || prefix > 128)
      return { ok: false, error: 'An IPv4-mapped range needs a prefix length from 96 to 128' };
    prefix -= 96;
  }
  if (prefix > max)
    return {
      ok: false,
      error: `The prefix length must be at most ${max} for ${family === 4 ? 'IPv4' : 'IPv6'}`,
    };
  const label = fam === 'ipv4' ? 'IPv4' : 'IPv6';
  const size = prefix === max ? 'single address' : rangeSize(fam, prefix);
  return {
    ok: true,
    family: fam,
    prefix,
    single: prefix === max,
    address,
    describe: mappedRange
      ? `IPv4-mapped · ${address}/${prefix} · ${size}`
      : prefix === max
        ? `${label} address`
        : `${label} range · ${size}`,
  };
}
