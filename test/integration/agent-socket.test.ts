import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { sweepDevicePresence } from '../../server/jobs/device-presence';
import { queueCommand } from '../../server/modules/agents/commands';
import {
  eventually,
  mintEnrollmentKey,
  startAgentServer,
  TestAgent,
  UpgradeRefused,
  type AgentSocket,
} from '../support/agent-client';
import { insertOrg, insertPartner, insertPartnerUser, plainToken } from '../support/seed';
import type { TestServer } from '../support/server';

// The agent WebSocket (DESIGN §3) over real ws: the bearer is checked before the upgrade, commands are pushed,
// live queries round-trip in memory, pings drop dead sockets, a newer socket replaces the older, and presence
// (online/offline) reaches consoles in scope only. Revocation closing sockets: agent-socket-revocation.test.ts. Heartbeat interval 1 s, so presence moves within seconds.

const PING_MS = 150;
const LIVE_TIMEOUT_MS = 400;
let server: TestServer;
let partnerId: string;
let orgId: string;
let key: string;

beforeAll(async () => {
  server = await startAgentServer({
    env: { AGENT_HEARTBEAT_SECONDS: '1' },
    agentTimings: { pingIntervalMs: PING_MS, liveQueryTimeoutMs: LIVE_TIMEOUT_MS, presenceSweepMs: 100 },
  });
  partnerId = insertPartner(server).partnerId;
  orgId = insertOrg(server, partnerId, 'Contoso');
  key = mintEnrollmentKey(server, orgId, { maxUsage: 1000 }).key;
});
afterAll(async () => {
  await server.dispose();
});

const db = () => server.context.db;
const status = (deviceId: string) =>
  (db().prepare('SELECT status FROM devices WHERE id = ?').get(deviceId) as { status: string }).status;
const hub = () => server.context.agentHub;

async function refused(agent: TestAgent, token?: string): Promise<UpgradeRefused> {
  try {
    const socket = await agent.connect(token ? { token } : {});
    await socket.close();
  } catch (err) {
    if (err instanceof UpgradeRefused) return err;
    throw err;
  }
  throw new Error('expected the upgrade to be refused');
}

