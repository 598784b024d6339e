import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventually,
  mintEnrollmentKey,
  startAgentServer,
  TestAgent,
  type AgentSocket,
  type CommandMessage,
} from '../support/agent-client';
import {
  insertApiKey,
  insertOrg,
  insertOrgUser,
  insertPartner,
  insertPartnerUser,
  insertSite,
  ROLES,
  signedToken,
} from '../support/seed';
import { auditSettled, type ApiResponse, type TestServer } from '../support/server';

// Live event-log queries (spec 2; DESIGN §3): the console asks, the server sends event_logs_* commands over the
// agent's socket and relays the validated answer. A raw protocol agent (test/support/agent-client.ts) plays the
// device. The live-query timeout is shortened to 400 ms so the 504 path runs quickly.

let server: TestServer;
let agent: TestAgent;
let socket: AgentSocket;
/** How the test agent answers the next commands: set per test. */
let answer: (command: CommandMessage) => Record<string, unknown> | undefined;
const received: CommandMessage[] = [];

const ids = { a1: '', b1: '', s1: '', s2: '', device: '', foreign: '' };
const tok = { admin: '', readOnly: '', siteTwo: '', partnerNone: '' };
const keys = { a1: '', b1: '' };

const descriptor = (name: string) => ({
  name,
  displayName: `${name} log`,
  recordCount: 1234,
  maxSize: 20_971_520,
  retentionDays: 0,
  lastWriteTime: '2026-03-01T12:00:00.000Z',
});

const entry = (recordId: number, extra: Record<string, unknown> = {}) => ({
  recordId,
  timeCreated: '2026-03-01T11:59:00.000Z',
  level: 'error',
  source: 'Application Error',
  eventId: 1000,
  message: `Faulting application ${recordId}`,
  category: '(100)',
  user: null,
  computer: 'WS-0042',
  rawXml: `<Event><System><EventRecordID>${recordId}</EventRecordID></System></Event>`,
  ...extra,
});

const completed = (result: unknown) => ({ status: 'completed', result });

const get = (path: string, token = tok.admin) => server.api.get(path, token);

function expectError(res: ApiResponse, status: number, error: string, code?: string) {
  expect({ status: res.status, error: res.body?.error }).toEqual({ status, error });
  if (code) expect(res.body.code).toBe(code);
}

beforeAll(async () => {
  server = await startAgentServer({ agentTimings: { liveQueryTimeoutMs: 400 } });
  const p1 = insertPartner(server, { name: 'Northwind MSP' });
  const p2 = insertPartner(server, { name: 'Fabrikam MSP' });
  ids.a1 = insertOrg(server, p1.partnerId, 'Alpha One');
  ids.b1 = insertOrg(server, p2.partnerId, 'Bravo One');
  ids.s1 = insertSite(server, ids.a1, 'HQ');
  ids.s2 = insertSite(server, ids.a1, 'Branch');
  await insertOrgUser(server, ids.a1, ROLES.orgAdmin, 'admin@a1.test');
  await insertOrgUser(server, ids.a1, ROLES.orgReadOnly, 'ro@a1.test');
  const siteTwo = await insertOrgUser(server, ids.a1, ROLES.orgTechnician, 'branch@a1.test');
  server.context.db
    .prepare('UPDATE organization_users SET site_ids = ? WHERE user_id = ?')
    .run(JSON.stringify([ids.s2]), siteTwo);
  await insertPartnerUser(server, p1.partnerId, p1.adminRoleId, 'none@p1.test', { orgAccess: 'none' });
  tok.admin = await signedToken(server, 'admin@a1.test');
  tok.readOnly = await signedToken(server, 'ro@a1.test', false);
  tok.siteTwo = await signedToken(server, 'branch@a1.test');
  tok.partnerNone = await signedToken(server, 'none@p1.test');
  keys.a1 = insertApiKey(server, ids.a1, ['devices:read']).key;
  keys.b1 = insertApiKey(server, ids.b1).key;

  agent = await TestAgent.enroll(server, mintEnrollmentKey(server, ids.a1, { siteId: ids.s1 }).key);
  ids.device = agent.creds.deviceId;
  socket = await agent.connect();
  await socket.next((m) => m.type === 'connected');
  socket.onCommand = (command) => {
    received.push(command);
    return answer(command);
  };
});

afterAll(async () => {
  await socket?.close();
  await server?.dispose();
});

const live = (sub: string, prefix = '/system-tools/devices') => `${prefix}/${ids.device}${sub}`;

