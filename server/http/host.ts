import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RequestHandler } from 'express';
import type { Config } from '../config';
import type { ClientResolver } from './client-info';
import { HttpError } from './errors';
import { normalizeIp } from './ip';

// The Host check: a defence against DNS rebinding. A page on a hostile site can point its own name at 127.0.0.1
// and then talk to the desktop's localhost server as "same origin"; the one thing it cannot change is the Host
// header, which still carries its name. So a request is served only when it addresses one of our own names.
// IP literals always pass: rebinding needs a name the attacker controls, and a LAN install reached by address
// (HOST=0.0.0.0) must keep working. Ports are not compared: a proxy may forward its own port, and a name that
// resolves to us is what matters. Behind a trusted proxy the forwarded host is checked (client-info.ts).

/** The one message for every refusal, API, console page or WebSocket upgrade alike. */
export const HOST_NOT_ALLOWED = 'Host not allowed';

const hostNotAllowed = () => new HttpError(421, HOST_NOT_ALLOWED, 'HOST_NOT_ALLOWED');

/** `name`, `name:port`, `[v6]` or `[v6]:port` -> the lower-cased name; null for anything else. */
function hostnameOf(host: string): string | null {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::\d{1,5})?$/i.exec(host.trim());
  return match?.[1]?.toLowerCase() ?? null;
}

const hostnameOfUrl = (url: string): string | null => {
  try {
    return new URL(url).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
};

/**
 * Our own names: `localhost`, the listen HOST, and the names of the settings that say where the console is
 * served (PUBLIC_URL, WEBAUTHN_ORIGINS, WEBAUTHN_RP_ID). An install under a real hostname sets those anyway
 * (links in emails, agent install scripts, passkeys), so the check needs no setting of its own.
 */
export function allowedHostnames(
  config: Pick<Config, 'host' | 'publicUrl' | 'webauthnOrigins' | 'webauthnRpId'>,
): string[] {
  const names = [
    'localhost',
    config.host,
    config.webauthnRpId,
    ...(config.publicUrl ? [hostnameOfUrl(config.publicUrl)] : []),
    ...config.webauthnOrigins.map(hostnameOfUrl),
  ];
  return [...new Set(names.filter((n): n is string => !!n).map((n) => n.toLowerCase()))];
}

export class HostPolicy {
  private readonly names: ReadonlySet<string>;

  constructor(hostnames: readonly string[]) {
    this.names = new Set(hostnames.map((n) => n.toLowerCase()));
  }

  /** True when `host` (a Host header value) names this server. A missing or malformed Host is refused. */
  allows(host: string | null): boolean {
    const name = host === null ? null : hostnameOf(host);
    if (!name) return false;
    return this.names.has(name) || normalizeIp(name) !== null;
  }
}

/** Express middleware; runs after the client resolver, whose `host` honours a trusted proxy. */
export function hostCheck(policy: HostPolicy): RequestHandler {
  return (req, _res, next) => {
    if (!policy.allows(req.clientAddress?.host ?? null)) throw hostNotAllowed();
    next();
  };
}

/**
 * The same check for WebSocket upgrades, which bypass express: answers 421 on the raw socket and returns false
 * for a foreign host, so the caller stops before any hub sees the request.
 */
export function upgradeHostCheck(
  policy: HostPolicy,
  resolve: ClientResolver,
): (req: IncomingMessage, socket: Duplex) => boolean {
  return (req, socket) => {
    if (policy.allows(resolve(req).host)) return true;
    const err = hostNotAllowed();
    const body = JSON.stringify({ error: err.message, code: err.code });
    socket.end(
      `HTTP/1.1 421 Misdirected Request\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    return false;
  };
}
