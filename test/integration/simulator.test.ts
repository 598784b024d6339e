import { readFileSync, writeFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Fleet, type FleetOptions } from '../../agent-sim/fleet';
import { getScenario, type Scenario } from '../../agent-sim/scenarios';
import { agentIdentity, type AgentIdentity } from '../../agent-sim/identity';
import { simulatedDemoFleet } from '../../app/demo-fleet';
import { createServer } from '../../server/index';
import { insertEnrollmentKey } from '../../server/modules/enrollment-keys/service';
import { writeAgentBinary } from '../support/agent-binaries';
import {
  insertOrg,
  insertPartner,
  insertPartnerUser,
  insertSite,
  mfaToken,
  PASSWORD,
  plainToken,
  ROLES,
} from '../support/seed';
import { ADMIN, ApiClient, auditSettled, type TestServer } from '../support/server';

// The Done-when, end to end: real simulated agents (agent-sim/, speaking only the public protocol over
// HTTP and WebSocket) against a real server on a real SQLite file. Every wait is a poll with a deadline.

const HEARTBEAT_ENV = { AGENT_HEARTBEAT_SECONDS: '1' };
const AGENT_TIMINGS = { pingIntervalMs: 1_000, presenceSweepMs: 500 };

async function boot(
  options: { dataDir?: string; port?: number; env?: Record<string, string> } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'gatehouse-sim-'));
  const server = await createServer({
    dataDir,
    port: options.port ?? 0,
    host: '127.0.0.1',
    staticDir: null,
    env: {
      LOG_LEVEL: 'silent',
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      ...HEARTBEAT_ENV,
      ...options.env,
    },
    agentTimings: AGENT_TIMINGS,
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

/** Polls `probe` until it returns a truthy value; fails with `what` and the last value after `timeoutMs`. */
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

/** Agent indexes of `seed` whose machine matches, so a test can pick a Linux or a non-Linux box. */
function indexesWhere(seed: number, match: (id: AgentIdentity) => boolean, count: number): number[] {
  const out: number[] = [];
  for (let i = 0; out.length < count && i < 500; i++) if (match(agentIdentity(seed, i))) out.push(i);
  return out;
}

function tenant(server: TestServer) {
  const { partnerId } = insertPartner(server, { name: 'Sim MSP' });
  const orgId = insertOrg(server, partnerId, `Sim Org ${partnerId.slice(0, 6)}`);
  const siteId = insertSite(server, orgId, 'Main office');
  const { key } = insertEnrollmentKey(server.context, {
    orgId,
    siteId,
    name: 'simulator test',
    maxUsage: 100,
    createdBy: 'test',
  });
  return { partnerId, orgId, siteId, key };
}

/** Steady, without new OS events: a live query's answer can be compared with the agent's own log. */
const quiet: Scenario = {
  ...getScenario('steady')!,
  name: 'quiet',
  events: { perBurst: [0, 0], everyHeartbeats: 1, backfill: 0 },
};

const fleets: Fleet[] = [];
function fleet(options: FleetOptions): Fleet {
  const f = new Fleet({ enrollConcurrency: 4, ...options });
  fleets.push(f);
  f.start();
  return f;
}
afterEach(async () => {
  await Promise.all(fleets.splice(0).map((f) => f.stop()));
});

describe('simulated agents against a real server', () => {
  let server: TestServer;
  let admin: string;
  let org: ReturnType<typeof tenant>;
  let binDir: string;
  let devBuild: { checksum: string };

  beforeAll(async () => {
    binDir = mkdtempSync(join(tmpdir(), 'gatehouse-bins-'));
    // Version 1.1.0 for every platform and architecture; the Linux amd64 file is tampered with after the server
    // registered it. A 1.2.0 for Windows on ARM (no simulated machine is one) is the dev_update build.
    const builds = (['windows', 'darwin', 'linux'] as const).flatMap((platform) =>
      (['amd64', 'arm64'] as const).map((arch) => writeAgentBinary(binDir, '1.1.0', platform, arch)),
    );
    devBuild = writeAgentBinary(binDir, '1.2.0', 'windows', 'arm64');
    server = await boot({ env: { AGENT_BINARIES_DIR: binDir } });
    const linuxAmd64 = builds.find((b) => b.path.endsWith('-linux-amd64'))!;
    writeFileSync(linuxAmd64.path, 'gatehouse-agent 1.1.0 linux/amd64 (with something extra)\n');
    admin = await mfaToken(server);
    org = tenant(server);
  });
  afterAll(async () => {
    await server.dispose();
    rmSync(binDir, { recursive: true, force: true });
  });

  it('enroll and heartbeat: devices appear online with their inventory, software and posture', async () => {
    const f = fleet({
      server: server.url,
      enrollmentKey: org.key,
      count: 3,
      seed: 11,
      agentVersion: '1.1.0',
    });
    await until('3 agents connected', () => f.stats().connected === 3);
    await until('2 heartbeats each', () => f.agents.every((a) => a.status.heartbeats >= 2));

    const list = await server.api.get(`/devices?orgId=${org.orgId}`, admin);
    expect(list.status).toBe(200);
    const rows = (list.body.data ?? list.body.devices) as Array<Record<string, any>>;
    expect(rows.map((d) => d.hostname).sort()).toEqual(f.agents.map((a) => a.identity.hostname).sort());
    expect(rows.every((d) => d.status === 'online' && d.siteId === org.siteId)).toBe(true);

    const agent = f.agents[0]!;
    const detail = await server.api.get(`/devices/${agent.deviceId}`, admin);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      hostname: agent.identity.hostname,
      osType: agent.identity.osType,
      osVersion: agent.identity.osVersion,
      architecture: agent.identity.architecture,
      agentVersion: '1.1.0',
      status: 'online',
      connected: true,
      hardware: {
        serialNumber: agent.identity.hardware.serialNumber,
        cpuCores: agent.identity.hardware.cpuCores,
      },
      network: { macAddress: agent.identity.network.macAddress },
    });
    // Metrics come from the heartbeat (a bounded random walk); the server keeps the last one.
    for (const value of Object.values(detail.body.metrics as Record<string, number>)) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThanOrEqual(100);
    }
    expect(detail.body.uptimeSeconds).toBeGreaterThan(0);
    expect(detail.body.managementPosture ?? null).toEqual(agent.machine.posture() ?? null);

    // Software inventory: reported once after enrollment, exactly what the machine has.
    const software = await until('software stored', () => {
      const rows = server.context.db
        .prepare('SELECT name, version, publisher FROM device_software WHERE device_id = ? ORDER BY name')
        .all(agent.deviceId) as Array<{ name: string }>;
      return rows.length > 0 ? rows : null;
    });
    expect(software).toEqual(
      [...agent.machine.software()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    );
    // Enrollment is audited as the agent's device.create.
    await auditSettled(server);
    const created = server.context.db
      .prepare("SELECT count(*) AS n FROM audit_logs WHERE action = 'device.create' AND org_id = ?")
      .get(org.orgId) as { n: number };
    expect(created.n).toBeGreaterThanOrEqual(3);
  });

  it('diagnostic logs and device event logs arrive in bursts', async () => {
    const f = fleet({
      server: server.url,
      enrollmentKey: org.key,
      count: 2,
      seed: 12,
      scenario: 'noisy-logs',
      agentVersion: '1.1.0',
    });
    await until('both enrolled', () => f.stats().enrolled === 2);
    const deviceId = f.agents[0]!.deviceId!;
    const diagnostic = await until('diagnostic logs stored', async () => {
      const res = await server.api.get(`/devices/${deviceId}/diagnostic-logs?limit=1000`, admin);
      return res.status === 200 && res.body.pagination.total >= 10 ? res.body : null;
    });
    const levels = new Set(['debug', 'info', 'warn', 'error']);
    for (const entry of diagnostic.data as Array<Record<string, any>>) {
      expect(levels.has(entry.level)).toBe(true);
      expect(entry.component).toMatch(/^[a-z]+$/);
      expect(entry.agentVersion).toBe('1.1.0');
    }
    // The start-up line names the machine.
    expect(
      (diagnostic.data as Array<{ message: string }>).some((e) => e.message === 'agent 1.1.0 started'),
    ).toBe(true);

    const events = await until('event logs stored', async () => {
      const res = await server.api.get(`/devices/${deviceId}/eventlogs?limit=500`, admin);
      return res.status === 200 && res.body.pagination.total >= 5 ? res.body : null;
    });
    const categories = new Set(['security', 'hardware', 'application', 'system']);
    for (const e of events.data as Array<Record<string, any>>) {
      expect(categories.has(e.category)).toBe(true);
      expect(['info', 'warning', 'error', 'critical']).toContain(e.level);
      expect(e.source.length).toBeGreaterThan(0);
      expect(e.eventId).toMatch(/^\d+$/);
    }
    // Stored events are unique per (source, eventId): a burst repeating one is not stored twice.
    const dupes = server.context.db
      .prepare(
        `SELECT count(*) AS n FROM (SELECT source, event_id FROM device_event_logs WHERE device_id = ?
         GROUP BY source, event_id HAVING count(*) > 1)`,
      )
      .get(deviceId) as { n: number };
    expect(dupes.n).toBe(0);
    expect(f.stats().eventsSent).toBeGreaterThan(events.pagination.total);
    await auditSettled(server);
    const submits = server.context.db
      .prepare(
        "SELECT count(*) AS n FROM audit_logs WHERE action = 'agent.eventlogs.submit' AND resource_id = ?",
      )
      .get(deviceId) as { n: number };
    expect(submits.n).toBeGreaterThan(0);
  });

  it('live event-log round trip: list, info, query with filters and paging, one record', async () => {
    const f = fleet({
      server: server.url,
      enrollmentKey: org.key,
      count: 1,
      seed: 13,
      agentVersion: '1.1.0',
      scenario: quiet,
    });
    const agent = f.agents[0]!;
    await until('connected', () => agent.connected);
    const base = `/system-tools/devices/${agent.deviceId}/eventlogs`;

    const list = await server.api.get(base, admin);
    expect(list.status).toBe(200);
    expect((list.body.data as Array<{ name: string }>).map((l) => l.name)).toEqual([
      'Application',
      'System',
      'Security',
      'Setup',
    ]);
    expect(list.body.data).toEqual(agent.eventLogs.list());

    // Names match case-insensitively, on both path prefixes.
    const info = await server.api.get(`${base}/security`, admin);
    expect(info.status).toBe(200);
    expect(info.body.data).toMatchObject({ name: 'Security', recordCount: expect.any(Number) });
    expect((await server.api.get(`/devices/${agent.deviceId}/eventlogs/SYSTEM`, admin)).body.data.name).toBe(
      'System',
    );
    const missing = await server.api.get(`${base}/Forwarded%20Events`, admin);
    expect(missing.status).toBe(404);

    const page = await server.api.get(`${base}/System/events?limit=5&page=2`, admin);
    expect(page.status).toBe(200);
    const expected = agent.eventLogs.query('System', { page: 2, limit: 5 })!;
    expect(page.body.pagination).toEqual({ page: 2, limit: 5, total: expected.total });
    expect(page.body.data).toEqual(expected.events);
    // Newest first.
    const times = (page.body.data as Array<{ timeCreated: string }>).map((e) => Date.parse(e.timeCreated));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const warnings = await server.api.get(`${base}/Security/events?level=warning&limit=50`, admin);
    expect(warnings.status).toBe(200);
    expect(warnings.body.data.length).toBeGreaterThan(0);
    expect((warnings.body.data as Array<{ level: string }>).every((e) => e.level === 'warning')).toBe(true);
    const first = warnings.body.data[0] as { eventId: number; recordId: number; rawXml: string };
    const byId = await server.api.get(`${base}/Security/events?eventId=${first.eventId}&limit=500`, admin);
    expect((byId.body.data as Array<{ eventId: number }>).every((e) => e.eventId === first.eventId)).toBe(
      true,
    );

    const one = await server.api.get(`${base}/Security/events/${first.recordId}`, admin);
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(first);
    expect(first.rawXml).toContain(`<EventRecordID>${first.recordId}</EventRecordID>`);
    expect((await server.api.get(`${base}/Security/events/1`, admin)).status).toBe(404);

    // A device whose agent is gone answers 409, not a 30 s wait.
    await f.stop();
    const offline = await until('409 once the socket is gone', async () => {
      const res = await server.api.get(base, admin);
      return res.status === 409 ? res : null;
    });
    expect(offline.body.code).toBe('DEVICE_OFFLINE');
  });

  it('auto-update: a good build is adopted, a tampered one is refused and the old version kept', async () => {
    const seed = 14;
    const [linux] = indexesWhere(seed, (id) => id.osType === 'linux' && id.architecture === 'x64', 1);
    const [other] = indexesWhere(seed, (id) => id.osType !== 'linux', 1);
    const good = fleet({ server: server.url, enrollmentKey: org.key, count: 1, seed, firstIndex: other });
    const bad = fleet({ server: server.url, enrollmentKey: org.key, count: 1, seed, firstIndex: linux });
    const upgraded = good.agents[0]!;
    const refused = bad.agents[0]!;
    expect(upgraded.agentVersion).toBe('1.0.0');

    await until('the good build adopted', async () => {
      const res = await server.api.get(`/devices/${upgraded.deviceId}`, admin);
      return res.body.agentVersion === '1.1.0' && upgraded.connected;
    });
    expect(upgraded.agentVersion).toBe('1.1.0');
    expect(good.stats().updates).toBe(1);
    const note = await until('update logged', async () => {
      const res = await server.api.get(
        `/devices/${upgraded.deviceId}/diagnostic-logs?component=updater`,
        admin,
      );
      return (res.body.data as Array<{ message: string }>).find((e) => e.message.startsWith('updated from'));
    });
    expect(note.message).toBe('updated from 1.0.0 to 1.1.0 (auto-update); restarting');

    const error = await until('checksum refusal logged', async () => {
      const res = await server.api.get(`/devices/${refused.deviceId}/diagnostic-logs?level=error`, admin);
      return (res.body.data as Array<Record<string, any>>).find((e) => e.component === 'updater');
    });
    expect(error.message).toMatch(
      /^update to 1\.1\.0 refused: checksum mismatch: expected [0-9a-f]{64}, got [0-9a-f]{64}; keeping 1\.0\.0$/,
    );
    expect(error.fields).toMatchObject({ version: '1.1.0', reason: 'checksum_mismatch' });
    // It keeps running the old version and does not fetch the same bad build on every heartbeat.
    const beats = refused.status.heartbeats;
    await until('three more heartbeats', () => refused.status.heartbeats >= beats + 3);
    expect(refused.agentVersion).toBe('1.0.0');
    expect(bad.stats().updateRefusals).toBe(1);
    const device = await server.api.get(`/devices/${refused.deviceId}`, admin);
    expect(device.body).toMatchObject({ agentVersion: '1.0.0', status: 'online', connected: true });
  });

  it('dev_update: downloads, verifies, switches and turns auto-update off', async () => {
    const seed = 15;
    const [index] = indexesWhere(seed, (id) => id.osType === 'windows', 1);
    const f = fleet({
      server: server.url,
      enrollmentKey: org.key,
      count: 1,
      seed,
      firstIndex: index,
      agentVersion: '1.1.0',
    });
    const agent = f.agents[0]!;
    await until('connected', () => agent.connected);
    // A build the registry would never offer this machine (another architecture): only dev_update brings it.
    const url = `${server.url}/api/v1/agent-versions/1.2.0/download?platform=windows&arch=arm64`;
    const checksum = devBuild.checksum;
    const queued = await server.api.post(
      `/devices/${agent.deviceId}/commands`,
      { type: 'dev_update', payload: { downloadUrl: url, checksum } },
      admin,
    );
    expect(queued.status).toBe(201);
    await until('switched to 1.2.0', () => agent.agentVersion === '1.2.0');
    expect(agent.status.autoUpdate).toBe(false);
    const command = await until('command completed', async () => {
      const res = await server.api.get(`/devices/${agent.deviceId}/commands`, admin);
      const row = (res.body.data as Array<Record<string, any>>).find((c) => c.id === queued.body.id);
      return row?.status === 'completed' ? row : null;
    });
    expect(command.result).toEqual({ version: '1.2.0', checksum, autoUpdate: false });
    await until('device reports 1.2.0', async () => {
      const res = await server.api.get(`/devices/${agent.deviceId}`, admin);
      return res.body.agentVersion === '1.2.0' && res.body.autoUpdate === false;
    });

    // A dev_update whose checksum does not match fails and changes nothing.
    const wrong = await server.api.post(
      `/devices/${agent.deviceId}/commands`,
      { type: 'dev_update', payload: { downloadUrl: url, checksum: '0'.repeat(64) } },
      admin,
    );
    const failed = await until('command failed', async () => {
      const res = await server.api.get(`/devices/${agent.deviceId}/commands`, admin);
      const row = (res.body.data as Array<Record<string, any>>).find((c) => c.id === wrong.body.id);
      return row?.status === 'failed' ? row : null;
    });
    expect(failed.error).toMatch(/^checksum mismatch/);
    expect(agent.agentVersion).toBe('1.2.0');
  });

  it('decommission: the agent gets self_uninstall, reports it, forgets its credentials and stops', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'gatehouse-state-'));
    const statePath = join(stateDir, 'fleet.json');
    const f = fleet({
      server: server.url,
      enrollmentKey: org.key,
      count: 2,
      seed: 16,
      statePath,
      agentVersion: '1.1.0',
    });
    await until('both connected', () => f.stats().connected === 2);
    const [gone, stays] = f.agents as [(typeof f.agents)[0], (typeof f.agents)[0]];
    const goneId = gone.deviceId!;
    const removed = await server.api.request('DELETE', `/devices/${goneId}`, { token: admin });
    expect(removed.status).toBe(200);

    await until('agent stopped', () => gone.phase === 'stopped');
    expect(gone.status.reason).toBe('uninstalled by the server (self_uninstall)');
    expect(gone.connected).toBe(false);
    expect(f.stats().uninstalls).toBe(1);
    // It forgot its credentials (removeConfig: true).
    expect(gone.status).toMatchObject({ enrolled: false, deviceId: null });
    const device = await until('device decommissioned', async () => {
      const res = await server.api.get(`/devices/${goneId}`, admin);
      return res.body.status === 'decommissioned' ? res.body : null;
    });
    expect(device.connected).toBe(false);
    const commands = await server.api.get(`/devices/${goneId}/commands`, admin);
    expect(commands.body.data).toContainEqual(
      expect.objectContaining({
        type: 'self_uninstall',
        status: 'completed',
        payload: { removeConfig: true },
      }),
    );
    // The other agent carries on.
    const beats = stays.status.heartbeats;
    await until('the other keeps beating', () => stays.status.heartbeats > beats);
    expect(stays.phase).toBe('running');

    // removeConfig: the saved credentials are gone; a restarted simulator leaves this machine uninstalled.
    await f.stop();
    const saved = JSON.parse(readFileSync(statePath, 'utf8'));
    const slots = Object.values(saved.fleets)[0] as Record<string, { state: string; agent: unknown }>;
    expect(slots[String(gone.index)]).toEqual({ state: 'uninstalled', agent: null });
    expect(slots[String(stays.index)]).toMatchObject({
      state: 'active',
      agent: { deviceId: stays.deviceId },
    });
    expect(statSync(statePath).mode & 0o777).toBe(0o600);
    const again = fleet({ server: server.url, enrollmentKey: org.key, count: 2, seed: 16, statePath });
    await until('the kept agent is back', () => again.agents[1]!.connected);
    expect(again.agents[0]!.phase).toBe('stopped');
    expect(again.stats().enrollments).toBe(0);
    expect(again.agents[1]!.deviceId).toBe(stays.deviceId);
    rmSync(stateDir, { recursive: true, force: true });
  });
});

