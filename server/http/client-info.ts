import type { Request } from 'express';

export interface ClientInfo {
  ipAddress: string | null;
  userAgent: string | null;
}

/** The caller's address and user agent, as recorded in audit entries and sessions. */
export function clientInfo(req: Request): ClientInfo {
  const raw = req.socket.remoteAddress ?? null;
  // Record IPv4 clients as plain dotted quads rather than IPv4-mapped IPv6.
  const ipAddress = raw?.startsWith('::ffff:') ? raw.slice(7) : raw;
  const ua = req.get('user-agent');
  return { ipAddress, userAgent: ua ? ua.slice(0, 512) : null };
}
