import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../server/crypto';
import { startServer, type TestServer } from '../support/server';
import {
  insertOrg,
  insertOrgUser,
  insertPartner,
  insertPartnerUser,
  insertSite,
  mfaToken,
  PASSWORD,
  ROLES,
} from '../support/seed';

// Tenant isolation, cell by cell: five callers (system; partner users with org access all, selected and none;
// an organization user) against every resource of spec 1's identity and tenancy, reads and writes, each cell
// asserting the status the spec gives. Partner P1 owns organizations A and B, partner P2 owns C; the selected
// partner user may see A only; the organization user belongs to A.

type Caller = 'system' | 'partnerAll' | 'partnerSelected' | 'partnerNone' | 'orgA';
const CALLERS: Caller[] = ['system', 'partnerAll', 'partnerSelected', 'partnerNone', 'orgA'];

interface Cell {
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: () => string;
  body?: () => unknown;
  expect: Record<Caller, number>;
}

let server: TestServer;
const tokens = {} as Record<Caller, string>;
const ids = {
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

function insertApiKey(orgId: string, createdBy: string): string {
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

function insertEnrollmentKey(orgId: string, createdBy: string): string {
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

function insertCustomRole(partnerId: string, name: string): string {
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

const row = (s: number, pa: number, ps: number, pn: number, o: number): Record<Caller, number> => ({
  system: s,
  partnerAll: pa,
  partnerSelected: ps,
  partnerNone: pn,
  orgA: o,
});

const READS: Cell[] = [
  // Partners: system scope only; /partners/me is the partner's own.
  {
    name: 'list partners',
    method: 'GET',
    path: () => '/orgs/partners',
    expect: row(200, 403, 403, 403, 403),
  },
  {
    name: 'read partner P1',
    method: 'GET',
    path: () => `/orgs/partners/${ids.p1}`,
    expect: row(200, 403, 403, 403, 403),
  },
  {
    name: 'read own partner',
    method: 'GET',
    path: () => '/orgs/partners/me',
    expect: row(403, 200, 200, 200, 403),
  },
  // Organizations: partner callers get 404 outside their access; organization callers are refused the
  // partner/system routes.
  {
    name: 'read org A',
    method: 'GET',
    path: () => `/orgs/organizations/${ids.orgA}`,
    expect: row(200, 200, 200, 404, 403),
  },
  {
    name: 'read org B',
    method: 'GET',
    path: () => `/orgs/organizations/${ids.orgB}`,
    expect: row(200, 200, 404, 404, 403),
  },
  {
    name: 'read org C (other partner)',
    method: 'GET',
    path: () => `/orgs/organizations/${ids.orgC}`,
    expect: row(200, 404, 404, 404, 403),
  },
  // Sites: checked against the parent organization; 403 outside the caller's organizations.
  {
    name: 'read site A',
    method: 'GET',
    path: () => `/orgs/sites/${ids.siteA}`,
    expect: row(200, 200, 200, 403, 200),
  },
  {
    name: 'read site B',
    method: 'GET',
    path: () => `/orgs/sites/${ids.siteB}`,
    expect: row(200, 200, 403, 403, 403),
  },
  {
    name: 'read site C',
    method: 'GET',
    path: () => `/orgs/sites/${ids.siteC}`,
    expect: row(200, 403, 403, 403, 403),
  },
  // Keys: 404 when the key's organization is outside the scope.
  {
    name: 'read API key A',
    method: 'GET',
    path: () => `/api-keys/${ids.keyA}`,
    expect: row(200, 200, 200, 404, 200),
  },
  {
    name: 'read API key B',
    method: 'GET',
    path: () => `/api-keys/${ids.keyB}`,
    expect: row(200, 200, 404, 404, 404),
  },
  {
    name: 'read API key C',
    method: 'GET',
    path: () => `/api-keys/${ids.keyC}`,
    expect: row(200, 404, 404, 404, 404),
  },
  {
    name: 'read enrollment key A',
    method: 'GET',
    path: () => `/enrollment-keys/${ids.enrollA}`,
    expect: row(200, 200, 200, 404, 200),
  },
  {
    name: 'read enrollment key B',
    method: 'GET',
    path: () => `/enrollment-keys/${ids.enrollB}`,
    expect: row(200, 200, 404, 404, 404),
  },
  {
    name: 'read enrollment key C',
    method: 'GET',
    path: () => `/enrollment-keys/${ids.enrollC}`,
    expect: row(200, 404, 404, 404, 404),
  },
  // Users: partner users without full organization access may not administer users at all.
  {
    name: 'read user of org B',
    method: 'GET',
    path: () => `/users/${ids.userB}`,
    expect: row(200, 200, 403, 403, 404),
  },
  {
    name: 'read user of org C',
    method: 'GET',
    path: () => `/users/${ids.userC}`,
    expect: row(200, 404, 403, 403, 404),
  },
  // Roles: a tenant's custom roles are invisible to other tenants.
  {
    name: 'read custom role of P1',
    method: 'GET',
    path: () => `/roles/${ids.roleP1}`,
    expect: row(200, 200, 200, 200, 404),
  },
  {
    name: 'read custom role of P2',
    method: 'GET',
    path: () => `/roles/${ids.roleP2}`,
    expect: row(200, 404, 404, 404, 404),
  },
];

const WRITES: Cell[] = [
  {
    name: 'rename partner P2',
    method: 'PATCH',
    path: () => `/orgs/partners/${ids.p2}`,
    body: () => ({ billingEmail: 'billing@fabrikam.test' }),
    expect: row(200, 403, 403, 403, 403),
  },
  {
    name: 'rename org B',
    method: 'PATCH',
    path: () => `/orgs/organizations/${ids.orgB}`,
    body: () => ({ name: 'Bravo Legal LLP' }),
    expect: row(200, 200, 404, 404, 403),
  },
  {
    name: 'rename org C',
    method: 'PATCH',
    path: () => `/orgs/organizations/${ids.orgC}`,
    body: () => ({ name: 'Charlie Foods Inc' }),
    expect: row(200, 404, 404, 404, 403),
  },
  {
    name: 'create site in org B',
    method: 'POST',
    path: () => '/orgs/sites',
    body: () => ({ orgId: ids.orgB, name: `Branch ${randomUUID().slice(0, 6)}` }),
    expect: row(201, 201, 404, 404, 403),
  },
  {
    name: 'rename site C',
    method: 'PATCH',
    path: () => `/orgs/sites/${ids.siteC}`,
    body: () => ({ name: 'Warehouse' }),
    expect: row(200, 403, 403, 403, 403),
  },
  {
    name: 'rename API key B',
    method: 'PATCH',
    path: () => `/api-keys/${ids.keyB}`,
    body: () => ({ name: 'Renamed' }),
    expect: row(200, 200, 404, 404, 404),
  },
  {
    name: 'rename API key C',
    method: 'PATCH',
    path: () => `/api-keys/${ids.keyC}`,
    body: () => ({ name: 'Renamed' }),
    expect: row(200, 404, 404, 404, 404),
  },
  {
    name: 'create API key in org B',
    method: 'POST',
    path: () => '/api-keys',
    body: () => ({ orgId: ids.orgB, name: 'Cross-tenant' }),
    expect: row(201, 201, 404, 404, 403),
  },
  {
    name: 'create enrollment key in org C',
    method: 'POST',
    path: () => '/enrollment-keys',
    body: () => ({ orgId: ids.orgC, name: 'Cross-tenant' }),
    expect: row(201, 404, 404, 404, 403),
  },
  {
    name: 'rename user of org C',
    method: 'PATCH',
    path: () => `/users/${ids.userC}`,
    body: () => ({ name: 'Renamed' }),
    expect: row(200, 404, 403, 403, 404),
  },
  {
    name: 'rename custom role of P2',
    method: 'PATCH',
    path: () => `/roles/${ids.roleP2}`,
    body: () => ({ description: 'Edited' }),
    expect: row(200, 404, 403, 403, 404),
  },
];

describe('tenant isolation matrix', () => {
  for (const cell of [...READS, ...WRITES]) {
    it(`${cell.method} ${cell.name}`, async () => {
      const got = {} as Record<Caller, number>;
      for (const caller of CALLERS) {
        const res = await server.api.request(cell.method, cell.path(), {
          token: tokens[caller],
          body: cell.body?.(),
        });
        got[caller] = res.status;
      }
      expect(got).toEqual(cell.expect);
    });
  }

  it('lists only what each scope covers', async () => {
    const visibleOrgs = async (caller: Caller) => {
      const res = await server.api.get('/orgs/', tokens[caller]);
      expect(res.status).toBe(200);
      return (res.body.data as Array<{ id: string }>).map((o) => o.id).sort();
    };
    expect(await visibleOrgs('system')).toEqual([ids.orgA, ids.orgB, ids.orgC].sort());
    expect(await visibleOrgs('partnerAll')).toEqual([ids.orgA, ids.orgB].sort());
    expect(await visibleOrgs('partnerSelected')).toEqual([ids.orgA]);
    expect(await visibleOrgs('partnerNone')).toEqual([]);
    expect(await visibleOrgs('orgA')).toEqual([ids.orgA]);

    const siteOrgs = async (caller: Caller) => {
      const res = await server.api.get('/orgs/sites?limit=100', tokens[caller]);
      expect(res.status).toBe(200);
      return [...new Set((res.body.data as Array<{ orgId: string }>).map((s) => s.orgId))].sort();
    };
    expect(await siteOrgs('partnerSelected')).toEqual([ids.orgA]);
    expect(await siteOrgs('partnerNone')).toEqual([]);
    expect(await siteOrgs('orgA')).toEqual([ids.orgA]);

    const keyOrgs = async (caller: Caller, path: string) => {
      const res = await server.api.get(`${path}?limit=100`, tokens[caller]);
      expect(res.status).toBe(200);
      return [...new Set((res.body.data as Array<{ orgId: string }>).map((k) => k.orgId))].sort();
    };
    expect(await keyOrgs('partnerSelected', '/api-keys')).toEqual([ids.orgA]);
    expect(await keyOrgs('orgA', '/api-keys')).toEqual([ids.orgA]);
    expect(await keyOrgs('partnerNone', '/enrollment-keys')).toEqual([]);
    expect(await keyOrgs('partnerAll', '/enrollment-keys')).toEqual([ids.orgA, ids.orgB].sort());

    const userEmails = async (caller: Caller) => {
      const res = await server.api.get('/users?limit=100', tokens[caller]);
      return {
        status: res.status,
        emails: ((res.body?.data ?? []) as Array<{ email: string }>).map((u) => u.email),
      };
    };
    const orgView = await userEmails('orgA');
    expect(orgView.status).toBe(200);
    expect(orgView.emails).toContain('admin@alpha.test');
    expect(orgView.emails).not.toContain('tech@bravo.test');
    const partnerView = await userEmails('partnerAll');
    expect(partnerView.emails).toEqual(expect.arrayContaining(['all@northwind.test', 'tech@bravo.test']));
    expect(partnerView.emails).not.toContain('tech@charlie.test');
    expect((await userEmails('partnerSelected')).status).toBe(403);
  });

  it('limits an organization user with a site restriction to those sites', async () => {
    const siteA2 = insertSite(server, ids.orgA, 'Branch clinic');
    const restricted = await insertOrgUser(server, ids.orgA, ROLES.orgReadOnly, 'branch@alpha.test');
    server.context.db
      .prepare('UPDATE organization_users SET site_ids = ? WHERE user_id = ?')
      .run(JSON.stringify([siteA2]), restricted);
    const token = await mfaToken(server, 'branch@alpha.test', PASSWORD);
    const listed = await server.api.get('/orgs/sites?limit=100', token);
    expect((listed.body.data as Array<{ id: string }>).map((site) => site.id)).toEqual([siteA2]);
    expect((await server.api.get(`/orgs/sites/${siteA2}`, token)).status).toBe(200);
    const other = await server.api.get(`/orgs/sites/${ids.siteA}`, token);
    expect(other.status).toBe(403);
    expect(other.body.error).toBe('Access to this site denied');
    // The unrestricted organization administrator still sees both sites of the organization.
    const all = await server.api.get(`/orgs/sites?orgId=${ids.orgA}&limit=100`, tokens.orgA);
    expect((all.body.data as Array<{ id: string }>).map((site) => site.id).sort()).toEqual(
      [ids.siteA, siteA2].sort(),
    );
  });
});
