// Over 400 lines: the device side's security review kept together (regular-expression bounds, push scoping, agent
// credentials, isolation), every part running against the same seeded tenants.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  eventually,
  mintEnrollmentKey,
  startAgentServer,
  TestAgent,
  type CommandMessage,
} from '../support/agent-client';
import {
  insertOrg,
  insertOrgUser,
  insertPartner,
  insertPartnerUser,
  insertSite,
  ROLES,
  signedToken,
} from '../support/seed';
import { ADMIN, type ApiResponse, type TestServer } from '../support/server';

// Security review of issue 4 (agents, devices, filters, logs): the problems found, each pinned by a test, and the
// isolation properties the review checked, kept as regressions. Tenants: Acme MSP (Contoso with sites North and
// South) and Other MSP (Initech).

let server: TestServer;
const ids = { acme: '', other: '', contoso: '', initech: '', north: '', south: '' };
const tok = { admin: '', acme: '', other: '', northTech: '', noDevices: '' };

const db = () => server.context.db;

beforeAll(async () => {
  server = await startAgentServer();
  const acme = insertPartner(server, { name: 'Acme MSP' });
  const other = insertPartner(server, { name: 'Other MSP' });
  ids.acme = acme.partnerId;
  ids.other = other.partnerId;
  ids.contoso = insertOrg(server, ids.acme, 'Contoso');
  ids.initech = insertOrg(server, ids.other, 'Initech');
  ids.north = insertSite(server, ids.contoso, 'North');
  ids.south = insertSite(server, ids.contoso, 'South');

  await insertPartnerUser(server, ids.acme, acme.adminRoleId, 'admin@acme.test', { orgAccess: 'all' });
  await insertPartnerUser(server, ids.other, other.adminRoleId, 'admin@other.test', { orgAccess: 'all' });
  const northTech = await insertOrgUser(server, ids.contoso, ROLES.orgTechnician, 'north@contoso.test');
  db()
    .prepare('UPDATE organization_users SET site_ids = ? WHERE user_id = ?')
    .run(JSON.stringify([ids.north]), northTech);
  // A partner role that may read the audit log but not devices.
  const auditor = randomUUID();
  const at = new Date().toISOString();
  db()
    .prepare(
      "INSERT INTO roles (id, partner_id, scope, name, created_at, updated_at) VALUES (?, ?, 'partner', 'Auditor', ?, ?)",
    )
    .run(auditor, ids.acme, at, at);
  db()
    .prepare("INSERT INTO role_permissions (role_id, resource, action) VALUES (?, 'audit', 'read')")
    .run(auditor);
  await insertPartnerUser(server, ids.acme, auditor, 'auditor@acme.test', { orgAccess: 'all' });

  tok.admin = await signedToken(server, ADMIN.email);
  tok.acme = await signedToken(server, 'admin@acme.test');
  tok.other = await signedToken(server, 'admin@other.test');
  tok.northTech = await signedToken(server, 'north@contoso.test');
  tok.noDevices = await signedToken(server, 'auditor@acme.test');
});

afterAll(async () => {
  await server?.dispose();
});

const preview = (conditions: unknown, token = tok.admin) =>
  server.api.request('POST', '/filters/preview', { token, body: { conditions } });
const matches = (field: string, value: string) => ({
  operator: 'AND',
  conditions: [{ field, operator: 'matches', value }],
});

