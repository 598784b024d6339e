import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

// Where a webhook may point (spec 2 Webhooks, URL safety): HTTPS only; never `localhost`, `*.localhost`, `*.local`,
// nor a private, loopback, link-local, shared, documentation, unspecified or multicast address, in IPv4 or IPv6,
// including IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4). The host is judged after the
// WHATWG URL parser has normalised it: decimal (`2130706433`), hex (`0x7f000001`), octal (`0177.0.0.1`) and short
// (`127.1`) IPv4 forms all come out dotted-quad, so one address check covers every spelling. Names are judged
// again after DNS resolution: every resolved address must pass, and the request then connects to the address that
// passed (sender.ts), so a name cannot resolve to something else between check and connect.

/** One resolved address, as dns.lookup({all: true}) returns it. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has; injectable so tests can play a rebinding DNS server. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/**
 * A socket `lookup` that answers every name with the address already judged, so the connection cannot land
 * anywhere else (DNS is not asked twice, a rebinding answer never reaches the socket).
 */
export function pinnedLookup(address: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  };
}

/**
 * Shares one lookup among the attempts that ask for the same name while it is in flight (a burst of deliveries
 * to one receiver asks at once). Nothing is kept after it settles, so every attempt still judges an answer DNS
 * gave after the attempt began.
 */
export function singleFlight(resolver: Resolver): Resolver {
  const inFlight = new Map<string, Promise<ResolvedAddress[]>>();
  return (hostname) => {
    const key = hostname.toLowerCase();
    const pending = inFlight.get(key);
    if (pending) return pending;
    const lookup = resolver(hostname).finally(() => inFlight.delete(key));
    inFlight.set(key, lookup);
    return lookup;
  };
}

/** Never a valid target, even with WEBHOOK_ALLOW_PRIVATE_TARGETS: nothing answers there as a web server. */
const NEVER = new BlockList();
NEVER.addSubnet('0.0.0.0', 8, 'ipv4'); // "this network", includes the unspecified address
NEVER.addSubnet('224.0.0.0', 4, 'ipv4'); // multicast
NEVER.addSubnet('240.0.0.0', 4, 'ipv4'); // reserved, includes broadcast
NEVER.addAddress('::', 'ipv6'); // unspecified
NEVER.addSubnet('ff00::', 8, 'ipv6'); // multicast

/** Private-network and special-purpose ranges: refused unless WEBHOOK_ALLOW_PRIVATE_TARGETS is on. */
const PRIVATE = new BlockList();
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4'); // RFC 1918
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4'); // RFC 1918
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4'); // RFC 1918
PRIVATE.addSubnet('100.64.0.0', 10, 'ipv4'); // RFC 6598 shared address space (carrier-grade NAT)
PRIVATE.addSubnet('127.0.0.0', 8, 'ipv4'); // loopback
PRIVATE.addSubnet('169.254.0.0', 16, 'ipv4'); // link-local (cloud metadata services live here)
PRIVATE.addSubnet('192.0.0.0', 24, 'ipv4'); // IETF protocol assignments
PRIVATE.addSubnet('192.0.2.0', 24, 'ipv4'); // RFC 5737 TEST-NET-1
PRIVATE.addSubnet('198.51.100.0', 24, 'ipv4'); // RFC 5737 TEST-NET-2
PRIVATE.addSubnet('203.0.113.0', 24, 'ipv4'); // RFC 5737 TEST-NET-3
PRIVATE.addSubnet('198.18.0.0', 15, 'ipv4'); // benchmarking
PRIVATE.addAddress('::1', 'ipv6'); // loopback
PRIVATE.addSubnet('fc00::', 7, 'ipv6'); // unique local addresses
PRIVATE.addSubnet('fe80::', 10, 'ipv6'); // link-local
PRIVATE.addSubnet('fec0::', 10, 'ipv6'); // deprecated site-local
PRIVATE.addSubnet('2001:db8::', 32, 'ipv6'); // documentation
PRIVATE.addSubnet('100::', 64, 'ipv6'); // discard-only
PRIVATE.addSubnet('64:ff9b:1::', 48, 'ipv6'); // local-use NAT64 (RFC 8215)

