import { BlockList, isIP } from 'node:net';

// Address parsing shared by trusted-proxy resolution and the partner IP allowlist. node:net's BlockList does the
// matching; this file only normalises input (IPv4-mapped IPv6 becomes plain IPv4) and validates entries.

export type IpFamily = 'ipv4' | 'ipv6';

/** `::ffff:10.1.2.3` -> `10.1.2.3`; other addresses unchanged. Returns null for anything that is not an IP. */
export function normalizeIp(raw: string): string | null {
  let value = raw.trim();
  if (value.startsWith('[') && value.endsWith(']')) value = value.slice(1, -1);
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(value);
  if (mapped?.[1]) value = mapped[1];
  const family = isIP(value);
  if (family === 0) return null;
  return family === 4 ? value : value.toLowerCase();
}

export interface ParsedRange {
  address: string;
  prefix: number;
  family: IpFamily;
}

/**
 * Parses one allowlist or trusted-proxy entry: a literal address or a CIDR range, IPv4, IPv6 or IPv4-mapped IPv6
 * (`::ffff:10.0.0.0/104` is the IPv4 range `10.0.0.0/8`). Returns null when the entry is not valid.
 */
export function parseRange(entry: string): ParsedRange | null {
  const [addressPart, prefixPart, ...rest] = entry.trim().split('/');
  if (rest.length || !addressPart) return null;
  const rawAddress = addressPart.trim();
  const mappedRange = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.test(rawAddress);
  const address = normalizeIp(rawAddress);
  if (!address) return null;
  const family: IpFamily = isIP(address) === 4 ? 'ipv4' : 'ipv6';
  const max = family === 'ipv4' ? 32 : 128;
  if (prefixPart === undefined) return { address, prefix: max, family };
  if (!/^\d{1,3}$/.test(prefixPart.trim())) return null;
  let prefix = Number(prefixPart.trim());
  if (mappedRange) {
    if (prefix < 96 || prefix > 128) return null;
    prefix -= 96;
  }
  if (prefix > max) return null;
  return { address, prefix, family };
}

/** A compiled set of ranges. Build it once per distinct list; `has` is cheap. */
export class IpRanges {
  private readonly list = new BlockList();
  readonly size: number;

  constructor(entries: readonly string[]) {
    let size = 0;
    for (const entry of entries) {
      const range = parseRange(entry);
      if (!range) continue;
      this.list.addSubnet(range.address, range.prefix, range.family);
      size++;
    }
    this.size = size;
  }

  has(ip: string | null): boolean {
    const address = ip ? normalizeIp(ip) : null;
    if (!address) return false;
    return this.list.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6');
  }
}

/**
 * The block one client controls, for counting failures per address: an IPv4 address itself, an IPv6 address's
 * /64 (one subscriber gets a whole /64, so counting single IPv6 addresses would let them rotate for free).
 * `unknown` when the address is missing or unreadable, so such callers share one budget.
 */
export function addressBlock(ip: string | null): string {
  const address = ip ? normalizeIp(ip.split('%')[0] ?? '') : null;
  if (!address) return 'unknown';
  if (isIP(address) === 4) return address;
  const [head = '', tail] = address.split('::');
  const groups = (part: string): string[] =>
    part ? part.split(':').flatMap((g) => (g.includes('.') ? ipv4AsGroups(g) : [g])) : [];
  const left = groups(head);
  const right = groups(tail ?? '');
  const fill = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  const all = [...left, ...fill, ...right].map((g) => parseInt(g, 16).toString(16));
  return `${all.slice(0, 4).join(':')}::/64`;
}

/** `192.0.2.1` inside an IPv6 address (`::ffff:…`, `64:ff9b::…`) as its two 16-bit groups. */
function ipv4AsGroups(v4: string): string[] {
  const [a = 0, b = 0, c = 0, d = 0] = v4.split('.').map(Number);
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}