describe('agent socket', () => {
  it('checks the bearer before the upgrade', async () => {
    const agent = await TestAgent.enroll(server, key);
    const wrong = await refused(agent, 'agt_nope');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'Invalid agent credentials' });

    const ghost = new TestAgent(server.url, { ...agent.creds, agentId: randomUUID() });
    const missing = await refused(ghost);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Agent not found' });

    // No Authorization header at all.
    const bare = new WebSocket(agent.socketUrl());
    const status = await new Promise<number>((resolve) =>
      bare.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)),
    );
    expect(status).toBe(401);
    expect(hub().isConnected(agent.creds.deviceId)).toBe(false);
  });

  it('greets, marks the device online and pushes commands queued before and after connecting', async () => {
    const agent = await TestAgent.enroll(server, key);
    const { deviceId } = agent.creds;
    db().prepare("UPDATE devices SET status = 'offline' WHERE id = ?").run(deviceId);
    const before = queueCommand(server.context, {
      deviceId,
      orgId,
      type: 'dev_update',
      payload: { downloadUrl: 'https://x.test/1', checksum: 'c'.repeat(64) },
      createdBy: null,
    });
    const online: string[] = [];
    const off = server.context.bus.on('device.presence_changed', (m) => {
      for (const c of m.data.changes) if (c.deviceId === deviceId) online.push(c.status);
    });
    const socket = await agent.connect();
    expect(await socket.next((m) => m.type === 'connected')).toEqual({ type: 'connected' });
    expect(await socket.nextCommand()).toEqual({
      type: 'command',
      id: before.id,
      commandType: 'dev_update',
      payload: { downloadUrl: 'https://x.test/1', checksum: 'c'.repeat(64) },
    });
    // Presence changes are written in batches a moment later.
    await eventually(() => online.length > 0);
    off();
    expect(online).toEqual(['online']);
    expect(status(deviceId)).toBe('online');
    expect(hub().isConnected(deviceId)).toBe(true);
    expect(hub().connectedCount).toBeGreaterThanOrEqual(1);

    const after = queueCommand(server.context, {
      deviceId,
      orgId,
      type: 'self_uninstall',
      payload: { removeConfig: false },
      createdBy: null,
    });
    // Pushed at once, so the row is already `sent` when queueCommand returns it... read it fresh.
    const pushed = await socket.next((m) => m.type === 'command' && m.id === after.id);
    expect(pushed).toMatchObject({ commandType: 'self_uninstall', payload: { removeConfig: false } });
    const rows = db()
      .prepare('SELECT id, status FROM device_commands WHERE device_id = ? ORDER BY created_at')
      .all(deviceId);
    expect(rows).toEqual([
      { id: before.id, status: 'sent' },
      { id: after.id, status: 'sent' },
    ]);
    // Nothing left for a heartbeat to claim.
    expect((await agent.heartbeat()).body.commands).toEqual([]);

    // Results over the socket follow the HTTP rules (here: a failed dev_update).
    socket.send({ type: 'command_result', commandId: before.id, status: 'failed', error: 'bad checksum' });
    expect(await socket.next((m) => m.type === 'command_result_ack')).toEqual({
      type: 'command_result_ack',
      commandId: before.id,
      status: 'failed',
    });
    expect(db().prepare('SELECT status, error FROM device_commands WHERE id = ?').get(before.id)).toEqual({
      status: 'failed',
      error: 'bad checksum',
    });
    socket.send({ type: 'command_result', commandId: randomUUID(), status: 'completed' });
    expect(await socket.next((m) => m.type === 'error' && m.error === 'Command not found')).toBeTruthy();
    await socket.close();
  });

  it('answers malformed messages with an error and keeps the socket', async () => {
    const agent = await TestAgent.enroll(server, key);
    const socket = await agent.connect();
    socket.socket.send('not json');
    expect(await socket.next((m) => m.type === 'error')).toEqual({
      type: 'error',
      error: 'Messages must be JSON text',
    });
    socket.send({ type: 'command_result', commandId: 'x', status: 'maybe' });
    expect(
      await socket.next((m) => m.type === 'error' && String(m.error).startsWith('status:')),
    ).toBeTruthy();
    socket.send({ type: 'ping' });
    expect(await socket.next((m) => m.type === 'pong')).toEqual({ type: 'pong' });
    expect(hub().isConnected(agent.creds.deviceId)).toBe(true);
    // Past the 1 MB bound the socket is closed (1009: message too big).
    socket.send({
      type: 'command_result',
      commandId: 'x',
      status: 'completed',
      result: 'x'.repeat(1024 * 1024),
    });
    expect((await socket.closed).code).toBe(1009);
    await eventually(() => !hub().isConnected(agent.creds.deviceId));
  });

  it('round-trips live queries without storing them; failures, timeouts and offline devices are clear errors', async () => {
    const agent = await TestAgent.enroll(server, key);
    const { deviceId } = agent.creds;
    await expect(hub().request(deviceId, 'event_logs_list', {})).rejects.toMatchObject({
      status: 409,
      code: 'DEVICE_OFFLINE',
      message: 'Device is offline',
    });
    const socket = await agent.connect();
    socket.onCommand = (command) => {
      if (command.commandType === 'event_logs_list') {
        return { status: 'completed', result: { data: [{ name: 'Application', recordCount: 3 }] } };
      }
      if (command.commandType === 'event_log_info') {
        return { status: 'failed', error: `Log ${String(command.payload.logName)} not found` };
      }
      return undefined; // event_logs_query: silence
    };
    await expect(hub().request(deviceId, 'event_logs_list', {})).resolves.toEqual({
      data: [{ name: 'Application', recordCount: 3 }],
    });
    await expect(hub().request(deviceId, 'event_log_info', { logName: 'Nope' })).rejects.toMatchObject({
      status: 502,
      code: 'AGENT_ERROR',
      message: 'Log Nope not found',
    });
    const started = Date.now();
    await expect(
      hub().request(deviceId, 'event_logs_query', { logName: 'System', page: 1, limit: 50 }),
    ).rejects.toMatchObject({
      status: 504,
      code: 'LIVE_QUERY_TIMEOUT',
      message: 'The device did not answer within 30 seconds',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(LIVE_TIMEOUT_MS - 50);
    // Live queries never touch device_commands.
    expect(
      db().prepare('SELECT count(*) AS n FROM device_commands WHERE device_id = ?').get(deviceId),
    ).toEqual({ n: 0 });

    // The socket closing while a query waits fails it at once.
    socket.onCommand = null;
    const pending = expect(
      hub().request(deviceId, 'event_logs_query', { logName: 'System', page: 2, limit: 50 }),
    ).rejects.toMatchObject({
      status: 409,
      code: 'DEVICE_OFFLINE',
      message: 'The device disconnected before answering',
    });
    await socket.nextCommand('event_logs_query');
    await socket.close();
    await pending;
  });

  it('a newer socket replaces the older one', async () => {
    const agent = await TestAgent.enroll(server, key);
    const { deviceId } = agent.creds;
    const first = await agent.connect();
    await first.next((m) => m.type === 'connected');
    const offline: string[] = [];
    const off = server.context.bus.on('device.presence_changed', (m) => {
      for (const c of m.data.changes)
        if (c.deviceId === deviceId && c.status === 'offline') offline.push(c.status);
    });
    const second = await agent.connect();
    await second.next((m) => m.type === 'connected');
    expect(await first.closed).toEqual({ code: 4000, reason: 'replaced by a newer connection' });
    expect(hub().isConnected(deviceId)).toBe(true);
    const command = queueCommand(server.context, {
      deviceId,
      orgId,
      type: 'dev_update',
      payload: {},
      createdBy: null,
    });
    expect((await second.nextCommand('dev_update')).id).toBe(command.id);
    expect(first.messages.filter((m) => m.type === 'command')).toEqual([]);
    off();
    expect(offline).toEqual([]);
    expect(status(deviceId)).toBe('online');
    await second.close();
  });

  it('pings, and terminates a socket that misses two pongs', async () => {
    const agent = await TestAgent.enroll(server, key);
    const lively = await agent.connect();
    await eventually(() => lively.pings >= 3, 3000);
    expect(hub().isConnected(agent.creds.deviceId)).toBe(true);
    await lively.close();

    const deaf = await TestAgent.enroll(server, key);
    const silent = await deaf.connect({ autoPong: false });
    const closed = await Promise.race([
      silent.closed,
      new Promise<null>((resolve) => setTimeout(() => resolve(null), PING_MS * 10)),
    ]);
    expect(closed).not.toBeNull();
    expect(closed!.code).toBe(1006); // terminated, no closing handshake
    expect(silent.pings).toBeGreaterThanOrEqual(2);
    expect(hub().isConnected(deaf.creds.deviceId)).toBe(false);
  });
});

