// Over 400 lines: one scenario world shared by every case below (a split restarts it per file); to be split by
// describe block over a test/support world, as the devices and tenancy suites were.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../server/crypto';
import { runOffboardingReaper } from '../../server/jobs/offboarding-reaper';
import { SECRET_POLICIES } from '../../server/http/guard';
import { queueCommand } from '../../server/modules/agents/commands';
import {
  enrollmentBody,
  eventually,
  mintEnrollmentKey,
  startAgentServer,
  TestAgent,
  UpgradeRefused,
} from '../support/agent-client';
import { insertOrg, insertPartner, insertSite, mfaToken } from '../support/seed';
import { auditSettled, type TestServer } from '../support/server';

// The agent protocol over real HTTP (DESIGN §3): enrollment with keys, secret, caps and partner status; agent
// authentication; heartbeats storing what agents report, claiming commands once and offering upgrades; command
// results; the software report; and the narrowing of agents while their partner is offboarded.

const SECRET = 'fleet-secret-42';
let server: TestServer;
let partnerId: string;
let orgId: string;

beforeAll(async () => {
  server = await startAgentServer({ env: { ENROLLMENT_SECRET: SECRET } });
  partnerId = insertPartner(server).partnerId;
  orgId = insertOrg(server, partnerId, 'Contoso');
});
afterAll(async () => {
  await server.dispose();
});
beforeEach(() => {
  server.context.db.prepare('DELETE FROM rate_limits').run();
});

const db = () => server.context.db;
const keyUses = (id: string) =>
  (db().prepare('SELECT usage_count FROM enrollment_keys WHERE id = ?').get(id) as { usage_count: number })
    .usage_count;
const deviceRow = (id: string) =>
  db().prepare('SELECT * FROM devices WHERE id = ?').get(id) as Record<string, any>;
const enroll = (key: string, overrides: Record<string, unknown> = {}) =>
  server.api.post('/agents/enroll', enrollmentBody(key, { enrollmentSecret: SECRET, ...overrides }));
const agentFor = (key: string, overrides: Record<string, unknown> = {}) =>
  TestAgent.enroll(server, key, { enrollmentSecret: SECRET, ...overrides });

function registerVersion(version: string, platform: string, architecture: string, latest = true): void {
  if (latest) {
    db()
      .prepare('UPDATE agent_versions SET is_latest = 0 WHERE platform = ? AND architecture = ?')
      .run(platform, architecture);
  }
  db()
    .prepare(
      `INSERT INTO agent_versions (id, version, platform, architecture, download_url, file_path, checksum,
         size_bytes, source, is_latest, created_at) VALUES (?, ?, ?, ?, ?, NULL, ?, 1000, 'manual', ?, ?)`,
    )
    .run(
      randomUUID(),
      version,
      platform,
      architecture,
      `https://downloads.example.test/agent-${version}-${platform}-${architecture}`,
      sha256Hex(`${version}-${platform}-${architecture}`),
      latest ? 1 : 0,
      new Date().toISOString(),
    );
}