describe('saved-filter regular expressions cannot stall the server', () => {
  beforeAll(async () => {
    const key = mintEnrollmentKey(server, ids.contoso).key;
    for (let i = 0; i < 8; i++) {
      const agent = await TestAgent.enroll(server, key, { hostname: `regex-${i}` });
      // The longest text a console user can store in a device (a custom field value).
      db()
        .prepare('UPDATE devices SET custom_fields = ? WHERE id = ?')
        .run(JSON.stringify({ notes: 'x'.repeat(1000) }), agent.creds.deviceId);
    }
  });

  it('refuses patterns whose backtracking grows polynomially or exponentially with the value', async () => {
    // Each of these takes seconds to years on one 255-character hostname: the whole server (every tenant) waits.
    for (const pattern of [
      '.*.*.*.*.*!', // five unbounded repetitions over the same characters: n^6
      '\\w+\\w+\\w+!',
      '(a|a?){12}b', // a counted repetition of an alternation: 2^n
      '(?:a?){25}a{25}',
      '(\\d+){2}x',
      '.{0,900}.{0,900}.{0,900}!',
    ]) {
      const res = await preview(matches('hostname', pattern));
      expect(res.status, pattern).toBe(400);
      expect(res.body.code, pattern).toBe('INVALID_FILTER');
      expect(res.body.error, pattern).toMatch(/^Invalid regular expression for hostname: /);
    }
    // Saving such a filter is refused too, so it cannot be stored and replayed.
    const saved = await server.api.request('POST', '/filters', {
      token: tok.acme,
      body: { name: 'slow', orgId: ids.contoso, conditions: matches('hostname', '.*.*.*.*.*!') },
    });
    expect(saved.status).toBe(400);
    expect(db().prepare("SELECT count(*) AS n FROM saved_filters WHERE name = 'slow'").get()).toEqual({
      n: 0,
    });

    // Ordinary patterns still work.
    for (const pattern of [
      '^regex-\\d+$',
      '^[a-z]+-\\d+$',
      '^[0-9A-F]{2}(:[0-9A-F]{2}){5}$',
      '(?i)^REGEX-[0-3]',
    ]) {
      const res = await preview(matches('hostname', pattern));
      expect(res.status, pattern).toBe(200);
    }
    expect((await preview(matches('hostname', '^regex-[0-3]$'))).body.data.totalCount).toBe(4);
  });

  it('stops a request whose allowed pattern still spends too long over many long values', async () => {
    // Two repetitions are allowed, but over 1000-character values each row costs about half a second.
    const started = Date.now();
    const res = await preview(matches('custom.notes', '\\w+\\w+!'));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'FILTER_TOO_EXPENSIVE' });
    expect(res.body.error).toMatch(/regular expression/i);
    expect(Date.now() - started).toBeLessThan(6000);
    // The server answers the next request at once.
    expect((await server.api.get('/health')).status).toBe(200);
  });
});

// ---- console pushes -------------------------------------------------------------------------------------------

interface ConsoleFeed {
  socket: WebSocket;
  devices: string[];
}

