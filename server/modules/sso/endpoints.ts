import { isIP } from 'node:net';
import { checkTarget, parseTarget } from '../webhooks';
import type { SsoRuntime } from './runtime';

// Where Gatehouse may talk to an IdP (rule 12): HTTPS only, and never to a private, loopback or link-local
// address, judged by the webhooks module's address rules after DNS resolution (every address a name resolves to
// must pass). Every request to the IdP goes through `safeFetch`, so discovery, token, UserInfo and JWKS are all
// judged again at every sign-in. SSO_ALLOW_INSECURE_ISSUER lets a loopback IdP answer over http or https (test
// rooms); it never opens private networks beyond loopback.

export class UnsafeEndpointError extends Error {}

function loopbackHost(url: URL): boolean {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/** Throws UnsafeEndpointError when Gatehouse may not send a request to this URL now. */
export async function assertSafeEndpoint(rt: SsoRuntime, raw: string): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeEndpointError(`Not a URL: ${raw}`);
  }
  if (rt.allowInsecureLoopback && loopbackHost(url) && ['http:', 'https:'].includes(url.protocol)) return;
  const target = parseTarget(raw, false);
  if (!target) throw new UnsafeEndpointError(`${url.origin} must be HTTPS on a public address`);
  const check = await checkTarget(target, rt.resolver, false);
  if (check.verdict === 'unresolved') throw new UnsafeEndpointError(`${url.hostname} does not resolve`);
  if (check.verdict === 'unsafe')
    throw new UnsafeEndpointError(`${url.hostname} resolves to a private or reserved address`);
}

/** An issuer an http URL may name: only a loopback one, only with SSO_ALLOW_INSECURE_ISSUER. */
export function insecureAllowed(rt: SsoRuntime, raw: string): boolean {
  try {
    const url = new URL(raw);
    return rt.allowInsecureLoopback && url.protocol === 'http:' && loopbackHost(url);
  } catch {
    return false;
  }
}

/** fetch for openid-client: judges the URL first and never follows redirects (a redirect could leave the rules). */
export function safeFetch(rt: SsoRuntime) {
  return async (url: string, options: RequestInit): Promise<Response> => {
    await assertSafeEndpoint(rt, url);
    return fetch(url, { ...options, redirect: 'manual' });
  };
}