describe('enrollment', () => {
  it('enrolls a device, stores only the token hash, and announces it', async () => {
    const key = mintEnrollmentKey(server, orgId);
    const events: string[] = [];
    const off = server.context.bus.on('device.enrolled', (m) => events.push(`${m.orgId}:${m.data.hostname}`));
    const res = await enroll(key.key, {
      hostname: 'WS-FRONTDESK',
      displayName: 'Front desk',
      deviceRole: 'workstation',
      osBuild: '22631',
      surpriseField: 'dropped',
    });
    off();
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      ['agentId', 'authToken', 'deviceId', 'heartbeatIntervalSeconds', 'orgId', 'siteId'].sort(),
    );
    expect(res.body).toMatchObject({ orgId, siteId: null, heartbeatIntervalSeconds: 60 });
    expect(res.body.authToken).toMatch(/^agt_[A-Za-z0-9_-]{40,}$/);
    const row = deviceRow(res.body.deviceId);
    expect(row).toMatchObject({
      org_id: orgId,
      agent_id: res.body.agentId,
      hostname: 'WS-FRONTDESK',
      display_name: 'Front desk',
      os_type: 'windows',
      os_build: '22631',
      architecture: 'x64',
      agent_version: '1.0.0',
      status: 'online',
      hw_manufacturer: 'Dell Inc.',
      hw_cpu_cores: 8,
      net_mac_address: '00:11:22:33:44:55',
      enrollment_key_id: key.id,
      last_seen_ip: '127.0.0.1',
    });
    expect(row.agent_token_hash).toBe(sha256Hex(res.body.authToken));
    expect(JSON.stringify(row)).not.toContain(res.body.authToken);
    expect(keyUses(key.id)).toBe(1);
    expect(events).toEqual([`${orgId}:WS-FRONTDESK`]);
    await auditSettled(server);
    const audit = db()
      .prepare(
        "SELECT actor_type, actor_id, details FROM audit_logs WHERE action = 'device.create' AND resource_id = ?",
      )
      .get(res.body.deviceId) as { actor_type: string; actor_id: string; details: string };
    expect(audit).toMatchObject({ actor_type: 'agent', actor_id: res.body.deviceId });
    expect(audit.details).not.toContain(res.body.authToken);
  });

  it('places the device in the key site', async () => {
    const siteId = insertSite(server, orgId, 'Branch');
    const key = mintEnrollmentKey(server, orgId, { siteId });
    const res = await enroll(key.key);
    expect(res.status).toBe(201);
    expect(res.body.siteId).toBe(siteId);
    expect(deviceRow(res.body.deviceId).site_id).toBe(siteId);
  });

  it('refuses unknown, expired and exhausted keys with their reasons', async () => {
    const unknown = await enroll('f'.repeat(64));
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ error: 'Invalid enrollment key', reason: 'enrollment_key_not_found' });

    const expired = mintEnrollmentKey(server, orgId);
    db()
      .prepare('UPDATE enrollment_keys SET expires_at = ? WHERE id = ?')
      .run(new Date(Date.now() - 1000).toISOString(), expired.id);
    const expiredRes = await enroll(expired.key);
    expect(expiredRes.status).toBe(401);
    expect(expiredRes.body).toEqual({ error: 'Invalid enrollment key', reason: 'enrollment_key_expired' });

    const once = mintEnrollmentKey(server, orgId, { maxUsage: 1 });
    expect((await enroll(once.key)).status).toBe(201);
    const exhausted = await enroll(once.key);
    expect(exhausted.status).toBe(401);
    expect(exhausted.body).toEqual({ error: 'Invalid enrollment key', reason: 'enrollment_key_exhausted' });
    expect(keyUses(once.id)).toBe(1);
  });

  it('requires the server enrollment secret when one is configured', async () => {
    const key = mintEnrollmentKey(server, orgId);
    const missing = await server.api.post('/agents/enroll', enrollmentBody(key.key));
    expect(missing.status).toBe(403);
    expect(missing.body).toEqual({ error: 'Invalid enrollment secret' });
    const wrong = await enroll(key.key, { enrollmentSecret: 'nope' });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({ error: 'Invalid enrollment secret' });
    expect(keyUses(key.id)).toBe(0);
  });

  it('validates the body with clear messages', async () => {
    const key = mintEnrollmentKey(server, orgId);
    const res = await enroll(key.key, { osType: 'beos' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.error).toMatch(/^osType: /);
    const noHost = await enroll(key.key, { hostname: '' });
    expect(noHost.status).toBe(400);
    expect(noHost.body.error).toBe('hostname: hostname is required');
    expect(keyUses(key.id)).toBe(0);
  });

  it('enforces the organization device cap without consuming the key; decommissioned devices do not count', async () => {
    const capped = insertOrg(server, partnerId, 'Capped Org');
    db().prepare('UPDATE organizations SET max_devices = 2 WHERE id = ?').run(capped);
    const key = mintEnrollmentKey(server, capped);
    const first = await enroll(key.key);
    expect((await enroll(key.key)).status).toBe(201);
    const refused = await enroll(key.key);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error: 'The organization has reached its device limit',
      code: 'DEVICE_LIMIT_REACHED',
    });
    expect(keyUses(key.id)).toBe(2);
    expect(
      (db().prepare('SELECT count(*) AS n FROM devices WHERE org_id = ?').get(capped) as { n: number }).n,
    ).toBe(2);
    db().prepare("UPDATE devices SET status = 'decommissioned' WHERE id = ?").run(first.body.deviceId);
    expect((await enroll(key.key)).status).toBe(201);
  });

  it('enforces the partner device cap across its organizations', async () => {
    const partner = insertPartner(server, { name: 'Small MSP' }).partnerId;
    db().prepare('UPDATE partners SET max_devices = 2 WHERE id = ?').run(partner);
    const a = insertOrg(server, partner, 'Small A');
    const b = insertOrg(server, partner, 'Small B');
    const keyA = mintEnrollmentKey(server, a);
    const keyB = mintEnrollmentKey(server, b);
    expect((await enroll(keyA.key)).status).toBe(201);
    expect((await enroll(keyB.key)).status).toBe(201);
    const refused = await enroll(keyB.key);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error: 'The partner has reached its device limit',
      code: 'DEVICE_LIMIT_REACHED',
    });
    expect(keyUses(keyB.id)).toBe(1);
  });

  it('refuses enrollment into an inactive partner without consuming the key', async () => {
    const partner = insertPartner(server, { name: 'Sleepy MSP', status: 'suspended' }).partnerId;
    const org = insertOrg(server, partner, 'Sleepy Org');
    const key = mintEnrollmentKey(server, org);
    const res = await enroll(key.key);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Partner account is suspended', code: 'PARTNER_INACTIVE' });
    expect(keyUses(key.id)).toBe(0);
  });

  it('rate-limits refused enrollments per address', async () => {
    const limit = SECRET_POLICIES.enrollment.perAddress.failures;
    for (let i = 0; i < limit; i++) expect((await enroll('0'.repeat(64))).status).toBe(401);
    const key = mintEnrollmentKey(server, orgId);
    const blocked = await enroll(key.key);
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('RATE_LIMITED');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(keyUses(key.id)).toBe(0);
  });
});

