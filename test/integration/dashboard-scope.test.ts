import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardResponse, RiskLevel } from '../../server/contract';
import { links } from '../../renderer/src/features/home/links';
import { applyPresence } from '../../server/modules/agents';
import { mintEnrollmentKey, startAgentServer, TestAgent } from '../support/agent-client';
import {
  insertOrg,
  insertOrgUser,
  insertPartner,
  insertPartnerUser,
  insertSite,
  restrictOrgUser,
  ROLES,
  signedToken,
} from '../support/seed';
import { auditSettled, type TestServer } from '../support/server';

// GET /dashboard (issue 16): the Overview's aggregates are right, and each caller's numbers cover only what the
// lists would show them. Acme MSP has Contoso (sites North and South) and Fabrikam; Other MSP has Initech.
//   north-a (Contoso/North)   north-b (Contoso/North, group "Front desk")   south (Contoso/South)
//   fab (Fabrikam)            ini (Initech)
// Callers: Acme's administrator (every Acme organization), a partner technician given Fabrikam only, a Contoso
// technician limited to the "Front desk" group, and Initech's administrator.

let server: TestServer;
const dev: Record<'northA' | 'northB' | 'south' | 'fab' | 'ini', TestAgent | null> = {
  northA: null,
  northB: null,
  south: null,
  fab: null,
  ini: null,
};
const tok = { acme: '', fabTech: '', groupTech: '', initech: '' };
const db = () => server.context.db;
const agent = (name: keyof typeof dev): TestAgent => {
  const a = dev[name];
  if (!a) throw new Error(`no agent ${name}`);
  return a;
};

async function report(name: keyof typeof dev, risk: RiskLevel, minutesAgo: number): Promise<string> {
  const a = agent(name);
  const res = await a.api.post(
    `${a.path}/elevation-requests`,
    {
      subject_username: 'CORP\\alice',
      target_executable_path: 'C:\\Tools\\setup.exe',
      target_executable_hash: randomUUID().replace(/-/g, '').padEnd(64, '0'),
      target_executable_signer: 'Contoso Ltd',
      pid: 4242,
      observed_at: new Date().toISOString(),
    },
    a.creds.authToken,
  );
  expect(res.status).toBe(201);
  const id = res.body.id as string;
  // The fixture sets the risk and the waiting time the assertions read (ingest derives risk from the signer).
  db()
    .prepare('UPDATE elevation_requests SET risk_level = ?, requested_at = ? WHERE id = ?')
    .run(risk, new Date(Date.now() - minutesAgo * 60_000).toISOString(), id);
  return id;
}

async function overview(token: string): Promise<DashboardResponse> {
  const res = await server.api.get('/dashboard', token);
  expect(res.status).toBe(200);
  return res.body as DashboardResponse;
}

const pendingOf = (d: DashboardResponse) =>
  Object.fromEntries((d.elevations?.pending ?? []).map((p) => [p.risk, p.count]));

const minutesAgoIso = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

