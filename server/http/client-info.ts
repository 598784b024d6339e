import type { Request, RequestHandler } from 'express';
import { IpRanges, normalizeIp } from './ip';

// The caller's address, resolved once per request. Forwarding headers are believed only when the direct peer is
// a configured trusted proxy (TRUST_PROXY_HEADERS and TRUSTED_PROXY_CIDRS); otherwise anyone could claim any
// address. A request that carries forwarding headers from an untrusted peer is marked untrusted, so the partner
// IP allowlist can refuse it (403 `untrusted_ip`) instead of guessing.

export interface ClientAddress {
  ip: string | null;
  /** False when forwarding headers were present but could not be believed. */
  trusted: boolean;
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
): ClientAddress {
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

/** Middleware: computes `req.clientAddress` for every request. */
export function clientAddressResolver(trust: ProxyTrust): RequestHandler {
  const compiled = { enabled: trust.enabled, proxies: new IpRanges(trust.cidrs) };
  return (req, _res, next) => {
    req.clientAddress = resolveClientAddress(
      req.socket.remoteAddress,
      { forwardedFor: req.get('x-forwarded-for'), realIp: req.get('x-real-ip') },
      compiled,
    );
    next();
  };
}

/** The caller's address and user agent, as recorded in audit entries and sessions. */
export function clientInfo(req: Request): ClientInfo {
  const ipAddress =
    req.clientAddress?.ip ?? (req.socket.remoteAddress ? normalizeIp(req.socket.remoteAddress) : null);
  const ua = req.get('user-agent');
  return { ipAddress, userAgent: ua ? ua.slice(0, 512) : null };
}
