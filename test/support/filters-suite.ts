import { afterAll, beforeAll, expect } from 'vitest';
import type { FilterCondition, FilterConditionGroup } from '../../server/contract/filters';
import { insertFleet, type Fleet } from './fleet';
import { seedKeyCallers, type KeyCallerIds, type KeyCallerTokens } from './key-callers';
import { insertOrgUser, mfaToken, PASSWORD, ROLES } from './seed';
import { auditSettled, startServer, type ApiResponse, type TestServer } from './server';

// The world of the saved-filter suites (test/integration/filters-*.test.ts): a server, the key-caller tenant tree
// (P1 owns A1 and A2, P2 owns B1), a seeded fleet of 96 devices over A1, A2 and B1, a read-only user of A1 and
// two API keys of A1; and the calls the suites make. The bindings below are live: a suite calls
// useFiltersSuite() once at its top and reads them inside its tests.

export let server: TestServer;
export let ids: KeyCallerIds;
export let tok: KeyCallerTokens;
export let fleet: Fleet;
export let readOnly: string;
export let keyRead: string;
export let keyWrite: string;

export function useFiltersSuite(): void {
  beforeAll(async () => {
    server = await startServer();
    ({ ids, tok } = await seedKeyCallers(server));
    fleet = insertFleet(server.context.db, { orgIds: [ids.a1, ids.a2, ids.b1], count: 96, seed: 42 });
    await insertOrgUser(server, ids.a1, ROLES.orgReadOnly, 'ro@a1.test');
    readOnly = await mfaToken(server, 'ro@a1.test', PASSWORD);
    keyRead = await createKey(ids.a1, ['devices:read']);
    keyWrite = await createKey(ids.a1, ['devices:read', 'devices:write']);
  });

  afterAll(async () => {
    await server.dispose();
  });
}

async function createKey(orgId: string, scopes: string[]): Promise<string> {
  const res = await server.api.post(
    '/api-keys',
    { orgId, name: `filters ${scopes.join(' ')}`, scopes },
    tok.system,
  );
  if (res.status !== 201) throw new Error(`key: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.key as string;
}

export type Caller = { token: string } | { key: string };
export const callerOptions = (caller: Caller) =>
  'token' in caller ? { token: caller.token } : { headers: { 'x-api-key': caller.key } };

export const call = (method: string, path: string, caller: Caller, body?: unknown) =>
  server.api.request(method, path, { ...callerOptions(caller), ...(body !== undefined ? { body } : {}) });

export const group = (
  operator: 'AND' | 'OR',
  ...conditions: Array<FilterCondition | FilterConditionGroup>
) => ({
  operator,
  conditions,
});

export interface PreviewBody {
  data: {
    totalCount: number;
    devices: Array<{
      id: string;
      hostname: string;
      displayName: string | null;
      osType: string;
      status: string;
      lastSeenAt: string | null;
    }>;
    evaluatedAt: string;
  };
}

export async function preview(conditions: unknown, caller: Caller = { token: tok.system }, limit = 100) {
  return call('POST', '/filters/preview', caller, { conditions, limit }) as Promise<ApiResponse<PreviewBody>>;
}

export function expectError(res: ApiResponse, status: number, error: string | RegExp, code?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (typeof error === 'string') expect(res.body.error).toBe(error);
  else expect(res.body.error).toMatch(error);
  if (code) expect(res.body.code).toBe(code);
}

export const sorted = (list: string[]) => [...list].sort();
export const live = () => fleet.devices.filter((d) => d.status !== 'decommissioned');

export const windows = group('AND', { field: 'osType', operator: 'equals', value: 'windows' });

export async function createFilter(caller: Caller, body: Record<string, unknown>) {
  return call('POST', '/filters', caller, { name: 'Windows', conditions: windows, ...body });
}

export async function auditFor(resourceId: string | null, action: string) {
  await auditSettled(server);
  const rows = server.context.db
    .prepare(
      `SELECT org_id, partner_id, actor_type, actor_id, action, resource_type, resource_id, resource_name, details
       FROM audit_logs WHERE action = ? AND (? IS NULL OR resource_id = ?) ORDER BY seq`,
    )
    .all(action, resourceId, resourceId) as Array<Record<string, unknown>>;
  return rows.map((r) => ({ ...r, details: JSON.parse(r.details as string) as Record<string, unknown> }));
}
