import { afterAll, beforeAll, expect } from 'vitest';
import { redeemEnrollmentKey } from '../../server/modules/enrollment-keys/service';
import { startServer, type ApiResponse, type TestServer } from './server';
import { insertSite } from './seed';
import { seedKeyCallers, type KeyCallerIds, type KeyCallerTokens } from './key-callers';

// /enrollment-keys (spec 1: Enrollment key, Authentication §6) and the redemption used by agent enrollment.
// The tenant tree and its callers are those of the API key tests (test/support/key-callers.ts), plus a site in A2.
//
// Shared by the enrollment key suites (test/integration/enrollment-keys-*.test.ts). The bindings are live: a suite
// calls useEnrollmentKeysWorld() once at its top and reads them inside its tests.

export let server: TestServer;
export let ids: KeyCallerIds & { siteA2: string };
export let tok: KeyCallerTokens;

export type Body = Record<string, unknown>;

export const call = (method: string, path: string, token: string, body?: unknown) =>
  server.api.request(method, path, { token, ...(body !== undefined ? { body } : {}) });

export async function createKey(body: Body, token = tok.system): Promise<{ id: string; key: string } & Body> {
  const res = await call('POST', '/enrollment-keys', token, { name: 'Rollout', ...body });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export const row = (id: string) =>
  server.context.db.prepare('SELECT * FROM enrollment_keys WHERE id = ?').get(id) as
    Record<string, unknown> | undefined;

export function expectError(res: ApiResponse, status: number, error: string, code?: string) {
  expect({ status: res.status, error: res.body?.error }).toEqual({ status, error });
  if (code) expect(res.body.code).toBe(code);
}

export const redeem = (key: string) => redeemEnrollmentKey(server.context, key);

/** Registers the world's hooks; call once at the top of each suite that uses it. */
export function useEnrollmentKeysWorld(): void {
  beforeAll(async () => {
    server = await startServer();
    const seeded = await seedKeyCallers(server);
    tok = seeded.tok;
    ids = { ...seeded.ids, siteA2: insertSite(server, seeded.ids.a2, 'Alpha Two HQ') };
  });

  afterAll(async () => {
    await server.dispose();
  });
}
