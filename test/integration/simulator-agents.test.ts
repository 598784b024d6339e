import { readFileSync, writeFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAgentBinary } from '../support/agent-binaries';
import { mfaToken } from '../support/seed';
import { auditSettled, type TestServer } from '../support/server';
import { boot, until, indexesWhere, tenant, quiet, useFleets } from '../support/simulator';

// The Done-when, end to end: real simulated agents (agent-sim/, speaking only the public protocol over
// HTTP and WebSocket) against a real server on a real SQLite file: enrollment, heartbeats, logs, live event-log
// queries, updates and decommissioning. Every wait is a poll with a deadline.

const fleet = useFleets();

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