describe('agent authentication', () => {
  it('answers 404 for an unknown agent and 401 for a missing or wrong token', async () => {
    const agent = await agentFor(mintEnrollmentKey(server, orgId).key);
    const unknown = await server.api.request('POST', `/agents/${randomUUID()}/heartbeat`, {
      body: { status: 'ok', agentVersion: '1.0.0' },
      token: agent.creds.authToken,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Agent not found' });
    const wrong = await agent.heartbeat({}, 'agt_wrong');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'Invalid agent credentials' });
    const missing = await server.api.request('POST', `${agent.path}/heartbeat`, {
      body: { status: 'ok', agentVersion: '1.0.0' },
    });
    expect(missing.status).toBe(401);
    // Another agent's valid token does not open this agent.
    const other = await agentFor(mintEnrollmentKey(server, orgId).key);
    expect((await agent.heartbeat({}, other.creds.authToken)).status).toBe(401);
    expect((await agent.logs([], 'agt_wrong')).status).toBe(401);
    expect((await agent.eventlogs([], 'agt_wrong')).status).toBe(401);
    expect((await agent.software([], 'agt_wrong')).status).toBe(401);
    expect((await agent.heartbeat()).status).toBe(200);
  });
});

describe('heartbeat', () => {
  it('stores what the agent reports and drops unknown fields', async () => {
    const agent = await agentFor(mintEnrollmentKey(server, orgId).key);
    const res = await agent.heartbeat({
      status: 'warning',
      agentVersion: '1.0.1',
      platform: 'linux', // inconsistent with the enrolled Windows device: ignored
      arch: 'amd64',
      metrics: { cpuPercent: 42.5, ramPercent: 61, diskPercent: 80 },
      uptimeSeconds: 3600,
      lastUser: 'CONTOSO\\alice',
      rebootRequired: true,
      managementPosture: [{ product: 'TeamViewer', status: 'running' }],
      fromTheFuture: { anything: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ commands: [], heartbeatIntervalSeconds: 60 });
    const row = deviceRow(agent.creds.deviceId);
    expect(row).toMatchObject({
      health: 'warning',
      agent_version: '1.0.1',
      os_type: 'windows',
      architecture: 'x64',
      cpu_percent: 42.5,
      ram_percent: 61,
      disk_percent: 80,
      uptime_seconds: 3600,
      last_user: 'CONTOSO\\alice',
      reboot_required: 1,
      last_seen_ip: '127.0.0.1',
      status: 'online',
    });
    expect(JSON.parse(row.management_posture)).toEqual([{ product: 'TeamViewer', status: 'running' }]);
    expect(row.posture_reported_at).toBeTruthy();
    // Omitted optional fields keep what was reported before.
    await agent.heartbeat({ status: 'ok' });
    expect(deviceRow(agent.creds.deviceId)).toMatchObject({
      health: 'ok',
      last_user: 'CONTOSO\\alice',
      uptime_seconds: 3600,
      reboot_required: 1,
    });
    const bad = await agent.heartbeat({ status: 'fine' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^status: /);
  });

  it('brings an offline device back online with device.online and reports a version change', async () => {
    const agent = await agentFor(mintEnrollmentKey(server, orgId).key);
    db().prepare("UPDATE devices SET status = 'offline' WHERE id = ?").run(agent.creds.deviceId);
    const seen: string[] = [];
    const offs = [
      server.context.bus.on('device.presence_changed', (m) => {
        for (const c of m.data.changes)
          if (c.deviceId === agent.creds.deviceId) seen.push(`device.${c.status}`);
      }),
      server.context.bus.on(
        'device.updated',
        (m) => m.data.deviceId === agent.creds.deviceId && seen.push(m.event),
      ),
    ];
    await agent.heartbeat({ agentVersion: '1.0.0' });
    await agent.heartbeat({ agentVersion: '1.0.0' });
    await agent.heartbeat({ agentVersion: '1.1.0' });
    offs.forEach((off) => off());
    expect(seen).toEqual(['device.online', 'device.updated']);
    expect(deviceRow(agent.creds.deviceId).status).toBe('online');
  });

  it('leaves maintenance and quarantine to operators', async () => {
    const agent = await agentFor(mintEnrollmentKey(server, orgId).key);
    db().prepare("UPDATE devices SET status = 'maintenance' WHERE id = ?").run(agent.creds.deviceId);
    await agent.heartbeat();
    expect(deviceRow(agent.creds.deviceId).status).toBe('maintenance');
  });

  it('hands out pending commands once, oldest first', async () => {
    const agent = await agentFor(mintEnrollmentKey(server, orgId).key);
    const { deviceId } = agent.creds;
    const first = queueCommand(server.context, {
      deviceId,
      orgId,
      type: 'dev_update',
      payload: { downloadUrl: 'https://x.test/a', checksum: 'a'.repeat(64) },
      createdBy: null,
    });
    const second = queueCommand(server.context, {
      deviceId,
      orgId,
      type: 'self_uninstall',
      payload: { removeConfig: false },
      createdBy: null,
    });
    expect(first.status).toBe('pending');
    const res = await agent.heartbeat();
    expect(res.body.commands).toEqual([
      {
        id: first.id,
        type: 'dev_update',
        payload: { downloadUrl: 'https://x.test/a', checksum: 'a'.repeat(64) },
      },
      { id: second.id, type: 'self_uninstall', payload: { removeConfig: false } },
    ]);
    const rows = db()
      .prepare('SELECT status, sent_at FROM device_commands WHERE device_id = ?')
      .all(deviceId) as Array<{ status: string; sent_at: string | null }>;
    expect(rows.every((r) => r.status === 'sent' && r.sent_at)).toBe(true);
    expect((await agent.heartbeat()).body.commands).toEqual([]);
  });

  it('offers upgradeTo only for a newer version of its own platform and architecture', async () => {
    const agent = await agentFor(mintEnrollmentKey(server, orgId).key, { agentVersion: '2.0.0' });
    // Other platform and architecture: nothing for this Windows x64 device.
    registerVersion('9.0.0', 'linux', 'amd64');
    registerVersion('9.0.0', 'windows', 'arm64');
    expect((await agent.heartbeat({ agentVersion: '2.0.0' })).body.upgradeTo).toBeUndefined();
    // Older than what the agent runs: never a downgrade.
    registerVersion('1.5.0', 'windows', 'amd64');
    expect((await agent.heartbeat({ agentVersion: '2.0.0' })).body.upgradeTo).toBeUndefined();
    registerVersion('2.0.0', 'windows', 'amd64');
    expect((await agent.heartbeat({ agentVersion: '2.0.0' })).body.upgradeTo).toBeUndefined();
    registerVersion('2.10.0', 'windows', 'amd64');
    const offered = await agent.heartbeat({ agentVersion: '2.0.0' });
    expect(offered.body.upgradeTo).toEqual({
      version: '2.10.0',
      downloadUrl: 'https://downloads.example.test/agent-2.10.0-windows-amd64',
      checksum: sha256Hex('2.10.0-windows-amd64'),
    });
    // Once updated there is nothing more to offer.
    expect((await agent.heartbeat({ agentVersion: '2.10.0' })).body.upgradeTo).toBeUndefined();
    // Auto-update switched off (dev_update) means no offer.
    db().prepare('UPDATE devices SET auto_update = 0 WHERE id = ?').run(agent.creds.deviceId);
    expect((await agent.heartbeat({ agentVersion: '2.0.0' })).body.upgradeTo).toBeUndefined();
  });

  it('offers macOS arm64 agents the darwin build and x86 agents nothing', async () => {
    registerVersion('3.0.0', 'darwin', 'arm64');
    const mac = await agentFor(mintEnrollmentKey(server, orgId).key, {
      osType: 'macos',
      osVersion: 'macOS 14.5',
      architecture: 'arm64',
    });
    expect((await mac.heartbeat({ agentVersion: '1.0.0' })).body.upgradeTo).toMatchObject({
      version: '3.0.0',
    });
    const x86 = await agentFor(mintEnrollmentKey(server, orgId).key, { architecture: 'x86' });
    expect((await x86.heartbeat({ agentVersion: '1.0.0' })).body.upgradeTo).toBeUndefined();
  });
});

describe('command results', () => {
  it('records a result once; repeats are idempotent; other agents get 404', async () => {
    const agent = await agentFor(mintEnrollmentKey(server, orgId).key);
    const other = await agentFor(mintEnrollmentKey(server, orgId).key);
    const command = queueCommand(server.context, {
      deviceId: agent.creds.deviceId,
      orgId,
      type: 'dev_update',
      payload: { downloadUrl: 'https://x.test/b', checksum: 'b'.repeat(64) },
      createdBy: null,
    });
    await agent.heartbeat();
    const foreign = await other.result(command.id, { status: 'completed' });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'Command not found' });
    expect((await agent.result(randomUUID(), { status: 'completed' })).status).toBe(404);
    const bad = await agent.result(command.id, { status: 'done' });
    expect(bad.status).toBe(400);

    const done = await agent.result(command.id, {
      status: 'failed',
      error: 'checksum mismatch',
      result: { tried: 1 },
    });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ success: true, commandId: command.id, status: 'failed', updated: true });
    const again = await agent.result(command.id, { status: 'completed' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ success: true, commandId: command.id, status: 'failed', updated: false });
    const row = db().prepare('SELECT * FROM device_commands WHERE id = ?').get(command.id) as Record<
      string,
      any
    >;
    expect(row).toMatchObject({ status: 'failed', error: 'checksum mismatch', result: '{"tried":1}' });
    expect(row.completed_at).toBeTruthy();
  });

  it('a completed self_uninstall decommissions the device and kills the credential', async () => {
    const agent = await agentFor(mintEnrollmentKey(server, orgId).key);
    const command = queueCommand(server.context, {
      deviceId: agent.creds.deviceId,
      orgId,
      type: 'self_uninstall',
      payload: { removeConfig: true },
      createdBy: null,
    });
    const events: string[] = [];
    const off = server.context.bus.on('device.decommissioned', (m) => events.push(m.data.deviceId));
    expect((await agent.heartbeat()).body.commands).toHaveLength(1);
    expect((await agent.result(command.id, { status: 'completed' })).status).toBe(200);
    off();
    expect(events).toEqual([agent.creds.deviceId]);
    const row = deviceRow(agent.creds.deviceId);
    expect(row.status).toBe('decommissioned');
    expect(row.decommissioned_at).toBeTruthy();
    expect((await agent.heartbeat()).status).toBe(401);
    expect((await agent.result(command.id, { status: 'completed' })).status).toBe(401);
  });

  it('a decommissioned device may only heartbeat for its uninstall and report results', async () => {
    const agent = await agentFor(mintEnrollmentKey(server, orgId).key);
    await agent.heartbeat({ lastUser: 'bob' });
    // What DELETE /devices/:id does: decommission, then queue the uninstall.
    db()
      .prepare("UPDATE devices SET status = 'decommissioned', decommissioned_at = ? WHERE id = ?")
      .run(new Date().toISOString(), agent.creds.deviceId);
    queueCommand(server.context, {
      deviceId: agent.creds.deviceId,
      orgId,
      type: 'dev_update',
      payload: {},
      createdBy: null,
    });
    const uninstall = queueCommand(server.context, {
      deviceId: agent.creds.deviceId,
      orgId,
      type: 'self_uninstall',
      payload: { removeConfig: true },
      createdBy: null,
    });
    const hb = await agent.heartbeat({ lastUser: 'mallory' });
    expect(hb.status).toBe(200);
    expect(hb.body.commands).toEqual([
      { id: uninstall.id, type: 'self_uninstall', payload: { removeConfig: true } },
    ]);
    expect(deviceRow(agent.creds.deviceId)).toMatchObject({ status: 'decommissioned', last_user: 'bob' });
    const logs = await agent.logs([]);
    expect(logs.status).toBe(403);
    expect(logs.body).toEqual({ error: 'Device has been decommissioned', code: 'DEVICE_DECOMMISSIONED' });
    await expect(agent.connect()).rejects.toMatchObject({ status: 403 });
    const events: string[] = [];
    const off = server.context.bus.on('device.decommissioned', (m) => events.push(m.data.deviceId));
    expect((await agent.result(uninstall.id, { status: 'completed' })).status).toBe(200);
    off();
    // Already decommissioned by the operator: no second announcement.
    expect(events).toEqual([]);
    expect((await agent.heartbeat()).status).toBe(401);
  });
});

