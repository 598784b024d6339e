import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { sha256Hex } from '../../server/crypto';
import { startServer, type TestServer } from './server';
import {
  insertOrg,
  insertOrgUser,
  insertPartner,
  insertPartnerUser,
  insertSite,
  mfaToken,
  PASSWORD,
  ROLES,
} from './seed';

// Tenant isolation, cell by cell: five callers (system; partner users with org access all, selected and none;
// an organization user) against every resource of spec 1's identity and tenancy, reads and writes, each cell
// asserting the status the spec gives. Partner P1 owns organizations A and B, partner P2 owns C; the selected
// partner user may see A only; the organization user belongs to A.
//
// The world of test/integration/isolation-matrix.test.ts; its cells are in test/support/isolation-matrix-cells.ts. The
// bindings are live: the suite calls useIsolationMatrixWorld() once at its top and reads them inside its tests.

export type Caller = 'system' | 'partnerAll' | 'partnerSelected' | 'partnerNone' | 'orgA';
export const CALLERS: Caller[] = ['system', 'partnerAll', 'partnerSelected', 'partnerNone', 'orgA'];

export interface Cell {
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: () => string;
  body?: () => unknown;
  expect: Record<Caller, number>;
}

export let server: TestServer;
export const tokens = {} as Record<Caller, string>;
export const ids = {
  p1: '',
  p2: '',
  orgA: '',
  orgB: '',
  orgC: '',
  siteA: '',
  siteB: '',
  siteC: '',
  keyA: '',
  keyB: '',
  keyC: '',
  enrollA: '',
  enrollB: '',
  enrollC: '',
  userB: '',
  userC: '',
  roleP1: '',
  roleP2: '',
};

export function insertApiKey(orgId: string, createdBy: string): string {
  const id = randomUUID();
  const key = `svc_${randomUUID().replace(/-/g, '')}`;
  const now = new Date().toISOString();
  server.context.db
    .prepare(
      `INSERT INTO api_keys (id, org_id, name, key_hash, key_prefix, created_by, created_at, updated_at)
       VALUES (?, ?, 'Integration', ?, ?, ?, ?, ?)`,
    )
    .run(id, orgId, sha256Hex(key), key.slice(0, 12), createdBy, now, now);
  return id;
}

export function insertEnrollmentKey(orgId: string, createdBy: string): string {
  const id = randomUUID();
  const now = new Date();
  server.context.db
    .prepare(
      `INSERT INTO enrollment_keys (id, org_id, name, key_hash, max_usage, expires_at, created_by, created_at, updated_at)
       VALUES (?, ?, 'Rollout', ?, 10, ?, ?, ?, ?)`,
    )
    .run(
      id,
      orgId,
      sha256Hex(randomUUID()),
      new Date(now.getTime() + 3600_000).toISOString(),
      createdBy,
      now.toISOString(),
      now.toISOString(),
    );
  return id;
}

export function insertCustomRole(partnerId: string, name: string): string {
  const id = randomUUID();
  const now = new Date().toISOString();
  server.context.db
    .prepare(
      "INSERT INTO roles (id, partner_id, scope, name, created_at, updated_at) VALUES (?, ?, 'partner', ?, ?, ?)",
    )
    .run(id, partnerId, name, now, now);
  server.context.db
    .prepare("INSERT INTO role_permissions (role_id, resource, action) VALUES (?, 'devices', 'view')")
    .run(id);
  return id;
}

export const row = (s: number, pa: number, ps: number, pn: number, o: number): Record<Caller, number> => ({
  system: s,
  partnerAll: pa,
  partnerSelected: ps,
  partnerNone: pn,
  orgA: o,
});

/** Registers the world's hooks; call once at the top of each suite that uses it. */
export function useIsolationMatrixWorld(): void {
  beforeAll(async () => {
    server = await startServer();
    const p1 = insertPartner(server, { name: 'Northwind MSP' });
    const p2 = insertPartner(server, { name: 'Fabrikam IT' });
    ids.p1 = p1.partnerId;
    ids.p2 = p2.partnerId;
    ids.orgA = insertOrg(server, ids.p1, 'Alpha Dental');
    ids.orgB = insertOrg(server, ids.p1, 'Bravo Legal');
    ids.orgC = insertOrg(server, ids.p2, 'Charlie Foods');
    ids.siteA = insertSite(server, ids.orgA);
    ids.siteB = insertSite(server, ids.orgB);
    ids.siteC = insertSite(server, ids.orgC);

    await insertPartnerUser(server, ids.p1, p1.adminRoleId, 'all@northwind.test', { orgAccess: 'all' });
    await insertPartnerUser(server, ids.p1, p1.adminRoleId, 'selected@northwind.test', {
      orgAccess: 'selected',
      orgIds: [ids.orgA],
    });
    await insertPartnerUser(server, ids.p1, p1.adminRoleId, 'none@northwind.test', { orgAccess: 'none' });
    const orgAdmin = await insertOrgUser(server, ids.orgA, ROLES.orgAdmin, 'admin@alpha.test');
    ids.userB = await insertOrgUser(server, ids.orgB, ROLES.orgTechnician, 'tech@bravo.test');
    ids.userC = await insertOrgUser(server, ids.orgC, ROLES.orgTechnician, 'tech@charlie.test');

    ids.keyA = insertApiKey(ids.orgA, orgAdmin);
    ids.keyB = insertApiKey(ids.orgB, orgAdmin);
    ids.keyC = insertApiKey(ids.orgC, orgAdmin);
    ids.enrollA = insertEnrollmentKey(ids.orgA, orgAdmin);
    ids.enrollB = insertEnrollmentKey(ids.orgB, orgAdmin);
    ids.enrollC = insertEnrollmentKey(ids.orgC, orgAdmin);
    ids.roleP1 = insertCustomRole(ids.p1, 'Northwind helpdesk');
    ids.roleP2 = insertCustomRole(ids.p2, 'Fabrikam helpdesk');

    tokens.system = await mfaToken(server);
    tokens.partnerAll = await mfaToken(server, 'all@northwind.test', PASSWORD);
    tokens.partnerSelected = await mfaToken(server, 'selected@northwind.test', PASSWORD);
    tokens.partnerNone = await mfaToken(server, 'none@northwind.test', PASSWORD);
    tokens.orgA = await mfaToken(server, 'admin@alpha.test', PASSWORD);
  }, 120_000);

  afterAll(async () => {
    await server?.dispose();
  });
}
