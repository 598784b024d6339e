// Over 400 lines: one scenario world shared by every case below (a split restarts it per file); to be split by
// describe block over a test/support world, as the devices and tenancy suites were.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Fleet, type FleetOptions } from '../../agent-sim/fleet';
import { agentIdentity } from '../../agent-sim/identity';
import { simulatedDemoFleet } from '../../app/demo-fleet';
import { createServer } from '../../server/index';
import { insertEnrollmentKey } from '../../server/modules/enrollment-keys/service';
import {
  insertOrg,
  insertPamRule,
  insertPartner,
  insertPartnerUser,
  insertSite,
  mfaToken,
  PASSWORD,
  plainToken,
} from '../support/seed';
import { ADMIN, ApiClient, auditSettled, type TestServer } from '../support/server';

// Issue 5 item 5 end to end: simulated agents (agent-sim/, public protocol only) report elevation requests to a
// real server, which decides them by rules; the agents receive `actuate_elevation` / `revoke_elevation` and
// report the grant's state back. Every wait is a poll with a deadline.

const AGENT_TIMINGS = { pingIntervalMs: 1_000, presenceSweepMs: 500 };

async function boot(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-sim-pam-'));
  const server = await createServer({
    dataDir,
    port: 0,
    host: '127.0.0.1',
    staticDir: null,
    env: {
      LOG_LEVEL: 'silent',
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      AGENT_HEARTBEAT_SECONDS: '1',
      ...env,
    },
    agentTimings: AGENT_TIMINGS,
    pamExpirySweepMs: 300,
    demoFleet: simulatedDemoFleet,
  });
  return {
    ...server,
    dataDir,
    api: new ApiClient(server.url),
    async dispose() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function until<T>(
  what: string,
  probe: () => T | Promise<T>,
  timeoutMs = 15_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (last) return last as NonNullable<T>;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function tenant(server: TestServer, name: string) {
  const { partnerId } = insertPartner(server, { name: `${name} MSP` });
  const orgId = insertOrg(server, partnerId, name);
  const siteId = insertSite(server, orgId, 'Main office');
  const { key } = insertEnrollmentKey(server.context, {
    orgId,
    siteId,
    name: 'pam simulator test',
    maxUsage: 100,
    createdBy: 'test',
  });
  return { partnerId, orgId, siteId, key };
}

function insertRule(
  server: TestServer,
  orgId: string,
  rule: { name: string; verdict: string; priority: number; duration?: number } & Record<string, unknown>,
): string {
  const { duration, ...columns } = rule;
  return insertPamRule(server, orgId, { ...columns, approval_duration_minutes: duration ?? null });
}

interface RequestRow {
  id: string;
  device_id: string;
  flow_type: string;
  status: string;
  enforcement_status: string | null;
  risk_level: string;
  subject_username: string | null;
  subject_ad_groups: string | null;
  target_executable_path: string | null;
  target_executable_hash: string | null;
  target_executable_signer: string | null;
  parent_image: string | null;
  command_line: string | null;
  tool_name: string | null;
  risk_tier: number | null;
  action_digest: string | null;
  pam_rule_name: string | null;
  expires_at: string | null;
}

const requestRow = (server: TestServer, id: string) =>
  server.context.db.prepare('SELECT * FROM elevation_requests WHERE id = ?').get(id) as
    RequestRow | undefined;

const fleets: Fleet[] = [];
function fleet(options: FleetOptions): Fleet {
  const f = new Fleet({ enrollConcurrency: 4, spreadFirstHeartbeat: false, ...options });
  fleets.push(f);
  f.start();
  return f;
}
afterEach(async () => {
  await Promise.all(fleets.splice(0).map((f) => f.stop()));
});

describe('simulated agents raise elevation requests and apply decisions', () => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await boot();
    admin = await mfaToken(server);
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('auto-approve by rule -> actuated and active; revoke -> cleaned up; a window that ends is removed locally', async () => {
    const org = tenant(server, 'Rules Dental');
    insertRule(server, org.orgId, {
      name: 'Installers started from Explorer',
      verdict: 'auto_approve',
      priority: 10,
      duration: 30,
      match_parent_image: 'explorer.exe',
    });
    insertRule(server, org.orgId, {
      name: 'No critical AI actions',
      verdict: 'auto_deny',
      priority: 20,
      match_risk_tier: 4,
    });
    // A Windows workstation: its installers are started from Explorer.
    const seed = 21;
    let index = 0;
    while (
      agentIdentity(seed, index).osType !== 'windows' ||
      agentIdentity(seed, index).deviceRole !== 'workstation'
    )
      index++;
    const f = fleet({ server: server.url, enrollmentKey: org.key, count: 1, seed, firstIndex: index });
    await until('agent connected', () => f.stats().connected === 1);
    const agent = f.agents[0]!;
    const identity = agent.identity;

    // 1. The fleet raises a signed installer: a row, decided by the rule, with the actuation queued at once.
    const raised = await f.raiseElevation({ kind: 'signed_installer' });
    expect(raised).toMatchObject({
      agentIndex: index,
      deviceId: agent.deviceId,
      hostname: identity.hostname,
      kind: 'signed_installer',
      status: 'auto_approved',
    });
    const id = raised.id!;
    const row = requestRow(server, id)!;
    expect(row).toMatchObject({
      device_id: agent.deviceId,
      flow_type: 'uac_intercept',
      status: 'auto_approved',
      risk_level: 'medium',
      subject_username: `${identity.domain}\\${identity.primaryUser}`,
      parent_image: 'C:\\Windows\\explorer.exe',
      pam_rule_name: 'Installers started from Explorer',
    });
    expect(row.target_executable_path).toMatch(
      new RegExp(`^C:\\\\Users\\\\${identity.primaryUser.replace('.', '\\.')}\\\\Downloads\\\\`),
    );
    expect(row.target_executable_signer).toBeTruthy();
    expect(row.target_executable_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(row.subject_ad_groups!)).toContain(`${identity.domain}\\Domain Users`);
    expect(raised.expiresAt).toBe(row.expires_at);

    // 2. The agent receives actuate_elevation, grants, and reports active.
    await until('enforcement active', () => requestRow(server, id)?.enforcement_status === 'active');
    const grant = agent.elevation.grant(id);
    expect(grant).toMatchObject({
      elevationRequestId: id,
      subject: row.subject_username,
      targetPath: row.target_executable_path,
      commandLine: row.command_line,
      expiresAt: row.expires_at,
    });
    const actuation = server.context.db
      .prepare(
        "SELECT status, result FROM device_commands WHERE device_id = ? AND type = 'actuate_elevation' ORDER BY rowid",
      )
      .all(agent.deviceId) as Array<{ status: string; result: string }>;
    expect(actuation).toHaveLength(1);
    expect(actuation[0]!.status).toBe('completed');
    expect(JSON.parse(actuation[0]!.result)).toEqual({
      enforcementStatus: 'active',
      grantedAt: grant!.grantedAt,
    });

    // 3. Revoke through the API: the agent removes the grant and reports cleaned_up.
    const revoked = await server.api.post(
      `/pam/elevation-requests/${id}/revoke`,
      { reason: 'Done with it' },
      admin,
    );
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({
      success: true,
      id,
      status: 'revoked',
      enforcementStatus: 'cleanup_pending',
    });
    await until('enforcement cleaned up', () => requestRow(server, id)?.enforcement_status === 'cleaned_up');
    expect(requestRow(server, id)!.status).toBe('revoked');
    expect(agent.elevation.grant(id)).toBeNull();

    // 4. A critical AI tool action is denied by the second rule; nothing is actuated.
    const critical = await f.raiseElevation({ kind: 'ai_tool_critical' });
    expect(critical.status).toBe('denied');
    const aiRow = requestRow(server, critical.id!)!;
    expect(aiRow).toMatchObject({
      flow_type: 'ai_tool_action',
      status: 'denied',
      risk_level: 'critical',
      risk_tier: 4,
      pam_rule_name: 'No critical AI actions',
    });
    expect(aiRow.tool_name).toMatch(/^(run_powershell|manage_local_users|disable_security_tool)$/);
    expect(aiRow.action_digest).toMatch(/^[0-9a-f]{64}$/);

    // 5. A technician's admin console is left pending; a human approves it, and its window (shortened here so the
    //    test need not wait the minimum of a minute) ends on the agent before the server's sweep cleans up.
    const jit = await f.raiseElevation({ kind: 'admin_console' });
    expect(jit.status).toBe('pending');
    const jitRow = requestRow(server, jit.id!)!;
    expect(jitRow).toMatchObject({
      flow_type: 'tech_jit_admin',
      risk_level: 'high',
      target_executable_path: 'C:\\Windows\\System32\\mmc.exe',
    });
    expect(jitRow.subject_username).toMatch(new RegExp(`^${identity.domain}\\\\\\w+-admin$`));
    const approved = await server.api.post(
      `/pam/elevation-requests/${jit.id}/respond`,
      { decision: 'approve', durationMinutes: 5 },
      admin,
    );
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', enforcementStatus: 'pending_dispatch' });
    const endsAt = new Date(Date.now() + 4_000).toISOString();
    server.context.db
      .prepare('UPDATE elevation_requests SET expires_at = ? WHERE id = ?')
      .run(endsAt, jit.id);
    const actuated = await server.api.post(
      `/devices/${agent.deviceId}/actuate-elevation`,
      { elevationRequestId: jit.id },
      admin,
    );
    expect(actuated.status).toBe(201);
    expect(actuated.body).toMatchObject({ success: true, elevationRequestId: jit.id });
    await until('jit grant active', () => requestRow(server, jit.id!)?.enforcement_status === 'active');
    expect(agent.elevation.grant(jit.id!)).toMatchObject({
      subject: jitRow.subject_username,
      expiresAt: endsAt,
    });
    await until('grant removed locally', () => agent.elevation.grant(jit.id!) === null, 10_000);
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(endsAt));
    expect(agent.elevation.stats.expiredLocally).toBe(1);
    // The server expires it too and sends the cleanup, which the agent answers although nothing was left.
    await until('expired and cleaned up', () => {
      const r = requestRow(server, jit.id!);
      return r?.status === 'expired' && r.enforcement_status === 'cleaned_up';
    });

    expect(f.stats().elevation).toMatchObject({
      raised: 3,
      autoApproved: 1,
      denied: 1,
      pending: 1,
      grantsActive: 0,
      actuated: 2,
      cleanedUp: 2,
      expiredLocally: 1,
    });
    expect(agent.elevation.requests().map((r) => [r.id, r.kind, r.status])).toEqual([
      [id, 'signed_installer', 'auto_approved'],
      [critical.id, 'ai_tool_critical', 'denied'],
      [jit.id, 'admin_console', 'pending'],
    ]);

    // 6. Nothing outlives the simulator: a grant held when it stops is gone.
    const again = await f.raiseElevation({ kind: 'signed_installer' });
    await until('second grant active', () => agent.elevation.grant(again.id!) !== null);
    await f.stop();
    expect(agent.elevation.grants()).toEqual([]);
    expect(f.stats().elevation.grantsActive).toBe(0);
  }, 60_000);

  it('pam-load: every agent reports on every heartbeat; the server holds exactly what they raised', async () => {
    const org = tenant(server, 'Load Dental');
    const f = fleet({ server: server.url, enrollmentKey: org.key, count: 3, seed: 22, scenario: 'pam-load' });
    await until('3 agents connected', () => f.stats().connected === 3);
    await until('3 reports per agent', () => f.agents.every((a) => a.elevation.stats.pending >= 3));
    await f.stop();
    const rows = server.context.db
      .prepare('SELECT id, device_id, status, flow_type FROM elevation_requests WHERE org_id = ?')
      .all(org.orgId) as Array<{ id: string; device_id: string; status: string; flow_type: string }>;
    // No rules: everything waits for a technician. Every answer an agent recorded is a row of its device; a
    // report still in flight when the fleet stopped may be stored without its answer having arrived.
    expect(rows.every((r) => r.status === 'pending')).toBe(true);
    const recorded = f.agents.flatMap((a) =>
      a.elevation
        .requests()
        .filter((r) => r.status === 'pending')
        .map((r) => ({ id: r.id, deviceId: a.deviceId })),
    );
    expect(recorded.length).toBeGreaterThanOrEqual(9);
    for (const r of recorded) expect(rows.find((row) => row.id === r.id)?.device_id).toBe(r.deviceId);
    expect(rows.length).toBeGreaterThanOrEqual(recorded.length);
    expect(rows.length).toBeLessThanOrEqual(f.stats().elevation.raised);
    expect(new Set(rows.map((r) => r.device_id))).toEqual(new Set(f.agents.map((a) => a.deviceId)));
  }, 60_000);
});

describe('demo panel: raise an elevation request', () => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await boot({ SEED_DEMO: 'true', DEMO_AGENTS: '2' });
    admin = await mfaToken(server);
  });
  afterAll(async () => {
    await server.dispose();
  });

  const orgBySlug = (slug: string) =>
    (server.context.db.prepare('SELECT id FROM organizations WHERE slug = ?').get(slug) as { id: string }).id;

  it('one running simulated agent reports the chosen kind; the answer is the server’s decision', async () => {
    await until(
      '2 agents connected',
      async () => (await server.api.get('/demo/simulator', admin)).body.connected === 2,
    );
    const contoso = orgBySlug('contoso-dental');
    const res = await server.api.post(
      '/demo/simulator/elevation-requests',
      { kind: 'unsigned_tool', orgId: contoso },
      admin,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      id: expect.any(String),
      status: expect.stringMatching(/^(pending|auto_approved|denied)$/),
      deviceId: expect.any(String),
      hostname: expect.any(String),
    });
    const row = requestRow(server, res.body.id)!;
    expect(row).toMatchObject({
      device_id: res.body.deviceId,
      flow_type: 'uac_intercept',
      status: res.body.status,
    });
    expect(row.target_executable_signer).toBeNull();
    const device = server.context.db
      .prepare('SELECT hostname, org_id FROM devices WHERE id = ?')
      .get(res.body.deviceId) as { hostname: string; org_id: string };
    expect(device).toEqual({ hostname: res.body.hostname, org_id: contoso });

    // Without an organization: wherever the fleet runs. The status counts the reports.
    const second = await server.api.post('/demo/simulator/elevation-requests', { kind: 'ai_tool' }, admin);
    expect(second.status).toBe(200);
    expect(requestRow(server, second.body.id)?.flow_type).toBe('ai_tool_action');
    const status = await server.api.get('/demo/simulator', admin);
    expect(status.body.elevation).toMatchObject({ raised: 2, notReported: 0 });

    await auditSettled(server);
    const audit = server.context.db
      .prepare(
        "SELECT org_id, details FROM audit_logs WHERE action = 'demo.simulator.elevation_request' ORDER BY rowid",
      )
      .all() as Array<{ org_id: string; details: string }>;
    expect(audit).toHaveLength(2);
    expect(audit[0]!.org_id).toBe(contoso);
    expect(JSON.parse(audit[0]!.details)).toMatchObject({
      kind: 'unsigned_tool',
      elevationRequestId: res.body.id,
      deviceId: res.body.deviceId,
    });
  });

  it('validates the kind, needs MFA, and answers 409 where no simulated agent runs', async () => {
    const bad = await server.api.post('/demo/simulator/elevation-requests', { kind: 'rootkit' }, admin);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_ERROR');
    expect(bad.body.error).toMatch(/^kind: kind must be one of signed_installer, /);

    // A demo partner administrator without an MFA session.
    const demoPartner = server.context.db
      .prepare(
        `SELECT p.id, pu.role_id FROM partners p JOIN partner_users pu ON pu.partner_id = p.id
         JOIN users u ON u.id = pu.user_id WHERE p.slug = 'northwind-demo' AND u.email = 'riley.chen@northwind.demo'`,
      )
      .get() as { id: string; role_id: string };
    await insertPartnerUser(server, demoPartner.id, demoPartner.role_id, 'boss@sim-pam.test', {
      orgAccess: 'all',
    });
    const plain = await plainToken(server, 'boss@sim-pam.test');
    const noMfa = await server.api.post('/demo/simulator/elevation-requests', { kind: 'ai_tool' }, plain);
    expect(noMfa.status).toBe(403);
    const boss = await mfaToken(server, 'boss@sim-pam.test', PASSWORD);
    const withMfa = await server.api.post('/demo/simulator/elevation-requests', { kind: 'ai_tool' }, boss);
    expect(withMfa.status).toBe(200);

    // Another demo organization: no fleet runs there.
    const other = (
      server.context.db
        .prepare(
          `SELECT o.id FROM organizations o JOIN partners p ON p.id = o.partner_id
           WHERE p.slug = 'northwind-demo' AND o.slug <> 'contoso-dental' LIMIT 1`,
        )
        .get() as { id: string }
    ).id;
    const elsewhere = await server.api.post(
      '/demo/simulator/elevation-requests',
      { kind: 'signed_installer', orgId: other },
      admin,
    );
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body).toEqual({
      error: 'No simulated agent is running in this organization',
      code: 'SIMULATOR_NOT_RUNNING',
    });

    expect((await server.api.post('/demo/simulator/stop', {}, admin)).status).toBe(200);
    const stopped = await server.api.post(
      '/demo/simulator/elevation-requests',
      { kind: 'signed_installer' },
      admin,
    );
    expect(stopped.status).toBe(409);
    expect(stopped.body.code).toBe('SIMULATOR_NOT_RUNNING');
  });

  it('outside demo mode it is 409 SIMULATOR_UNAVAILABLE', async () => {
    const plain = await boot();
    try {
      const token = await mfaToken(plain);
      const res = await plain.api.post('/demo/simulator/elevation-requests', { kind: 'ai_tool' }, token);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        error: 'The simulator runs only in demo mode',
        code: 'SIMULATOR_UNAVAILABLE',
      });
    } finally {
      await plain.dispose();
    }
  });
});
