import { isIP } from 'node:net';
import { checkTarget, parseTarget, pinnedLookup, type ResolvedAddress } from '../webhooks';
import type { SsoRuntime } from './runtime';

// Where Gatehouse may talk to an IdP (rule 12): HTTPS only, and never to a private, loopback or link-local
// address, judged by the webhooks module's address rules after DNS resolution (every address a name resolves to
// must pass). Every request to the IdP goes through `safeFetch`, so discovery, token, UserInfo and JWKS are all
// judged again at every sign-in, and the connection goes to the address that was judged (DNS is not asked a
// second time, so a rebinding name cannot swap in a private address between the check and the connect). SSO_ALLOW_INSECURE_ISSUER lets a loopback IdP answer over http or https (test
// rooms); it never opens private networks beyond loopback.

export class UnsafeEndpointError extends Error {}

function loopbackHost(url: URL): boolean {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/**
 * Throws UnsafeEndpointError when Gatehouse may not send a request to this URL now; otherwise the address to
 * connect to (null for a loopback IdP allowed by SSO_ALLOW_INSECURE_ISSUER, which the system resolves).
 */
export async function assertSafeEndpoint(rt: SsoRuntime, raw: string): Promise<ResolvedAddress | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeEndpointError(`Not a URL: ${raw}`);
  }
  if (rt.allowInsecureLoopback && loopbackHost(url) && ['http:', 'https:'].includes(url.protocol))
    return null;
  const target = parseTarget(raw, false);
  if (!target) throw new UnsafeEndpointError(`${url.origin} must be HTTPS on a public address`);
  const check = await checkTarget(target, rt.resolver, false);
  if (check.verdict === 'unresolved') throw new UnsafeEndpointError(`${url.hostname} does not resolve`);
  if (check.verdict === 'unsafe')
    throw new UnsafeEndpointError(`${url.hostname} resolves to a private or reserved address`);
  const [first] = check.addresses;
  if (!first) throw new UnsafeEndpointError(`${url.hostname} does not resolve`);
  return first;
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

/** Statuses whose response has no body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304]);

/** openid-client sends forms as URLSearchParams (with its own content-type header) and nothing else but text. */
function requestBody(body: RequestInit['body']): string | undefined {
  if (body == null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  throw new TypeError('Unsupported request body for an identity provider');
}

/**
 * A fetch whose connections go to `address` whatever the URL's name resolves to (TLS still checks the name).
 * undici's own fetch takes the pinned dispatcher; its answer is read whole (IdP documents and tokens are small)
 * and handed back as the platform's Response, which is what openid-client checks for. undici is loaded on the first
 * sign-in that needs it: it is about a fifth of a second of start-up otherwise (issue 18).
 */
export async function pinnedFetch(
  address: ResolvedAddress,
  url: string,
  options: RequestInit,
): Promise<Response> {
  const { Agent, fetch: undiciFetch } = await import('undici');
  const dispatcher = new Agent({ connect: { lookup: pinnedLookup(address) } });
  try {
    const res = await undiciFetch(url, {
      method: options.method,
      headers: [...new Headers(options.headers)],
      body: requestBody(options.body),
      signal: options.signal,
      redirect: 'manual',
      dispatcher,
    });
    const body = NULL_BODY.has(res.status) ? null : await res.arrayBuffer();
    return new Response(body, { status: res.status, statusText: res.statusText, headers: [...res.headers] });
  } finally {
    await dispatcher.close();
  }
}

/** fetch for openid-client: judges the URL first and never follows redirects (a redirect could leave the rules). */
export function safeFetch(rt: SsoRuntime) {
  return async (url: string, options: RequestInit): Promise<Response> => {
    const address = await assertSafeEndpoint(rt, url);
    if (!address) return fetch(url, { ...options, redirect: 'manual' });
    return pinnedFetch(address, url, options);
  };
}