describe('software report', () => {
  it('replaces the inventory as a whole and caps it at 5000 entries', async () => {
    const agent = await agentFor(mintEnrollmentKey(server, orgId).key);
    const first = await agent.software([
      { name: 'Google Chrome', version: '126.0', publisher: 'Google LLC' },
      { name: '7-Zip', version: '23.01' },
    ]);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true, count: 2 });
    const second = await agent.software([
      { name: 'Mozilla Firefox', version: '127.0', publisher: 'Mozilla' },
    ]);
    expect(second.status).toBe(200);
    const rows = db()
      .prepare('SELECT name, version, publisher FROM device_software WHERE device_id = ?')
      .all(agent.creds.deviceId);
    expect(rows).toEqual([{ name: 'Mozilla Firefox', version: '127.0', publisher: 'Mozilla' }]);
    const tooMany = await agent.software(Array.from({ length: 5001 }, (_, i) => ({ name: `app-${i}` })));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toBe('software: at most 5000 software entries per report');
    expect(
      db().prepare('SELECT count(*) AS n FROM device_software WHERE device_id = ?').get(agent.creds.deviceId),
    ).toEqual({ n: 1 });
  });
});

describe('partner offboarding', () => {
  const patchPartner = (id: string, status: string, token: string) =>
    server.api.request('PATCH', `/orgs/partners/${id}`, { body: { status }, token });

  it('narrows agents to heartbeats that collect their uninstall; reactivation restores them and cancels the rest', async () => {
    const admin = await mfaToken(server);
    const partner = insertPartner(server, { name: 'Leaving MSP' }).partnerId;
    const org = insertOrg(server, partner, 'Leaving Org');
    const key = mintEnrollmentKey(server, org);
    const a = await agentFor(key.key);
    const b = await agentFor(key.key);
    const socket = await a.connect();
    queueCommand(server.context, {
      deviceId: a.creds.deviceId,
      orgId: org,
      type: 'dev_update',
      payload: {},
      createdBy: null,
    });
    await socket.nextCommand('dev_update');

    expect((await patchPartner(partner, 'offboarding', admin)).status).toBe(200);
    // The open socket is closed and new ones are refused.
    await socket.closed;
    await expect(a.connect()).rejects.toMatchObject({
      status: 403,
      body: { error: 'Partner account is being offboarded', code: 'PARTNER_INACTIVE' },
    });
    const queued = db()
      .prepare(
        "SELECT device_id, payload, status FROM device_commands WHERE type = 'self_uninstall' AND device_id IN (?, ?)",
      )
      .all(a.creds.deviceId, b.creds.deviceId) as Array<{
      device_id: string;
      payload: string;
      status: string;
    }>;
    expect(queued).toHaveLength(2);
    expect(queued.every((q) => q.status === 'pending' && JSON.parse(q.payload).removeConfig === true)).toBe(
      true,
    );
    await auditSettled(server);
    const audit = db()
      .prepare(
        "SELECT details FROM audit_logs WHERE action = 'partner.update' AND partner_id = ? ORDER BY timestamp DESC",
      )
      .get(partner) as { details: string };
    expect(JSON.parse(audit.details)).toMatchObject({ agents: { uninstallsQueued: 2 } });
    // Operator commands are not handed out while narrowed; only the uninstall is.
    queueCommand(server.context, {
      deviceId: a.creds.deviceId,
      orgId: org,
      type: 'dev_update',
      payload: {},
      createdBy: null,
    });
    const hb = await a.heartbeat();
    expect(hb.status).toBe(200);
    expect(hb.body.commands).toEqual([
      expect.objectContaining({ type: 'self_uninstall', payload: { removeConfig: true } }),
    ]);
    const logs = await a.logs([]);
    expect(logs.status).toBe(403);
    expect(logs.body).toEqual({ error: 'Partner account is being offboarded', code: 'PARTNER_INACTIVE' });
    expect((await a.eventlogs([])).status).toBe(403);
    expect((await a.software([])).status).toBe(403);

    // Reactivation: b never collected its uninstall, so it is cancelled; a's was collected and stays.
    expect((await patchPartner(partner, 'active', admin)).status).toBe(200);
    const statuses = db()
      .prepare(
        "SELECT device_id, status FROM device_commands WHERE type = 'self_uninstall' AND device_id IN (?, ?)",
      )
      .all(a.creds.deviceId, b.creds.deviceId) as Array<{ device_id: string; status: string }>;
    expect(Object.fromEntries(statuses.map((s) => [s.device_id, s.status]))).toEqual({
      [a.creds.deviceId]: 'sent',
      [b.creds.deviceId]: 'cancelled',
    });
    const hbB = await b.heartbeat();
    expect(hbB.body.commands).toEqual([]);
    expect((await b.logs([])).status).toBe(201);
    const again = await a.connect();
    // The operator's dev_update queued during offboarding arrives now.
    await again.nextCommand('dev_update');
    await again.close();
  });

  it('churns early once every device uninstalled and severs the remaining credentials', async () => {
    const admin = await mfaToken(server);
    const partner = insertPartner(server, { name: 'Gone MSP' }).partnerId;
    const org = insertOrg(server, partner, 'Gone Org');
    const key = mintEnrollmentKey(server, org);
    const a = await agentFor(key.key);
    expect((await patchPartner(partner, 'offboarding', admin)).status).toBe(200);
    // Still inside the drain window and the device has not uninstalled: nothing happens.
    expect(runOffboardingReaper(server.context)).not.toContain(partner);
    const [command] = (await a.heartbeat()).body.commands as Array<{ id: string }>;
    expect((await a.result(command!.id, { status: 'completed' })).status).toBe(200);
    expect(runOffboardingReaper(server.context)).toContain(partner);
    expect(
      (db().prepare('SELECT status FROM partners WHERE id = ?').get(partner) as { status: string }).status,
    ).toBe('churned');

    // A partner whose agents never uninstall: the window ends, the partner churns, its agents are cut off.
    const stubborn = insertPartner(server, { name: 'Stubborn MSP' }).partnerId;
    const stubbornOrg = insertOrg(server, stubborn, 'Stubborn Org');
    const s = await agentFor(mintEnrollmentKey(server, stubbornOrg).key);
    expect((await patchPartner(stubborn, 'offboarding', admin)).status).toBe(200);
    const later = new Date(Date.now() + (server.config.offboardingDrainWindowHours + 1) * 3600 * 1000);
    expect(runOffboardingReaper(server.context, later)).toContain(stubborn);
    await eventually(() => deviceRow(s.creds.deviceId).agent_token_hash.startsWith('revoked:'));
    const cut = await s.heartbeat();
    expect(cut.status).toBe(401);
    await expect(s.connect()).rejects.toBeInstanceOf(UpgradeRefused);
  });

  it('severs agents of a churned partner even before the reaper wipes their hashes', async () => {
    const partner = insertPartner(server, { name: 'Closed MSP' }).partnerId;
    const org = insertOrg(server, partner, 'Closed Org');
    const agent = await agentFor(mintEnrollmentKey(server, org).key);
    db().prepare("UPDATE partners SET status = 'churned' WHERE id = ?").run(partner);
    const res = await agent.heartbeat();
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Agent credentials have been revoked' });
  });
});
