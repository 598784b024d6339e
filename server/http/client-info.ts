import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Request, RequestHandler } from 'express';
import { IpRanges, normalizeIp } from './ip';

// What the client is and asked for, resolved once per request: its address, whether it came over TLS, and the
// host it addressed. Forwarding headers are believed only when the direct peer is a configured trusted proxy
// (TRUST_PROXY_HEADERS and TRUSTED_PROXY_CIDRS); otherwise anyone could claim any address, scheme or host. A
// request that carries X-Forwarded-For/X-Real-IP from an untrusted peer is marked untrusted, so the partner IP
// allowlist can refuse it (403 `untrusted_ip`) instead of guessing. This is the only place that reads those
// headers: express's own `trust proxy` stays off, so `req.ip`, `req.secure` and `req.hostname` are not used.

export interface ClientAddress {
  ip: string | null;
  /** False when forwarding headers were present but could not be believed. */
  trusted: boolean;
  /** The client's connection is TLS: our own socket, or `X-Forwarded-Proto: https` from a trusted proxy. */
  https: boolean;
  /** The Host the client addressed (with any port): `X-Forwarded-Host` from a trusted proxy, else `Host`. */
  host: string | null;
}

export interface ClientInfo {
  ipAddress: string | null;
  userAgent: string | null;
}

declare module 'express-serve-static-core' {
  interface Request {
    clientAddress?: ClientAddress;
  }
}

export interface ProxyTrust {
  enabled: boolean;
  cidrs: readonly string[];
}

export function resolveClientAddress(
  peer: string | undefined,
  headers: { forwardedFor?: string; realIp?: string },
  trust: { enabled: boolean; proxies: IpRanges },
): Pick<ClientAddress, 'ip' | 'trusted'> {
  const peerIp = peer ? normalizeIp(peer) : null;
  const forwarded = headers.forwardedFor?.trim() || undefined;
  const realIp = headers.realIp?.trim() || undefined;
  if (!forwarded && !realIp) return { ip: peerIp, trusted: true };
  if (!trust.enabled || !trust.proxies.has(peerIp)) return { ip: peerIp, trusted: false };
  if (forwarded) {
    // Walk from the nearest hop outwards, skipping our own proxies; the first other address is the client.
    const hops = forwarded.split(',').map((h) => h.trim());
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = normalizeIp(hops[i] ?? '');
      if (!hop) return { ip: peerIp, trusted: false };
      if (!trust.proxies.has(hop) || i === 0) return { ip: hop, trusted: true };
    }
  }
  const real = realIp ? normalizeIp(realIp) : null;
  return real ? { ip: real, trusted: true } : { ip: peerIp, trusted: false };
}

export type ClientResolver = (req: IncomingMessage) => ClientAddress;

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
};
/** A proxy that appends to X-Forwarded-Proto/-Host leaves the client-facing value first (as express reads it). */
const firstOf = (value: string | undefined): string | undefined => value?.split(',')[0]?.trim() || undefined;

/** Compiles the proxy trust once; the resolver serves express requests and WebSocket upgrades alike. */
export function clientResolver(trust: ProxyTrust): ClientResolver {
  const compiled = { enabled: trust.enabled, proxies: new IpRanges(trust.cidrs) };
  return (req) => {
    const peer = req.socket.remoteAddress;
    const { ip, trusted } = resolveClientAddress(
      peer,
      { forwardedFor: header(req, 'x-forwarded-for'), realIp: header(req, 'x-real-ip') },
      compiled,
    );
    const viaProxy = compiled.enabled && compiled.proxies.has(peer ? normalizeIp(peer) : null);
    const proto = viaProxy ? firstOf(header(req, 'x-forwarded-proto'))?.toLowerCase() : undefined;
    const ownTls = (req.socket as Partial<TLSSocket>).encrypted === true;
    const forwardedHost = viaProxy ? firstOf(header(req, 'x-forwarded-host')) : undefined;
    return {
      ip,
      trusted,
      https: proto ? proto === 'https' : ownTls,
      host: forwardedHost ?? req.headers.host ?? null,
    };
  };
}

/** Middleware: computes `req.clientAddress` for every request. */
export function clientAddressResolver(resolve: ClientResolver): RequestHandler {
  return (req, _res, next) => {
    req.clientAddress = resolve(req);
    next();
  };
}

/** Whether the client reached us over https (directly or through a trusted TLS-terminating proxy). */
export function isHttpsRequest(req: Request): boolean {
  return req.clientAddress?.https ?? false;
}

/** The caller's address and user agent, as recorded in audit entries and sessions. */
export function clientInfo(req: Request): ClientInfo {
  const ipAddress =
    req.clientAddress?.ip ?? (req.socket.remoteAddress ? normalizeIp(req.socket.remoteAddress) : null);
  const ua = req.get('user-agent');
  return { ipAddress, userAgent: ua ? ua.slice(0, 512) : null };
}