describe('server restart on the same data directory', () => {
  it('agents ride through it: sockets come back, devices are online again, nothing re-enrolls', async () => {
    const first = await boot();
    const dataDir = first.dataDir;
    const port = first.port;
    const org = tenant(first);
    const f = fleet({ server: first.url, enrollmentKey: org.key, count: 3, seed: 21 });
    await until('3 connected', () => f.stats().connected === 3);
    const deviceIds = f.agents.map((a) => a.deviceId);
    await first.close();
    await until('sockets dropped', () => f.stats().connected === 0);
    // Long enough for the heartbeats to go stale (3 intervals), so the new process must see them come back.
    await new Promise((resolve) => setTimeout(resolve, 3_500));

    const second = await boot({ dataDir, port });
    const restartedAt = new Date().toISOString();
    try {
      await until('3 reconnected', () => f.stats().connected === 3, 25_000);
      const admin = await mfaToken(second);
      await until('devices online with fresh heartbeats', async () => {
        const res = await second.api.get(`/devices?orgId=${org.orgId}`, admin);
        const rows = (res.body.data ?? res.body.devices) as Array<Record<string, any>>;
        return (
          rows.length === 3 &&
          rows.every((d) => d.status === 'online' && d.lastSeenAt !== null && d.lastSeenAt > restartedAt)
        );
      });
      for (const id of deviceIds) expect(second.context.agentHub.isConnected(id!)).toBe(true);
      expect(f.stats().enrollments).toBe(3);
      expect(f.stats().reconnects).toBeGreaterThanOrEqual(3);
      expect(f.agents.every((a) => a.phase === 'running')).toBe(true);
    } finally {
      await f.stop();
      await second.dispose();
    }
  }, 60_000);
});

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
