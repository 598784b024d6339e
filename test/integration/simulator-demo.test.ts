import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertOrg,
  insertPartner,
  insertPartnerUser,
  mfaToken,
  PASSWORD,
  plainToken,
  ROLES,
} from '../support/seed';
import { auditSettled, type TestServer } from '../support/server';
import { boot, until } from '../support/simulator';

// The demo simulator panel and `serve --demo --agents`: agents beside the server, resized, stopped, audited, and
// who may drive them. Every wait is a poll with a deadline.

describe('demo simulator panel and serve --demo --agents', () => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await boot({ env: { SEED_DEMO: 'true', DEMO_AGENTS: '2' } });
    admin = await mfaToken(server);
  });
  afterAll(async () => {
    await server.dispose();
  });

  const contoso = () =>
    (
      server.context.db.prepare("SELECT id FROM organizations WHERE slug = 'contoso-dental'").get() as {
        id: string;
      }
    ).id;
  const devicesIn = (orgId: string) =>
    server.context.db
      .prepare("SELECT id, site_id, status FROM devices WHERE org_id = ? AND status <> 'decommissioned'")
      .all(orgId) as Array<{ id: string; site_id: string | null; status: string }>;

  it('runs N agents beside the server from the start, in the demo fleet organization', async () => {
    const status = await until('2 agents connected', async () => {
      const res = await server.api.get('/demo/simulator', admin);
      return res.body.connected === 2 ? res.body : null;
    });
    expect(status).toMatchObject({
      available: true,
      running: true,
      agents: 2,
      orgId: contoso(),
      lastError: null,
    });
    const devices = devicesIn(contoso());
    expect(devices).toHaveLength(2);
    // Spread over the organization's two sites, one key per site.
    expect(new Set(devices.map((d) => d.site_id)).size).toBe(2);
    expect(devices.every((d) => d.site_id !== null)).toBe(true);
  });

  it('start resizes the fleet reusing saved credentials; stop stops it; both audited', async () => {
    const orgId = contoso();
    const before = devicesIn(orgId).length;
    const started = await server.api.post('/demo/simulator/start', { count: 3 }, admin);
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ available: true, running: true, agents: 3, orgId });
    await until(
      '3 connected',
      async () => (await server.api.get('/demo/simulator', admin)).body.connected === 3,
    );
    // Two machines came back with their saved credentials; only the third enrolled.
    expect(devicesIn(orgId)).toHaveLength(before + 1);

    const stopped = await server.api.post('/demo/simulator/stop', {}, admin);
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ available: true, running: false, agents: 0, orgId: null });
    expect(server.context.agentHub.connectedCount).toBe(0);
    // Stopping again is harmless.
    expect((await server.api.post('/demo/simulator/stop', {}, admin)).status).toBe(200);

    await auditSettled(server);
    const actions = server.context.db
      .prepare("SELECT action, org_id FROM audit_logs WHERE action LIKE 'demo.simulator.%' ORDER BY rowid")
      .all() as Array<{ action: string; org_id: string }>;
    expect(actions.map((a) => a.action)).toEqual([
      'demo.simulator.start', // serve --agents
      'demo.simulator.start',
      'demo.simulator.stop',
    ]);
    expect(actions.every((a) => a.org_id === orgId)).toBe(true);
  });

  it('validates input and refuses organizations outside the demo tenant', async () => {
    expect((await server.api.post('/demo/simulator/start', { count: 0 }, admin)).status).toBe(400);
    const tooMany = await server.api.post('/demo/simulator/start', { count: 2001 }, admin);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.code).toBe('VALIDATION_ERROR');
    const { partnerId } = insertPartner(server, { name: 'Real MSP' });
    const realOrg = insertOrg(server, partnerId, 'Real Customer');
    const outside = await server.api.post('/demo/simulator/start', { count: 1, orgId: realOrg }, admin);
    expect(outside.status).toBe(404);
    expect(outside.body.error).toBe('Organization not found');
    expect(devicesIn(realOrg)).toHaveLength(0);
    expect((await server.api.get('/demo/simulator', admin)).body.running).toBe(false);
  });

  it('is for platform administrators and demo partner administrators only, with MFA for start and stop', async () => {
    const partnerId = (
      server.context.db.prepare("SELECT id FROM partners WHERE slug = 'northwind-demo'").get() as {
        id: string;
      }
    ).id;
    const technician = await insertPartnerUser(server, partnerId, ROLES.partnerTechnician, 'tech@sim.test', {
      orgAccess: 'all',
    });
    expect(technician).toBeTruthy();
    const techToken = await plainToken(server, 'tech@sim.test');
    expect((await server.api.get('/demo/simulator', techToken)).status).toBe(403);

    const adminRole = (
      server.context.db
        .prepare(
          "SELECT role_id FROM partner_users pu JOIN users u ON u.id = pu.user_id WHERE u.email = 'riley.chen@northwind.demo'",
        )
        .get() as { role_id: string }
    ).role_id;
    await insertPartnerUser(server, partnerId, adminRole, 'boss@sim.test', { orgAccess: 'all' });
    const bossPlain = await plainToken(server, 'boss@sim.test');
    expect((await server.api.get('/demo/simulator', bossPlain)).body).toMatchObject({ available: true });
    const noMfa = await server.api.post('/demo/simulator/start', { count: 1 }, bossPlain);
    expect(noMfa.status).toBe(403);
    const boss = await mfaToken(server, 'boss@sim.test', PASSWORD);
    const ok = await server.api.post('/demo/simulator/start', { count: 1 }, boss);
    expect(ok.status).toBe(200);
    expect((await server.api.post('/demo/simulator/stop', {}, boss)).status).toBe(200);

    // A partner administrator limited to some organizations does not get the panel.
    const contosoId = contoso();
    await insertPartnerUser(server, partnerId, adminRole, 'narrow@sim.test', {
      orgAccess: 'selected',
      orgIds: [contosoId],
    });
    expect(
      (await server.api.get('/demo/simulator', await plainToken(server, 'narrow@sim.test'))).status,
    ).toBe(403);
    // Another partner's administrator does not either.
    const other = insertPartner(server, { name: 'Elsewhere MSP' });
    await insertPartnerUser(server, other.partnerId, other.adminRoleId, 'else@sim.test', {
      orgAccess: 'all',
    });
    const elsewhere = await server.api.get('/demo/simulator', await plainToken(server, 'else@sim.test'));
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.code).toBe('SIMULATOR_FORBIDDEN');
  });

  it('outside demo mode: unavailable, and start answers 409 SIMULATOR_UNAVAILABLE', async () => {
    const plain = await boot();
    try {
      const token = await mfaToken(plain);
      const status = await plain.api.get('/demo/simulator', token);
      expect(status.status).toBe(200);
      expect(status.body).toEqual({
        available: false,
        running: false,
        orgId: null,
        agents: 0,
        connected: 0,
        enrolled: 0,
        heartbeats: 0,
        startedAt: null,
        lastError: null,
      });
      const start = await plain.api.post('/demo/simulator/start', { count: 1 }, token);
      expect(start.status).toBe(409);
      expect(start.body).toEqual({
        error: 'The simulator runs only in demo mode',
        code: 'SIMULATOR_UNAVAILABLE',
      });
      expect((await plain.api.post('/demo/simulator/stop', {}, token)).status).toBe(409);
    } finally {
      await plain.dispose();
    }
  });
});