describe('presence', () => {
  interface ConsoleSocket {
    events: Array<{ event: string; data: { deviceId: string; status: string }; orgId: string }>;
    socket: WebSocket;
  }

  async function consoleFor(email: string, access: { orgAccess: 'all' | 'none' }, partner: string) {
    const roleId = (
      db().prepare("SELECT id FROM roles WHERE partner_id = ? AND name = 'Partner Admin'").get(partner) as {
        id: string;
      }
    ).id;
    await insertPartnerUser(server, partner, roleId, email, access);
    const token = await plainToken(server, email);
    const ticket = (await server.api.post('/ws/ticket', {}, token)).body.ticket as string;
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/v1/ws?ticket=${ticket}`);
    const live: ConsoleSocket = { events: [], socket };
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw));
      if (message.type !== 'event') return;
      // A presence batch is read as one `device.online` / `device.offline` per device it carries.
      if (message.event === 'device.presence_changed') {
        for (const change of message.data.changes)
          live.events.push({ event: `device.${change.status}`, data: change, orgId: message.orgId });
      } else if (String(message.event).startsWith('device.')) live.events.push(message);
    });
    await new Promise((resolve) => socket.on('open', resolve));
    return live;
  }

  it('turns devices online and offline and pushes it to consoles in scope only', async () => {
    const inScope = await consoleFor('tech@acme.test', { orgAccess: 'all' }, partnerId);
    const other = insertPartner(server, { name: 'Other MSP' }).partnerId;
    const outOfScope = await consoleFor('tech@other.test', { orgAccess: 'all' }, other);

    const agent = await TestAgent.enroll(server, key);
    const { deviceId } = agent.creds;
    const mine = (live: ConsoleSocket) =>
      live.events.filter((e) => e.data.deviceId === deviceId).map((e) => e.event);
    await eventually(() => mine(inScope).includes('device.enrolled'));

    // Socket open: online, and the presence job leaves it alone even with no heartbeat.
    const socket: AgentSocket = await agent.connect();
    db()
      .prepare('UPDATE devices SET last_seen_at = ? WHERE id = ?')
      .run(new Date(Date.now() - 60_000).toISOString(), deviceId);
    expect(sweepDevicePresence(server.context)).not.toContain(deviceId);
    expect(status(deviceId)).toBe('online');

    // Socket closes with the last heartbeat long ago (> 1.5 intervals): offline at once.
    await socket.close();
    await eventually(() => status(deviceId) === 'offline', 2000);
    await eventually(() => mine(inScope).includes('device.offline'));

    // A heartbeat brings it back...
    expect((await agent.heartbeat()).status).toBe(200);
    expect(status(deviceId)).toBe('online');
    await eventually(() => mine(inScope).includes('device.online'));
    // ...and with no socket and no further heartbeat the job turns it offline after 3 intervals.
    const wentOffline = Date.now();
    await eventually(() => status(deviceId) === 'offline', 12_000, 50);
    expect(Date.now() - wentOffline).toBeGreaterThanOrEqual(2000);
    await eventually(() => mine(inScope).filter((e) => e === 'device.offline').length === 2);

    expect(mine(inScope)).toEqual(['device.enrolled', 'device.offline', 'device.online', 'device.offline']);
    expect(inScope.events.find((e) => e.data.deviceId === deviceId)).toMatchObject({
      orgId,
      data: { deviceId, orgId, hostname: expect.any(String), siteId: null },
    });
    expect(mine(outOfScope)).toEqual([]);
    inScope.socket.close();
    outOfScope.socket.close();
  });
});
