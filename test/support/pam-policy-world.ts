import { afterAll, beforeAll, expect } from 'vitest';
import { seedKeyCallers, type KeyCallerIds, type KeyCallerTokens } from './key-callers';
import { insertOrgRole, insertOrgUser, mfaToken, PASSWORD } from './seed';
import type { ApiClient } from './server';
import { auditSettled, startServer, type ApiResponse, type TestServer } from './server';

// /pam/signer-groups, /pam/config and /pam/ai-tools (spec 2 "Signer group", "PAM organization configuration"),
// and the start-up warning for tier-pinned rules that can no longer match.
//
// Shared by test/integration/pam-policy-signer-groups.test.ts and pam-policy-config.test.ts. The bindings are live: a
// suite calls usePamPolicyWorld() once at its top and reads them inside its tests.

export let server: TestServer;
export let api: ApiClient;
export let ids: KeyCallerIds;
export let tok: KeyCallerTokens;
export let restricted: string;
export let keyManage: string;

export type Caller = string | { key: string };
export const call = (method: string, path: string, caller: Caller, body?: unknown) =>
  api.request(method, path, {
    ...(typeof caller === 'string' ? { token: caller } : { headers: { 'x-api-key': caller.key } }),
    ...(body !== undefined ? { body } : {}),
  });

export function expectError(res: ApiResponse, status: number, error: string | RegExp, code?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (typeof error === 'string') expect(res.body.error).toBe(error);
  else expect(res.body.error).toMatch(error);
  if (code) expect(res.body.code).toBe(code);
}

export async function lastAudit(action: string, resourceId: string) {
  await auditSettled(server);
  return server.context.db
    .prepare(
      `SELECT org_id, actor_type, actor_id, resource_type, resource_name, details FROM audit_logs
       WHERE action = ? AND resource_id = ? ORDER BY rowid DESC LIMIT 1`,
    )
    .get(action, resourceId) as ({ details: string } & Record<string, unknown>) | undefined;
}

export const storedGroup = (id: string) =>
  server.context.db.prepare('SELECT * FROM pam_signer_groups WHERE id = ?').get(id) as
    Record<string, unknown> | undefined;

/** Registers the world's hooks; call once at the top of each suite that uses it. */
export function usePamPolicyWorld(): void {
  beforeAll(async () => {
    server = await startServer();
    ({ ids, tok } = await seedKeyCallers(server));
    api = server.api;
    const db = server.context.db;
    const roleId = insertOrgRole(server, ids.a1, 'Site policy', [
      ['devices', 'view'],
      ['devices', 'update'],
      ['pam', 'manage_policy'],
    ]);
    const userId = await insertOrgUser(server, ids.a1, roleId, 'site@a1.test');
    db.prepare('UPDATE organization_users SET site_ids = ? WHERE user_id = ?').run(
      JSON.stringify([ids.siteA1]),
      userId,
    );
    restricted = await mfaToken(server, 'site@a1.test', PASSWORD);
    const key = await server.api.post(
      '/api-keys',
      { orgId: ids.a1, name: 'pam policy', scopes: ['devices:read', 'devices:write', 'pam:manage_policy'] },
      tok.system,
    );
    keyManage = key.body.key as string;
  });

  afterAll(async () => {
    await server.dispose();
  });
}