async function consoleFeed(token: string): Promise<ConsoleFeed> {
  const ticket = (await server.api.post('/ws/ticket', {}, token)).body.ticket as string;
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/v1/ws?ticket=${ticket}`);
  const feed: ConsoleFeed = { socket, devices: [] };
  socket.on('message', (raw) => {
    const message = JSON.parse(String(raw));
    if (message.type === 'event' && message.event === 'device.enrolled')
      feed.devices.push(`${message.event}:${message.data.hostname}`);
  });
  await new Promise((resolve) => socket.on('open', resolve));
  return feed;
}

describe('device events reach only the consoles that may see the device', () => {
  it('skips devices outside a restricted user’s sites and users without devices:read', async () => {
    const partnerAdmin = await consoleFeed(tok.acme);
    const northTech = await consoleFeed(tok.northTech);
    const auditor = await consoleFeed(tok.noDevices);
    try {
      await TestAgent.enroll(server, mintEnrollmentKey(server, ids.contoso, { siteId: ids.south }).key, {
        hostname: 'south-ws',
      });
      await TestAgent.enroll(server, mintEnrollmentKey(server, ids.contoso, { siteId: ids.north }).key, {
        hostname: 'north-ws',
      });
      await eventually(() => partnerAdmin.devices.includes('device.enrolled:north-ws'));
      await eventually(() => northTech.devices.includes('device.enrolled:north-ws'));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(partnerAdmin.devices).toEqual(['device.enrolled:south-ws', 'device.enrolled:north-ws']);
      // The site-restricted technician cannot list south-ws, so its hostname must not be pushed either.
      expect(northTech.devices).toEqual(['device.enrolled:north-ws']);
      expect(auditor.devices).toEqual([]);
    } finally {
      for (const feed of [partnerAdmin, northTech, auditor]) feed.socket.close();
    }
  });
});

// ---- agent credentials ----------------------------------------------------------------------------------------

describe('agent credentials end with their tenant', () => {
  it('severs agents for good when a partner is churned by hand, so reactivation does not revive them', async () => {
    const partner = insertPartner(server, { name: 'Churned MSP' }).partnerId;
    const org = insertOrg(server, partner, 'Churned Org');
    const agent = await TestAgent.enroll(server, mintEnrollmentKey(server, org).key);
    expect((await agent.heartbeat()).status).toBe(200);

    const patch = (status: string) =>
      server.api.request('PATCH', `/orgs/partners/${partner}`, { token: tok.admin, body: { status } });
    expect((await patch('churned')).status).toBe(200);
    expect((await agent.heartbeat()).status).toBe(401);
    expect((await patch('active')).status).toBe(200);

    const after = await agent.heartbeat();
    expect(after.status).toBe(401);
    expect(after.body.error).toBe('Invalid agent credentials');
    const row = db()
      .prepare('SELECT agent_token_hash FROM devices WHERE id = ?')
      .get(agent.creds.deviceId) as {
      agent_token_hash: string;
    };
    expect(row.agent_token_hash).toBe(`revoked:${agent.creds.deviceId}`);
  });

  it('closes the agent sockets of a deleted organization at once', async () => {
    const org = insertOrg(server, ids.acme, 'Short Lived');
    const agent = await TestAgent.enroll(server, mintEnrollmentKey(server, org).key);
    const socket = await agent.connect();
    const deleted = await server.api.request('DELETE', `/orgs/organizations/${org}`, { token: tok.acme });
    expect(deleted.status).toBe(200);
    // The hub's own check runs every 25 seconds; the deletion must not wait for it.
    const closed = await Promise.race([
      socket.closed,
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 2000)),
    ]);
    expect(closed?.code).toBe(4001);
    expect(server.context.agentHub.isConnected(agent.creds.deviceId)).toBe(false);
  });
});

// ---- regressions: what the review checked and found sound -------------------------------------------------------

describe('isolation regressions', () => {
  const foreign = { device: '', group: '', filter: '', command: '' };
  let ownGroup = '';
  let agentA: TestAgent;
  let agentB: TestAgent;

  beforeAll(async () => {
    agentA = await TestAgent.enroll(
      server,
      mintEnrollmentKey(server, ids.contoso, { siteId: ids.north }).key,
      {
        hostname: 'iso-a',
      },
    );
    agentB = await TestAgent.enroll(server, mintEnrollmentKey(server, ids.initech).key, {
      hostname: 'iso-b',
    });
    foreign.device = agentA.creds.deviceId;
    const group = await server.api.request('POST', '/groups', {
      token: tok.acme,
      body: { orgId: ids.contoso, name: 'Isolated' },
    });
    foreign.group = group.body.id;
    ownGroup = (
      await server.api.request('POST', '/groups', {
        token: tok.other,
        body: { orgId: ids.initech, name: 'Mine' },
      })
    ).body.id;
    const filter = await server.api.request('POST', '/filters', {
      token: tok.acme,
      body: { name: 'Isolated', orgId: ids.contoso, conditions: matches('hostname', '^iso') },
    });
    foreign.filter = filter.body.id;
    const command = await server.api.request('POST', `/devices/${foreign.device}/commands`, {
      token: tok.acme,
      body: { type: 'self_uninstall', payload: { removeConfig: false } },
    });
    foreign.command = command.body.id;
  });

  /** The answer for another tenant's id must equal the answer for an id that exists nowhere. */
  async function sameAsUnknown(
    method: string,
    path: (id: string) => string,
    kind: keyof typeof foreign,
    body?: (id: string) => unknown,
  ): Promise<void> {
    const unknown = randomUUID();
    const call = (id: string): Promise<ApiResponse> =>
      server.api.request(method, path(id), { token: tok.other, ...(body ? { body: body(id) } : {}) });
    const [theirs, nobodys] = [await call(foreign[kind]), await call(unknown)];
    expect(theirs.status, `${method} ${path(':id')}`).toBe(nobodys.status);
    expect(JSON.stringify(theirs.body).replaceAll(foreign[kind], 'ID')).toBe(
      JSON.stringify(nobodys.body).replaceAll(unknown, 'ID'),
    );
  }

  it('answers another tenant’s device, group and filter ids exactly like unknown ids', async () => {
    for (const [method, path, body] of [
      ['GET', (id: string) => `/devices/${id}`],
      ['PATCH', (id: string) => `/devices/${id}`, () => ({ displayName: 'x' })],
      ['DELETE', (id: string) => `/devices/${id}`],
      ['GET', (id: string) => `/devices/${id}/commands`],
      ['POST', (id: string) => `/devices/${id}/commands`, () => ({ type: 'self_uninstall' })],
      ['GET', (id: string) => `/devices/${id}/diagnostic-logs`],
      ['GET', (id: string) => `/devices/${id}/eventlogs`],
      ['GET', (id: string) => `/system-tools/devices/${id}/eventlogs`],
      ['GET', (id: string) => `/devices/${id}/eventlogs/System/events`],
      ['POST', () => `/groups/${ownGroup}/devices`, (id: string) => ({ deviceIds: [id] })],
    ] as const) {
      await sameAsUnknown(method, path, 'device', body);
    }
    for (const [method, path, body] of [
      ['GET', (id: string) => `/groups/${id}`],
      ['PATCH', (id: string) => `/groups/${id}`, () => ({ name: 'x' })],
      ['DELETE', (id: string) => `/groups/${id}`],
      ['GET', (id: string) => `/groups/${id}/devices`],
      ['GET', (id: string) => `/devices?groupId=${id}`],
    ] as const) {
      await sameAsUnknown(method, path, 'group', body);
    }
    for (const [method, path, body] of [
      ['GET', (id: string) => `/filters/${id}`],
      ['PATCH', (id: string) => `/filters/${id}`, () => ({ name: 'x' })],
      ['DELETE', (id: string) => `/filters/${id}`],
      ['POST', (id: string) => `/filters/${id}/preview`],
      ['GET', (id: string) => `/devices?filterId=${id}`],
    ] as const) {
      await sameAsUnknown(method, path, 'filter', body);
    }
    // Nothing of Contoso changed.
    expect((await server.api.get(`/devices/${foreign.device}`, tok.acme)).body.displayName).toBeNull();
    expect((await server.api.get(`/groups/${foreign.group}`, tok.acme)).status).toBe(200);
    expect((await server.api.get(`/filters/${foreign.filter}`, tok.acme)).status).toBe(200);
  });

  it('keeps every list, search and preview inside the caller’s tenant', async () => {
    const hostnames = (res: ApiResponse) =>
      (res.body.data as Array<{ hostname: string }>).map((d) => d.hostname);
    expect(hostnames(await server.api.get('/devices?limit=1000', tok.other))).toEqual(['iso-b']);
    const everything = { operator: 'OR', conditions: [{ field: 'hostname', operator: 'isNotNull' }] };
    expect((await preview(everything, tok.other)).body.data.totalCount).toBe(1);
    const search = await server.api.get('/search?q=iso', tok.other);
    expect(search.body.results.map((r: { title: string }) => r.title)).toEqual(['iso-b']);
    expect((await server.api.get('/tags', tok.other)).body.data).toEqual([]);
    expect(
      (await server.api.get('/groups', tok.other)).body.data.map((g: { name: string }) => g.name),
    ).toEqual(['Mine']);
    expect((await server.api.get('/filters', tok.other)).body.data).toEqual([]);
    // A filter naming Contoso's organization, group or device finds nothing for Other MSP.
    for (const condition of [
      { field: 'orgId', operator: 'equals', value: ids.contoso },
      { field: 'groupId', operator: 'equals', value: foreign.group },
    ]) {
      expect(
        (await preview({ operator: 'AND', conditions: [condition] }, tok.other)).body.data.totalCount,
      ).toBe(0);
    }
  });

  it('lets an agent act for its own device only', async () => {
    // B's credential on A's path, and A's command answered with B's credential.
    expect((await agentA.heartbeat({}, agentB.creds.authToken)).status).toBe(401);
    const viaHttp = await agentB.result(foreign.command, { status: 'completed' });
    expect(viaHttp.status).toBe(404);
    expect(viaHttp.body.error).toBe('Command not found');

    // Over B's socket: a result for A's stored command and for A's live query are both refused.
    const socketA = await agentA.connect();
    const socketB = await agentB.connect();
    let liveId = '';
    socketA.onCommand = (command: CommandMessage) => {
      if (command.commandType === 'event_logs_list') liveId = command.id;
      return undefined;
    };
    try {
      socketB.send({ type: 'command_result', commandId: foreign.command, status: 'completed' });
      expect(await socketB.next((m) => m.type === 'error' && m.commandId === foreign.command)).toMatchObject({
        error: 'Command not found',
      });

      const live = server.api.get(`/system-tools/devices/${foreign.device}/eventlogs`, tok.acme);
      await eventually(() => liveId);
      socketB.send({ type: 'command_result', commandId: liveId, status: 'completed', result: [] });
      await socketB.next((m) => m.type === 'error' && m.commandId === liveId);
      socketA.send({
        type: 'command_result',
        commandId: liveId,
        status: 'completed',
        result: [
          {
            name: 'System',
            displayName: 'System',
            recordCount: 1,
            maxSize: 1,
            retentionDays: 0,
            lastWriteTime: null,
          },
        ],
      });
      const answered = await live;
      expect(answered.status).toBe(200);
      expect(answered.body.data.map((l: { name: string }) => l.name)).toEqual(['System']);
    } finally {
      await socketA.close();
      await socketB.close();
    }
    const stored = db().prepare('SELECT status FROM device_commands WHERE id = ?').get(foreign.command);
    expect(stored).toMatchObject({ status: expect.stringMatching(/^(pending|sent)$/) });
  });
});