/** The 16 bytes of an IPv6 address (isIP() said it is one; `::` and embedded dotted quads are expanded). */
function ipv6Bytes(address: string): number[] {
  let text = address.split('%')[0] ?? address; // a zone id says nothing about the address
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const groups = (part: string) => (part ? part.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const words = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

const dottedQuad = (bytes: number[]) => bytes.join('.');

/**
 * The IPv4 address an IPv6 address stands for, when it carries one: IPv4-mapped `::ffff:a.b.c.d`, the deprecated
 * IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::a.b.c.d` and 6to4 `2002:aabb:ccdd::`. Each reaches the IPv4 host,
 * so it must pass the IPv4 rules.
 */
function embeddedIpv4(address: string): string | null {
  const b = ipv6Bytes(address);
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return dottedQuad(b.slice(12));
  if (zeros(0, 12) && !zeros(12, 16)) return dottedQuad(b.slice(12));
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12))
    return dottedQuad(b.slice(12));
  if (b[0] === 0x20 && b[1] === 0x02) return dottedQuad(b.slice(2, 6));
  return null;
}

/** Whether a webhook may connect to this IP address. */
export function addressAllowed(address: string, allowPrivate: boolean): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4 !== null && !addressAllowed(v4, allowPrivate)) return false;
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (NEVER.check(address, type)) return false;
  return allowPrivate || !PRIVATE.check(address, type);
}

/** Names that mean this machine or the local link, whatever DNS says. */
function localName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || name.endsWith('.local');
}

/** A URL as the sender uses it: parsed, HTTPS, with its host as a bare name or IP (no IPv6 brackets). */
export interface WebhookTarget {
  url: URL;
  host: string;
  /** Set when the URL names an IP address rather than a host name. */
  ip: string | null;
}

/** Parses and checks the parts of a URL that need no DNS; null when it may not be a webhook target. */
export function parseTarget(raw: string, allowPrivate: boolean): WebhookTarget | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return null;
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (!host) return null;
  if (isIP(host)) return addressAllowed(host, allowPrivate) ? { url, host, ip: host } : null;
  if (!allowPrivate && localName(host)) return null;
  return { url, host, ip: null };
}

/** What a target was found to be after DNS: `unresolved` when the name has no address (now). */
export type TargetCheck =
  { verdict: 'safe'; addresses: ResolvedAddress[] } | { verdict: 'unsafe' | 'unresolved'; addresses: [] };

/**
 * The addresses a target may be reached at: every address the name resolves to must be allowed (one bad address
 * refuses the lot, since whoever controls the name controls which one a client would pick).
 */
export async function checkTarget(
  target: WebhookTarget,
  resolver: Resolver,
  allowPrivate: boolean,
): Promise<TargetCheck> {
  if (target.ip)
    return { verdict: 'safe', addresses: [{ address: target.ip, family: isIP(target.ip) === 6 ? 6 : 4 }] };
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolver(target.host);
  } catch {
    return { verdict: 'unresolved', addresses: [] };
  }
  if (addresses.length === 0) return { verdict: 'unresolved', addresses: [] };
  if (!addresses.every((a) => addressAllowed(a.address, allowPrivate)))
    return { verdict: 'unsafe', addresses: [] };
  return { verdict: 'safe', addresses };
}

/**
 * The create/update check (spec 2: with DNS resolution). Only `unsafe` is refused: a name that does not resolve
 * today points nowhere, and every attempt checks again before it sends.
 */
export async function judgeUrl(
  raw: string,
  resolver: Resolver,
  allowPrivate: boolean,
): Promise<TargetCheck['verdict']> {
  const target = parseTarget(raw, allowPrivate);
  if (!target) return 'unsafe';
  return (await checkTarget(target, resolver, allowPrivate)).verdict;
}
