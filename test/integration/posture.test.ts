import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertOrg,
  insertOrgUser,
  insertPartner,
  insertPartnerUser,
  insertSite,
  ROLES,
  signedToken,
} from '../support/seed';
import { ADMIN, startServer, type TestServer } from '../support/server';

// Management posture (spec 3): the summary per organization with never-scanned and stale totals, and the
// drill-down by product, over the devices each caller may see. Devices are written straight into SQLite: what
// is under test is the report, not enrollment.

const DAY = 86_400_000;

let server: TestServer;
let tree: { partnerId: string; orgA: string; orgB: string; orgX: string; siteB1: string; siteB2: string };
let tok: {
  system: string;
  partnerAll: string;
  partnerSelected: string;
  partnerNone: string;
  orgTechB: string;
  orgSiteB1: string;
  noDevices: string;
};
const ids: Record<string, string> = {};

function insertDevice(
  orgId: string,
  hostname: string,
  posture: unknown,
  options: { reportedDaysAgo?: number | null; status?: string; siteId?: string | null } = {},
): string {
  const id = randomUUID();
  const now = new Date().toISOString();
  const reported =
    options.reportedDaysAgo === null || posture === null
      ? null
      : new Date(Date.now() - (options.reportedDaysAgo ?? 0) * DAY).toISOString();
  server.context.db
    .prepare(
      `INSERT INTO devices (id, org_id, site_id, agent_id, agent_token_hash, hostname, os_type, os_version,
         architecture, agent_version, status, management_posture, posture_reported_at, enrolled_at, created_at,
         updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 'windows', '11', 'x64', '1.0.0', ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      id,
      orgId,
      options.siteId ?? null,
      randomUUID(),
      randomUUID(),
      hostname,
      options.status ?? 'online',
      posture === null ? null : typeof posture === 'string' ? posture : JSON.stringify(posture),
      reported,
      now,
      now,
      now,
    );
  ids[hostname] = id;
  return id;
}

beforeAll(async () => {
  server = await startServer();
  const acme = insertPartner(server, { name: 'Acme MSP' });
  const other = insertPartner(server, { name: 'Other MSP' });
  const orgA = insertOrg(server, acme.partnerId, 'Contoso');
  const orgB = insertOrg(server, acme.partnerId, 'Fabrikam');
  const orgX = insertOrg(server, other.partnerId, 'Initech');
  const siteB1 = insertSite(server, orgB, 'Fabrikam North');
  const siteB2 = insertSite(server, orgB, 'Fabrikam South');
  tree = { partnerId: acme.partnerId, orgA, orgB, orgX, siteB1, siteB2 };

  const teamviewer = { product: 'TeamViewer', status: 'installed' };
  insertDevice(orgA, 'a-desk-01', [teamviewer, { product: 'AnyDesk', status: 'running' }]);
  insertDevice(orgA, 'a-desk-02', [teamviewer], { reportedDaysAgo: 10 });
  insertDevice(orgA, 'a-desk-03', null);
  insertDevice(orgA, 'a-old-01', [teamviewer], { status: 'decommissioned', reportedDaysAgo: 400 });
  insertDevice(orgA, 'a-clean-01', []);
  // Whatever an agent sent: non-objects, a product that is not text, a missing status, an object, not a list.
  insertDevice(orgA, 'a-odd-01', [1, 'x', { product: 5 }, { product: 'Splashtop' }, null]);
  insertDevice(orgA, 'a-odd-02', { product: 'TeamViewer', status: 'installed' });
  insertDevice(orgB, 'b-srv-01', [{ product: 'TeamViewer', status: 'running' }], { siteId: siteB1 });
  insertDevice(orgB, 'b-srv-02', [{ product: 'ScreenConnect', status: 'installed' }], {
    siteId: siteB2,
    reportedDaysAgo: 40,
  });
  insertDevice(orgX, 'x-desk-01', [teamviewer], { status: 'offline' });

  await insertPartnerUser(server, acme.partnerId, acme.adminRoleId, 'all@acme.test', { orgAccess: 'all' });
  await insertPartnerUser(server, acme.partnerId, acme.adminRoleId, 'selected@acme.test', {
    orgAccess: 'selected',
    orgIds: [orgA],
  });
  await insertPartnerUser(server, acme.partnerId, acme.adminRoleId, 'none@acme.test', { orgAccess: 'none' });
  await insertOrgUser(server, orgB, ROLES.orgTechnician, 'tech@fabrikam.test');
  await insertOrgUser(server, orgB, ROLES.orgTechnician, 'north@fabrikam.test');
  server.context.db
    .prepare(
      "UPDATE organization_users SET site_ids = ? WHERE user_id = (SELECT id FROM users WHERE email = 'north@fabrikam.test')",
    )
    .run(JSON.stringify([siteB1]));
  // A role that may read the audit log but not devices.
  const auditorRole = randomUUID();
  const at = new Date().toISOString();
  server.context.db
    .prepare(
      "INSERT INTO roles (id, org_id, scope, name, created_at, updated_at) VALUES (?, ?, 'organization', 'Auditor', ?, ?)",
    )
    .run(auditorRole, orgB, at, at);
  server.context.db
    .prepare("INSERT INTO role_permissions (role_id, resource, action) VALUES (?, 'audit', 'read')")
    .run(auditorRole);
  await insertOrgUser(server, orgB, auditorRole, 'auditor@fabrikam.test');

  tok = {
    system: await signedToken(server, ADMIN.email),
    partnerAll: await signedToken(server, 'all@acme.test'),
    partnerSelected: await signedToken(server, 'selected@acme.test'),
    partnerNone: await signedToken(server, 'none@acme.test'),
    orgTechB: await signedToken(server, 'tech@fabrikam.test'),
    orgSiteB1: await signedToken(server, 'north@fabrikam.test'),
    noDevices: await signedToken(server, 'auditor@fabrikam.test'),
  };
});

afterAll(async () => {
  await server.dispose();
});

const summary = (token: string, query = '') =>
  server.api.get(`/devices/management-posture/summary${query}`, token);
const drill = (token: string, query: string) =>
  server.api.get(`/devices/management-posture/devices${query}`, token);

describe('GET /devices/management-posture/summary', () => {
  it('counts products per organization and status over every device a system administrator sees', async () => {
    const res = await summary(tok.system);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        orgs: [
          {
            orgId: tree.orgA,
            orgName: 'Contoso',
            products: [
              { product: 'AnyDesk', status: 'running', deviceCount: 1 },
              { product: 'Splashtop', status: 'unknown', deviceCount: 1 },
              // a-desk-01 and a-desk-02; not the decommissioned a-old-01, nor a-odd-02 (not a list).
              { product: 'TeamViewer', status: 'installed', deviceCount: 2 },
            ],
          },
          {
            orgId: tree.orgB,
            orgName: 'Fabrikam',
            products: [
              { product: 'ScreenConnect', status: 'installed', deviceCount: 1 },
              { product: 'TeamViewer', status: 'running', deviceCount: 1 },
            ],
          },
          {
            orgId: tree.orgX,
            orgName: 'Initech',
            products: [{ product: 'TeamViewer', status: 'installed', deviceCount: 1 }],
          },
        ],
        // never scanned: a-desk-03; stale (> 7 days): a-desk-02 and b-srv-02 (a-old-01 is decommissioned).
        totals: { neverScanned: 1, stale: 2 },
        stalenessDays: 7,
      },
    });
  });

  it('counts staleness against stalenessDays and refuses values outside 1-365', async () => {
    expect((await summary(tok.system, '?stalenessDays=30')).body.data.totals).toEqual({
      neverScanned: 1,
      stale: 1,
    });
    expect((await summary(tok.system, '?stalenessDays=365')).body.data.totals).toEqual({
      neverScanned: 1,
      stale: 0,
    });
    expect((await summary(tok.system, '?stalenessDays=1')).body.data.totals).toEqual({
      neverScanned: 1,
      stale: 2,
    });
    for (const bad of ['0', '366', 'abc', '7.5', '-3']) {
      const res = await summary(tok.system, `?stalenessDays=${bad}`);
      expect({ status: res.status, error: res.body.error }).toEqual({
        status: 400,
        error: 'stalenessDays: stalenessDays must be a whole number from 1 to 365',
      });
    }
  });

  it('narrows to one organization with orgId', async () => {
    const res = await summary(tok.system, `?orgId=${tree.orgB}`);
    expect(res.body.data.orgs.map((o: { orgId: string }) => o.orgId)).toEqual([tree.orgB]);
    expect(res.body.data.totals).toEqual({ neverScanned: 0, stale: 1 });
    const bad = await summary(tok.system, '?orgId=not-a-uuid');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('orgId: orgId must be a UUID');
  });

  it("keeps to the caller's scope: partner access all, selected and none", async () => {
    const all = await summary(tok.partnerAll);
    expect(all.body.data.orgs.map((o: { orgName: string }) => o.orgName)).toEqual(['Contoso', 'Fabrikam']);
    expect(all.body.data.totals).toEqual({ neverScanned: 1, stale: 2 });

    const selected = await summary(tok.partnerSelected);
    expect(selected.body.data.orgs.map((o: { orgName: string }) => o.orgName)).toEqual(['Contoso']);
    expect(selected.body.data.totals).toEqual({ neverScanned: 1, stale: 1 });

    const none = await summary(tok.partnerNone);
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual({ orgs: [], totals: { neverScanned: 0, stale: 0 }, stalenessDays: 7 });

    // An organization outside the access is not found, as if it did not exist.
    for (const orgId of [tree.orgB, tree.orgX]) {
      const res = await summary(tok.partnerSelected, `?orgId=${orgId}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Organization not found');
    }
  });

  it('keeps an organization user to their organization and to their sites', async () => {
    const tech = await summary(tok.orgTechB);
    expect(tech.body.data.orgs.map((o: { orgName: string }) => o.orgName)).toEqual(['Fabrikam']);
    const refused = await summary(tok.orgTechB, `?orgId=${tree.orgA}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('Access to this organization denied');

    const north = await summary(tok.orgSiteB1);
    expect(north.body.data).toEqual({
      orgs: [
        {
          orgId: tree.orgB,
          orgName: 'Fabrikam',
          products: [{ product: 'TeamViewer', status: 'running', deviceCount: 1 }],
        },
      ],
      totals: { neverScanned: 0, stale: 0 },
      stalenessDays: 7,
    });
  });

  it('needs devices:read and a signed-in user', async () => {
    const res = await summary(tok.noDevices);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('PERMISSION_DENIED');
    expect((await server.api.get('/devices/management-posture/summary')).status).toBe(401);
  });
});

describe('GET /devices/management-posture/devices', () => {
  const hostnames = (body: { data: { devices: Array<{ hostname: string }> } }) =>
    body.data.devices.map((d) => d.hostname);

  it('lists the devices reporting a product, by hostname, with their posture status', async () => {
    const res = await drill(tok.system, '?product=TeamViewer');
    expect(res.status).toBe(200);
    expect(hostnames(res.body)).toEqual(['a-desk-01', 'a-desk-02', 'b-srv-01', 'x-desk-01']);
    expect(res.body.pagination).toEqual({ page: 1, limit: 100, total: 4 });
    expect(res.body.data.devices[3]).toEqual({
      id: ids['x-desk-01'],
      hostname: 'x-desk-01',
      orgId: tree.orgX,
      siteId: null,
      status: 'installed',
      deviceStatus: 'offline',
      postureReportedAt: expect.any(String),
    });
    expect(res.body.data.devices[2]).toMatchObject({
      hostname: 'b-srv-01',
      siteId: tree.siteB1,
      status: 'running',
    });
  });

  it('filters by status and matches product and status without regard to case', async () => {
    const res = await drill(tok.system, '?product=teamviewer&status=RUNNING');
    expect(hostnames(res.body)).toEqual(['b-srv-01']);
    const none = await drill(tok.system, '?product=VNC');
    expect(none.body).toEqual({ data: { devices: [] }, pagination: { page: 1, limit: 100, total: 0 } });
  });

  it('pages with limit (clamped to 500) and page', async () => {
    const second = await drill(tok.system, '?product=TeamViewer&limit=2&page=2');
    expect(hostnames(second.body)).toEqual(['b-srv-01', 'x-desk-01']);
    expect(second.body.pagination).toEqual({ page: 2, limit: 2, total: 4 });
    const big = await drill(tok.system, '?product=TeamViewer&limit=5000');
    expect(big.body.pagination.limit).toBe(500);
  });

  it('requires a product', async () => {
    for (const query of ['', '?product=', '?product=%20%20']) {
      const res = await drill(tok.system, query);
      expect({ status: res.status, error: res.body.error }).toEqual({
        status: 400,
        error: 'product: product is required',
      });
    }
  });

  it("keeps to the caller's scope", async () => {
    expect(hostnames((await drill(tok.partnerSelected, '?product=TeamViewer')).body)).toEqual([
      'a-desk-01',
      'a-desk-02',
    ]);
    expect((await drill(tok.partnerNone, '?product=TeamViewer')).body.pagination.total).toBe(0);
    expect(hostnames((await drill(tok.orgTechB, '?product=TeamViewer')).body)).toEqual(['b-srv-01']);
    expect(hostnames((await drill(tok.orgSiteB1, '?product=ScreenConnect')).body)).toEqual([]);
    expect(hostnames((await drill(tok.orgTechB, '?product=ScreenConnect')).body)).toEqual(['b-srv-02']);
    const outside = await drill(tok.partnerAll, `?product=TeamViewer&orgId=${tree.orgX}`);
    expect(outside.status).toBe(404);
    const own = await drill(tok.partnerAll, `?product=TeamViewer&orgId=${tree.orgB}`);
    expect(hostnames(own.body)).toEqual(['b-srv-01']);
    expect((await drill(tok.noDevices, '?product=TeamViewer')).status).toBe(403);
  });

  it('is not swallowed by /devices/:id', async () => {
    const res = await drill(tok.system, '?product=AnyDesk');
    expect(res.status).toBe(200);
    expect(hostnames(res.body)).toEqual(['a-desk-01']);
  });
});
