import { afterAll, beforeAll, expect } from 'vitest';
import { seedKeyCallers, type KeyCallerIds, type KeyCallerTokens } from './key-callers';
import { insertOrgRole, insertOrgUser, insertSite, mfaToken, PASSWORD } from './seed';
import type { ApiClient } from './server';
import { auditSettled, startServer, type ApiResponse, type TestServer } from './server';

// /pam/rules (spec 2 "PAM rule", "Rule validation", Privileged access endpoints): CRUD against a real server and
// SQLite, every rule of the validation paragraph, re-approval of suspended rules, stale tiers in the list, the
// scope matrix (organization, partner, system, API keys, a site-restricted technician), permissions and MFA,
// and the audit trail. P1 owns A1 and A2, P2 owns B1 (test/support/key-callers.ts).
//
// Shared by the /pam/rules suites (test/integration/pam-rules-*.test.ts). The bindings are live: a suite calls
// usePamRulesWorld() once at its top and reads them inside its tests.

export let server: TestServer;
export let api: ApiClient;
export let ids: KeyCallerIds;
export let tok: KeyCallerTokens;
export let siteA1b: string;
export let restricted: string;
export let restrictedId: string;
export let keyManage: string;
export let keyRead: string;

export const H = (c: string) => c.repeat(64);

export async function createKey(orgId: string, scopes: string[]): Promise<string> {
  const res = await server.api.post(
    '/api-keys',
    { orgId, name: `pam ${scopes.join(' ')}`, scopes },
    tok.system,
  );
  if (res.status !== 201) throw new Error(`key: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.key as string;
}

export type Caller = string | { key: string };
export const opts = (caller: Caller) =>
  typeof caller === 'string' ? { token: caller } : { headers: { 'x-api-key': caller.key } };

export const call = (method: string, path: string, caller: Caller, body?: unknown) =>
  api.request(method, path, { ...opts(caller), ...(body !== undefined ? { body } : {}) });

export const create = (body: Record<string, unknown>, caller: Caller = tok.orgAdmin) =>
  call('POST', '/pam/rules', caller, body);

export async function createOk(body: Record<string, unknown>, caller: Caller = tok.orgAdmin) {
  const res = await create({ name: 'rule', verdict: 'auto_approve', ...body }, caller);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string } & Record<string, unknown>;
}

export function expectError(res: ApiResponse, status: number, error: string | RegExp, code?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (typeof error === 'string') expect(res.body.error).toBe(error);
  else expect(res.body.error).toMatch(error);
  if (code) expect(res.body.code).toBe(code);
}

export const storedRule = (id: string) =>
  server.context.db.prepare('SELECT * FROM pam_rules WHERE id = ?').get(id) as
    Record<string, unknown> | undefined;

export async function auditEntries(action: string, resourceId?: string) {
  await auditSettled(server);
  return server.context.db
    .prepare(
      `SELECT org_id, actor_type, actor_id, action, resource_type, resource_id, resource_name, details
       FROM audit_logs WHERE action = ? AND (? IS NULL OR resource_id = ?) ORDER BY rowid`,
    )
    .all(action, resourceId ?? null, resourceId ?? null) as Array<
    { details: string } & Record<string, unknown>
  >;
}

export const NO_CRITERION =
  'A rule needs at least one identifying criterion (signer, signer group, hash, path, parent, command line, user, group, tool, tier); a time window alone is not enough';

export const MIXED =
  'A rule matches an executable (signer, signer group, thumbprint, hash, path, parent, command line) or an AI tool action (tool name, risk tier), never both';

/** Registers the world's hooks; call once at the top of each suite that uses it. */
export function usePamRulesWorld(): void {
  beforeAll(async () => {
    server = await startServer();
    ({ ids, tok } = await seedKeyCallers(server));
    api = server.api;
    siteA1b = insertSite(server, ids.a1, 'Alpha Branch');
    // A policy manager of A1 restricted to the Alpha HQ site.
    const db = server.context.db;
    const roleId = insertOrgRole(server, ids.a1, 'Site policy', [
      ['devices', 'view'],
      ['devices', 'update'],
      ['pam', 'manage_policy'],
    ]);
    restrictedId = await insertOrgUser(server, ids.a1, roleId, 'site@a1.test');
    db.prepare('UPDATE organization_users SET site_ids = ? WHERE user_id = ?').run(
      JSON.stringify([ids.siteA1]),
      restrictedId,
    );
    restricted = await mfaToken(server, 'site@a1.test', PASSWORD);
    keyManage = await createKey(ids.a1, ['devices:read', 'devices:write', 'pam:manage_policy']);
    keyRead = await createKey(ids.a1, ['devices:read']);
  });

  afterAll(async () => {
    await server.dispose();
  });
}