beforeAll(async () => {
  // Pending requests wait for hours here; the expiry sweep must not end them (it ends them after 15 min).
  server = await startAgentServer({ env: { PAM_PENDING_TTL_MINUTES: '1440' } });
  const acme = insertPartner(server, { name: 'Acme MSP' });
  const other = insertPartner(server, { name: 'Other MSP' });
  const contoso = insertOrg(server, acme.partnerId, 'Contoso');
  const fabrikam = insertOrg(server, acme.partnerId, 'Fabrikam');
  const initech = insertOrg(server, other.partnerId, 'Initech');
  const north = insertSite(server, contoso, 'North');
  const south = insertSite(server, contoso, 'South');
  const enroll = (orgId: string, siteId: string | undefined, hostname: string) =>
    TestAgent.enroll(server, mintEnrollmentKey(server, orgId, siteId ? { siteId } : {}).key, {
      hostname,
    });
  dev.northA = await enroll(contoso, north, 'north-a');
  dev.northB = await enroll(contoso, north, 'north-b');
  dev.south = await enroll(contoso, south, 'south');
  dev.fab = await enroll(fabrikam, undefined, 'fab');
  dev.ini = await enroll(initech, undefined, 'ini');

  const at = new Date().toISOString();
  const group = randomUUID();
  db()
    .prepare('INSERT INTO device_groups (id, org_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
    .run(group, contoso, 'Front desk', at, at);
  db()
    .prepare('INSERT INTO device_group_members (group_id, device_id, added_at) VALUES (?, ?, ?)')
    .run(group, agent('northB').creds.deviceId, at);

  await insertPartnerUser(server, acme.partnerId, acme.adminRoleId, 'admin@acme.test', { orgAccess: 'all' });
  await insertPartnerUser(server, acme.partnerId, ROLES.partnerTechnician, 'fab@acme.test', {
    orgAccess: 'selected',
    orgIds: [fabrikam],
  });
  const groupTech = await insertOrgUser(server, contoso, ROLES.orgTechnician, 'desk@contoso.test');
  restrictOrgUser(server, groupTech, { deviceGroupIds: [group] });
  await insertPartnerUser(server, other.partnerId, other.adminRoleId, 'admin@other.test', {
    orgAccess: 'all',
  });
  tok.acme = await signedToken(server, 'admin@acme.test');
  tok.fabTech = await signedToken(server, 'fab@acme.test');
  tok.groupTech = await signedToken(server, 'desk@contoso.test');
  tok.initech = await signedToken(server, 'admin@other.test');

  // Pending: critical on north-a (2 h) and north-b (30 min), high on north-b, medium on fab, low on ini.
  await report('northA', 'critical', 120);
  await report('northB', 'critical', 30);
  await report('northB', 'high', 10);
  await report('fab', 'medium', 45);
  await report('ini', 'low', 5);
  // Decided: north-b approved by a person (a live grant), south denied.
  const approved = await report('northB', 'medium', 20);
  const denied = await report('south', 'high', 15);
  const decide = async (id: string, body: Record<string, unknown>) => {
    const res = await server.api.post(`/pam/elevation-requests/${id}/respond`, body, tok.acme);
    expect(res.body).toMatchObject({ success: true });
  };
  await decide(approved, { decision: 'approve', durationMinutes: 60 });
  await decide(denied, { decision: 'deny', reason: 'Not needed' });

  // The south device goes offline; Windows agents are behind a registered 1.4.0 build.
  const southId = agent('south').creds.deviceId;
  const row = db().prepare('SELECT id, hostname, org_id, site_id FROM devices WHERE id = ?').get(southId) as {
    id: string;
    hostname: string;
    org_id: string;
    site_id: string | null;
  };
  expect(applyPresence(server.context, [{ deviceId: row.id, online: false }])).toHaveLength(1);
  db()
    .prepare(
      `INSERT INTO agent_versions (id, version, platform, architecture, checksum, source, is_latest, created_at)
         VALUES (?, '1.4.0', 'windows', 'amd64', ?, 'manual', 1, ?)`,
    )
    .run(randomUUID(), 'c'.repeat(64), at);
  await auditSettled(server);
});

afterAll(async () => {
  await server.dispose();
});

describe('GET /dashboard', () => {
  it("counts the partner administrator's organizations: pending by risk with the oldest wait, grants, the 7-day mix", async () => {
    const d = await overview(tok.acme);
    expect(d.partner?.name).toBe('Acme MSP');
    expect(pendingOf(d)).toEqual({ critical: 2, high: 1, medium: 1, low: 0 });
    const critical = d.elevations?.pending.find((p) => p.risk === 'critical');
    // The oldest critical request waits about two hours.
    expect(Date.parse(critical?.oldestRequestedAt ?? '')).toBeLessThan(Date.parse(minutesAgoIso(110)));
    expect(d.elevations?.pending.find((p) => p.risk === 'low')?.oldestRequestedAt).toBeNull();

    expect(d.elevations?.activeGrants.total).toBe(1);
    expect(d.elevations?.activeGrants.endingSoonest).toEqual([
      expect.objectContaining({ deviceHostname: 'north-b', target: 'setup.exe', riskLevel: 'medium' }),
    ]);
    expect(d.elevations?.mix).toEqual({ pending: 4, approved: 1, auto_approved: 0, denied: 1, expired: 0 });
    const perDay = d.elevations?.perDay ?? [];
    expect(perDay).toHaveLength(7);
    expect(perDay.at(-1)?.day).toBe(new Date().toISOString().slice(0, 10));
    const total = perDay.reduce((n, day) => n + day.pending + day.approved + day.denied, 0);
    expect(total).toBe(6);
    // Recent activity: the decisions made above, newest first, without the agents' own reports.
    const actions = (d.recentAudit ?? []).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['pam.elevation_request.approve']));
    expect(d.recentAudit?.length).toBeLessThanOrEqual(8);
    expect((d.recentAudit ?? []).every((e) => e.actorType !== 'agent')).toBe(true);
  });

  it('counts devices online and offline now, and the presence series ends on those numbers', async () => {
    const d = await overview(tok.acme);
    expect(d.devices).toMatchObject({ online: 3, offline: 1, other: 0 });
    const presence = d.devices?.presence ?? [];
    expect(presence).toHaveLength(288);
    expect(presence.at(-1)).toMatchObject({ online: 3, offline: 1 });
    // A day ago none of these devices existed yet.
    expect(presence[0]).toMatchObject({ online: 0, offline: 0 });
    expect(d.agentUpdates).toMatchObject({
      total: 4,
      behind: [
        { osType: 'windows', architecture: 'x64', agentVersion: '1.0.0', latestVersion: '1.4.0', devices: 4 },
      ],
    });
  });

  it('shows a partner technician limited to one organization only that organization', async () => {
    const d = await overview(tok.fabTech);
    expect(pendingOf(d)).toEqual({ critical: 0, high: 0, medium: 1, low: 0 });
    expect(d.elevations?.activeGrants.total).toBe(0);
    expect(d.elevations?.mix.denied).toBe(0);
    expect(d.devices).toMatchObject({ online: 1, offline: 0 });
    expect(d.agentUpdates?.total).toBe(1);
    // Audit: the technician reads audit, and only Fabrikam's entries.
    const fabrikam = db().prepare("SELECT id FROM organizations WHERE name = 'Fabrikam'").get() as {
      id: string;
    };
    expect(d.recentAudit).not.toBeNull();
    for (const entry of d.recentAudit ?? []) {
      expect(entry.orgId).toBe(fabrikam.id);
      expect(entry.actorType).not.toBe('agent');
    }
  });

  it('shows a technician limited to a device group only the devices of that group', async () => {
    const d = await overview(tok.groupTech);
    expect(d.organization?.name).toBe('Contoso');
    expect(pendingOf(d)).toEqual({ critical: 1, high: 1, medium: 0, low: 0 });
    expect(d.elevations?.activeGrants.total).toBe(1);
    expect(d.elevations?.mix).toMatchObject({ pending: 2, approved: 1, denied: 0 });
    expect(d.devices).toMatchObject({ online: 1, offline: 0 });
    expect(d.devices?.presence.at(-1)).toMatchObject({ online: 1, offline: 0 });
    expect(d.agentUpdates?.total).toBe(1);
    // An organization technician holds no audit:read: the section is absent, not empty.
    expect(d.recentAudit).toBeNull();
  });

  it("never counts another partner's numbers", async () => {
    const d = await overview(tok.initech);
    expect(d.partner?.name).toBe('Other MSP');
    expect(pendingOf(d)).toEqual({ critical: 0, high: 0, medium: 0, low: 1 });
    expect(d.elevations?.mix).toMatchObject({ pending: 1, approved: 0, denied: 0 });
    expect(d.devices).toMatchObject({ online: 1, offline: 0 });
    const initech = db().prepare("SELECT id FROM organizations WHERE name = 'Initech'").get() as {
      id: string;
    };
    for (const entry of d.recentAudit ?? []) expect([initech.id, null]).toContain(entry.orgId);
    // ... and Acme's administrator never sees Initech's.
    const acme = await overview(tok.acme);
    expect(acme.elevations?.pending.find((p) => p.risk === 'low')?.count).toBe(0);
    expect(acme.devices?.online).toBe(3);
  });

  it("the agents tile's link lists exactly the devices it counts", async () => {
    const d = await overview(tok.acme);
    const updates = d.agentUpdates;
    expect(updates?.total).toBe(4);
    if (!updates) return;
    const path = links.outdatedAgents(updates);
    const res = await server.api.get(`${path}&limit=100`, tok.acme);
    expect(res.status).toBe(200);
    expect(res.body.pagination.total).toBe(updates.total);
  });

  it('classes what became of each request: auto-approved by a rule, expired undecided', async () => {
    const auto = await report('ini', 'medium', 3);
    const lapsed = await report('ini', 'high', 2);
    const later = new Date(Date.now() + 30 * 60_000).toISOString();
    db()
      .prepare(
        "UPDATE elevation_requests SET status = 'auto_approved', decision_source = 'pam_rule', expires_at = ? WHERE id = ?",
      )
      .run(later, auto);
    db().prepare("UPDATE elevation_requests SET status = 'expired' WHERE id = ?").run(lapsed);
    const d = await overview(tok.initech);
    expect(d.elevations?.mix).toEqual({ pending: 1, approved: 0, auto_approved: 1, denied: 0, expired: 1 });
    expect(d.elevations?.activeGrants.total).toBe(1);
    expect(d.elevations?.perDay.at(-1)).toMatchObject({ pending: 1, auto_approved: 1, expired: 1 });
  });

  it('refuses a caller without a session', async () => {
    const res = await server.api.get('/dashboard');
    expect(res.status).toBe(401);
  });
});