describe('round trip through the agent socket', () => {
  it('lists the event logs (only under /system-tools; /devices/:id/eventlogs is the stored query)', async () => {
    answer = () => completed([descriptor('Application'), descriptor('System')]);
    received.length = 0;
    const res = await get(live('/eventlogs'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [descriptor('Application'), descriptor('System')] });
    expect(received).toEqual([
      { type: 'command', id: expect.any(String), commandType: 'event_logs_list', payload: {} },
    ]);

    received.length = 0;
    const stored = await get(live('/eventlogs', '/devices'));
    expect(stored.status).toBe(200);
    expect(stored.body).toEqual({ data: [], pagination: { page: 1, limit: 100, total: 0 } });
    expect(received).toEqual([]);
  });

  it('reads one log by name under both prefixes, the name passed as given (the agent matches case)', async () => {
    answer = (c) => completed({ log: descriptor(String(c.payload.logName)) });
    for (const prefix of ['/system-tools/devices', '/devices']) {
      received.length = 0;
      const res = await get(live('/eventlogs/application', prefix));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: descriptor('application') });
      expect(received.map((c) => [c.commandType, c.payload])).toEqual([
        ['event_log_info', { logName: 'application' }],
      ]);
    }
    // A name with a slash travels encoded in the path and arrives whole.
    received.length = 0;
    const sysmon = 'Microsoft-Windows-Sysmon/Operational';
    expect((await get(live(`/eventlogs/${encodeURIComponent(sysmon)}`))).body.data.name).toBe(sysmon);
    expect(received[0]?.payload).toEqual({ logName: sysmon });

    answer = () => completed(null);
    expectError(await get(live('/eventlogs/NoSuchLog')), 404, 'Event log not found');
  });

  it('queries events with every filter forwarded and the page size capped at 500', async () => {
    answer = (c) => completed({ events: [entry(41), entry(40)], total: 42, page: c.payload.page });
    received.length = 0;
    const query =
      'page=2&limit=600&level=error&source=Application%20Error&eventId=1000' +
      '&startTime=2026-03-01T10:00:00Z&endTime=2026-03-01T13:00:00%2B01:00';
    const res = await get(live(`/eventlogs/Application/events?${query}`, '/devices'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [entry(41), entry(40)],
      pagination: { page: 2, limit: 500, total: 42 },
    });
    expect(received.map((c) => [c.commandType, c.payload])).toEqual([
      [
        'event_logs_query',
        {
          logName: 'Application',
          page: 2,
          limit: 500,
          level: 'error',
          source: 'Application Error',
          eventId: 1000,
          startTime: '2026-03-01T10:00:00.000Z',
          endTime: '2026-03-01T12:00:00.000Z',
        },
      ],
    ]);

    // Defaults, and the answer in the HTTP shape; an agent that ignores `limit` is trimmed to it.
    answer = () =>
      completed({
        data: Array.from({ length: 60 }, (_, i) => entry(i)),
        pagination: { page: 1, limit: 60, total: 60 },
      });
    received.length = 0;
    const defaults = await get(live('/eventlogs/System/events'));
    expect(defaults.body.data).toHaveLength(50);
    expect(defaults.body.pagination).toEqual({ page: 1, limit: 50, total: 60 });
    expect(received[0]?.payload).toEqual({ logName: 'System', page: 1, limit: 50 });

    answer = () => completed(null);
    expectError(await get(live('/eventlogs/Nope/events')), 404, 'Event log not found');
  });

  it('reads one event by record id; a missing record is 404; unknown fields are not passed on', async () => {
    answer = (c) => completed(entry(Number(c.payload.recordId), { secretOfTheAgent: 'x' }));
    received.length = 0;
    const res = await get(live('/eventlogs/Application/events/77'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: entry(77) });
    expect(received.map((c) => [c.commandType, c.payload])).toEqual([
      ['event_log_get', { logName: 'Application', recordId: 77 }],
    ]);
    answer = () => completed({ event: null });
    expectError(await get(live('/eventlogs/Application/events/78', '/devices')), 404, 'Event not found');
  });

  it('is not stored and not audited', async () => {
    answer = () => completed([descriptor('Application')]);
    const commandsBefore = server.context.db.prepare('SELECT COUNT(*) AS n FROM device_commands').get();
    await get(live('/eventlogs'));
    await auditSettled(server);
    expect(server.context.db.prepare('SELECT COUNT(*) AS n FROM device_commands').get()).toEqual(
      commandsBefore,
    );
    const actions = server.context.db
      .prepare('SELECT DISTINCT action FROM audit_logs WHERE resource_id = ?')
      .all(ids.device) as Array<{ action: string }>;
    expect(actions.every((a) => !a.action.includes('eventlog'))).toBe(true);
  });
});

