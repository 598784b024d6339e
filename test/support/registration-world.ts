import { expect } from 'vitest';
import { lastMessageTo } from './seed';
import type { TestServer } from './server';

// Self-registration through the outbox, over real HTTP. The server trusts X-Forwarded-For from loopback so each
// test can come from its own address and the per-IP registration limits stay independent between tests.
//
// Shared by the registration suites (test/integration/registration-*.test.ts); each suite starts its own servers.

export const PROXY_ENV = { TRUST_PROXY_HEADERS: 'true', TRUSTED_PROXY_CIDRS: '127.0.0.1/32,::1/128' };
export const ACCEPTED = {
  success: true,
  message:
    'Check your inbox: if this address can be registered, we have sent it a verification link. The link is valid for 24 hours.',
};

export const INVALID = { error: 'invalid or expired token' };
export const PASSWORD = 'Lantern-Harbor-77';

let ipCounter = 0;
export const freshIp = () => `198.51.100.${++ipCounter}`;

export function post(server: TestServer, path: string, body: unknown, ip: string) {
  return server.api.request('POST', path, { body, headers: { 'x-forwarded-for': ip } });
}

export function partnerBody(email: string, companyName = 'Globex Services') {
  return { companyName, name: 'Hank Scorpio', email, password: PASSWORD, acceptTerms: true };
}

/** register-partner, then the token from the verification email. */
export async function registerPartner(
  server: TestServer,
  email: string,
  companyName?: string,
): Promise<string> {
  const res = await post(server, '/auth/register-partner', partnerBody(email, companyName), freshIp());
  expect(res.status).toBe(200);
  const { token } = lastMessageTo(server, email);
  if (!token) throw new Error('no token in the verification email');
  return token;
}

export const count = (server: TestServer, sql: string, ...params: unknown[]) =>
  (server.context.db.prepare(sql).get(...params) as { n: number }).n;