describe('failures', () => {
  it('relays an agent error as 502 AGENT_ERROR', async () => {
    answer = () => ({ status: 'failed', error: 'Access is denied to the Security log' });
    expectError(
      await get(live('/eventlogs/Security')),
      502,
      'Access is denied to the Security log',
      'AGENT_ERROR',
    );
  });

  it('turns a malformed answer into 502 AGENT_ERROR, never a 5xx of ours or a pass-through', async () => {
    const bad: Array<[string, unknown]> = [
      ['/eventlogs', [{ ...descriptor('Application'), recordCount: 'many' }]],
      ['/eventlogs', 'not a list'],
      ['/eventlogs/Application', { name: 'Application' }],
      ['/eventlogs/Application/events', { events: [entry(1, { level: 'loud' })], total: 1 }],
      ['/eventlogs/Application/events', [entry(1)]],
      ['/eventlogs/Application/events/1', { ...entry(1), recordId: -1 }],
    ];
    for (const [sub, result] of bad) {
      answer = () => completed(result);
      const res = await get(live(sub));
      expect({ sub, status: res.status, code: res.body.code }).toEqual({
        sub,
        status: 502,
        code: 'AGENT_ERROR',
      });
      expect(res.body.error).toMatch(/^The agent sent a malformed answer/);
    }
  });

  it('answers 504 LIVE_QUERY_TIMEOUT when the agent stays silent', async () => {
    answer = () => undefined;
    const started = Date.now();
    expectError(
      await get(live('/eventlogs/Application/events')),
      504,
      'The device did not answer within 30 seconds',
      'LIVE_QUERY_TIMEOUT',
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
  });

  it('refuses bad input before asking the agent', async () => {
    received.length = 0;
    expectError(
      await get(live('/eventlogs/Application/events/abc')),
      400,
      'recordId: recordId must be a non-negative integer',
    );
    expectError(
      await get(live('/eventlogs/Application/events?level=fatal')),
      400,
      'level: level must be one of information, warning, error, critical, verbose',
    );
    expectError(
      await get(live('/eventlogs/Application/events?startTime=today')),
      400,
      'startTime: startTime must be an ISO 8601 date-time, e.g. 2026-01-31T09:00:00Z',
    );
    expectError(
      await get(live('/eventlogs/Application/events?eventId=x')),
      400,
      'eventId: eventId must be a non-negative integer',
    );
    expect(received).toEqual([]);
  });
});

describe('scope and presence', () => {
  it('answers 404 outside the caller’s scope even when the device is online; read-only callers may look', async () => {
    answer = () => completed([descriptor('Application')]);
    expect((await get(live('/eventlogs'), tok.readOnly)).status).toBe(200);
    const withKey = (key: string) =>
      server.api.request('GET', live('/eventlogs'), { headers: { 'x-api-key': key } });
    expect((await withKey(keys.a1)).status).toBe(200);
    expectError(await withKey(keys.b1), 404, 'Device not found');
    expectError(await get(live('/eventlogs'), tok.partnerNone), 404, 'Device not found');
    expectError(await get(live('/eventlogs/Application/events'), tok.siteTwo), 404, 'Device not found');

    // Another organization's device, online with its own socket, is just as unknown.
    const foreign = await TestAgent.enroll(server, mintEnrollmentKey(server, ids.b1).key);
    const foreignSocket = await foreign.connect();
    await foreignSocket.next((m) => m.type === 'connected');
    foreignSocket.onCommand = () => completed([descriptor('Application')]);
    expectError(
      await get(`/system-tools/devices/${foreign.creds.deviceId}/eventlogs`),
      404,
      'Device not found',
    );
    const theirs = await server.api.request(
      'GET',
      `/system-tools/devices/${foreign.creds.deviceId}/eventlogs`,
      {
        headers: { 'x-api-key': keys.b1 },
      },
    );
    expect(theirs.status).toBe(200);
    await foreignSocket.close();
  });

  it('answers 409 DEVICE_OFFLINE when the agent holds no socket, and works again once it reconnects', async () => {
    await socket.close();
    await eventually(() => !server.context.agentHub.isConnected(ids.device));
    expectError(await get(live('/eventlogs')), 409, 'Device is offline', 'DEVICE_OFFLINE');
    expectError(
      await get(live('/eventlogs/Application/events/1', '/devices')),
      409,
      'Device is offline',
      'DEVICE_OFFLINE',
    );

    socket = await agent.connect();
    await socket.next((m) => m.type === 'connected');
    socket.onCommand = (command) => answer(command);
    answer = () => completed([descriptor('Setup')]);
    expect((await get(live('/eventlogs'))).body).toEqual({ data: [descriptor('Setup')] });
  });
});
