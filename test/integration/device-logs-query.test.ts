import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintEnrollmentKey, TestAgent } from '../support/agent-client';
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
import { startServer, type ApiResponse, type TestServer } from '../support/server';

// Stored device logs (spec 2, Agent and device logs): GET /devices/:id/diagnostic-logs (level list, component,
// since/until, search, newest first, limit 1000) and GET /devices/:id/eventlogs (category, level, source, dates,
// limit 500). Rows are written straight into SQLite so every filter can be checked against known data; one test
// goes through the agent's own submission endpoints to prove the two sides agree.

let server: TestServer;
const ids = { p1: '', a1: '', a2: '', b1: '', s1: '', s2: '', device: '', other: '', siteTwo: '' };
const tok = { admin: '', readOnly: '', partnerNone: '', partnerSelected: '', siteTech: '' };
const keys = { a1: '', b1: '' };

const base = Date.parse('2026-03-01T12:00:00.000Z');
const at = (minutes: number) => new Date(base + minutes * 60_000).toISOString();

function insertDevice(orgId: string, siteId: string | null): string {
  const id = randomUUID();
  const now = new Date().toISOString();
  server.context.db
    .prepare(
      `INSERT INTO devices (id, org_id, site_id, agent_id, agent_token_hash, hostname, os_type, os_version,
         architecture, agent_version, enrolled_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 'windows', 'Windows 11', 'x64', '1.0.0', ?, ?, ?)`,
    )
    .run(id, orgId, siteId, randomUUID(), randomUUID(), `logs-${id.slice(0, 8)}`, now, now, now);
  return id;
}

function insertDiagnostic(
  deviceId: string,
  orgId: string,
  e: { minutes: number; level: string; component: string; message: string; fields?: object },
): void {
  server.context.db
    .prepare(
      `INSERT INTO diagnostic_logs (id, device_id, org_id, timestamp, level, component, message, fields,
         agent_version, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, '1.0.0', ?)`,
    )
    .run(
      randomUUID(),
      deviceId,
      orgId,
      at(e.minutes),
      e.level,
      e.component,
      e.message,
      JSON.stringify(e.fields ?? {}),
      new Date().toISOString(),
    );
}

function insertEvent(
  deviceId: string,
  orgId: string,
  e: {
    minutes: number;
    level: string;
    category: string;
    source: string;
    eventId: string | null;
    message: string;
  },
): void {
  server.context.db
    .prepare(
      `INSERT INTO device_event_logs (id, device_id, org_id, timestamp, level, category, source, event_id,
         message, details, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '{"k":1}', ?)`,
    )
    .run(
      randomUUID(),
      deviceId,
      orgId,
      at(e.minutes),
      e.level,
      e.category,
      e.source,
      e.eventId,
      e.message,
      new Date().toISOString(),
    );
}

const get = (path: string, token = tok.admin) => server.api.get(path, token);
const getWithKey = (path: string, key: string) =>
  server.api.request('GET', path, { headers: { 'x-api-key': key } });

function expectError(res: ApiResponse, status: number, error: string) {
  expect({ status: res.status, error: res.body?.error }).toEqual({ status, error });
}

const messages = (res: ApiResponse) => (res.body.data as Array<{ message: string }>).map((e) => e.message);

beforeAll(async () => {
  server = await startServer();
  const p1 = insertPartner(server, { name: 'Northwind MSP' });
  const p2 = insertPartner(server, { name: 'Fabrikam MSP' });
  ids.p1 = p1.partnerId;
  ids.a1 = insertOrg(server, ids.p1, 'Alpha One');
  ids.a2 = insertOrg(server, ids.p1, 'Alpha Two');
  ids.b1 = insertOrg(server, p2.partnerId, 'Bravo One');
  ids.s1 = insertSite(server, ids.a1, 'HQ');
  ids.s2 = insertSite(server, ids.a1, 'Branch');
  ids.device = insertDevice(ids.a1, ids.s1);
  ids.siteTwo = insertDevice(ids.a1, ids.s2);
  ids.other = insertDevice(ids.a2, null);

  await insertOrgUser(server, ids.a1, ROLES.orgAdmin, 'admin@a1.test');
  await insertOrgUser(server, ids.a1, ROLES.orgReadOnly, 'ro@a1.test');
  const siteTech = await insertOrgUser(server, ids.a1, ROLES.orgTechnician, 'site@a1.test');
  server.context.db
    .prepare('UPDATE organization_users SET site_ids = ? WHERE user_id = ?')
    .run(JSON.stringify([ids.s1]), siteTech);
  await insertPartnerUser(server, ids.p1, p1.adminRoleId, 'none@p1.test', { orgAccess: 'none' });
  await insertPartnerUser(server, ids.p1, p1.adminRoleId, 'sel@p1.test', {
    orgAccess: 'selected',
    orgIds: [ids.a2],
  });
  tok.admin = await signedToken(server, 'admin@a1.test');
  tok.readOnly = await signedToken(server, 'ro@a1.test', false);
  tok.siteTech = await signedToken(server, 'site@a1.test');
  tok.partnerNone = await signedToken(server, 'none@p1.test');
  tok.partnerSelected = await signedToken(server, 'sel@p1.test');
  keys.a1 = insertApiKey(server, ids.a1, ['devices:read']).key;
  keys.b1 = insertApiKey(server, ids.b1).key;

  const d = (minutes: number, level: string, component: string, message: string) =>
    insertDiagnostic(ids.device, ids.a1, { minutes, level, component, message, fields: { n: minutes } });
  d(0, 'info', 'heartbeat', 'heartbeat sent');
  d(1, 'debug', 'heartbeat', 'payload 512 bytes');
  d(2, 'warn', 'updater', 'checksum mismatch, keeping 1.0.0');
  d(3, 'error', 'updater', 'download failed: 100% of retries_used');
  d(4, 'info', 'eventlog', 'collected 12 events');
  d(5, 'error', 'websocket', 'connection reset');
  insertDiagnostic(ids.other, ids.a2, {
    minutes: 3,
    level: 'error',
    component: 'updater',
    message: 'other device',
  });

  const e = (
    minutes: number,
    level: string,
    category: string,
    source: string,
    eventId: string | null,
    message: string,
  ) => insertEvent(ids.device, ids.a1, { minutes, level, category, source, eventId, message });
  e(0, 'info', 'system', 'Service Control Manager', '7036', 'service entered the running state');
  e(1, 'warning', 'application', 'Application Error', '1000', 'faulting application');
  e(2, 'error', 'system', 'disk', '7', 'bad block');
  e(3, 'critical', 'security', 'Microsoft-Windows-Security-Auditing', '4625', 'logon failure');
  e(4, 'info', 'hardware', 'disk', '153', 'retried IO');
  e(5, 'error', 'application', 'Application Error', '1001', 'crash report');
});

afterAll(async () => {
  await server?.dispose();
});

describe('GET /devices/:id/diagnostic-logs', () => {
  it('returns the entries newest first with total and the stored shape', async () => {
    const res = await get(`/devices/${ids.device}/diagnostic-logs`);
    expect(res.status).toBe(200);
    expect(messages(res)).toEqual([
      'connection reset',
      'collected 12 events',
      'download failed: 100% of retries_used',
      'checksum mismatch, keeping 1.0.0',
      'payload 512 bytes',
      'heartbeat sent',
    ]);
    expect(res.body.pagination).toEqual({ page: 1, limit: 100, total: 6 });
    expect(res.body.data[0]).toEqual({
      id: expect.any(String),
      deviceId: ids.device,
      orgId: ids.a1,
      timestamp: at(5),
      level: 'error',
      component: 'websocket',
      message: 'connection reset',
      fields: { n: 5 },
      agentVersion: '1.0.0',
      createdAt: expect.any(String),
    });
  });

  it('filters by a level list, an exact component, a time window and a message substring', async () => {
    const path = `/devices/${ids.device}/diagnostic-logs`;
    expect(messages(await get(`${path}?level=error,warn`))).toEqual([
      'connection reset',
      'download failed: 100% of retries_used',
      'checksum mismatch, keeping 1.0.0',
    ]);
    expect(messages(await get(`${path}?level=debug`))).toEqual(['payload 512 bytes']);
    expect(messages(await get(`${path}?component=updater`))).toHaveLength(2);
    expect(messages(await get(`${path}?component=Updater`))).toEqual([]);
    expect(messages(await get(`${path}?component=update`))).toEqual([]);
    expect(messages(await get(`${path}?since=${at(2)}&until=${at(4)}`))).toEqual([
      'collected 12 events',
      'download failed: 100% of retries_used',
      'checksum mismatch, keeping 1.0.0',
    ]);
    // Offsets are understood: 13:03+01:00 is 12:03Z.
    expect(
      messages(await get(`${path}?since=${encodeURIComponent('2026-03-01T13:03:00+01:00')}`)),
    ).toHaveLength(3);
    expect(messages(await get(`${path}?search=CHECKSUM`))).toEqual(['checksum mismatch, keeping 1.0.0']);
    // % and _ are literal characters, not wildcards.
    expect(messages(await get(`${path}?search=${encodeURIComponent('100%')}`))).toEqual([
      'download failed: 100% of retries_used',
    ]);
    expect(messages(await get(`${path}?search=s_u`))).toEqual(['download failed: 100% of retries_used']);
    expect(messages(await get(`${path}?level=error&component=updater&search=download`))).toHaveLength(1);
  });

  it('pages with at most 1000 entries', async () => {
    const busy = insertDevice(ids.a1, ids.s1);
    server.context.db.transaction(() => {
      for (let i = 0; i < 1100; i++) {
        insertDiagnostic(busy, ids.a1, { minutes: i, level: 'info', component: 'c', message: `line ${i}` });
      }
    })();
    const capped = await get(`/devices/${busy}/diagnostic-logs?limit=5000`);
    expect(capped.body.data).toHaveLength(1000);
    expect(capped.body.pagination).toEqual({ page: 1, limit: 1000, total: 1100 });
    expect(capped.body.data[0].message).toBe('line 1099');
    const second = await get(`/devices/${busy}/diagnostic-logs?limit=1000&page=2`);
    expect(messages(second)).toEqual(Array.from({ length: 100 }, (_, i) => `line ${99 - i}`));
    expect((await get(`/devices/${busy}/diagnostic-logs?limit=10&page=3`)).body.data[0].message).toBe(
      'line 1079',
    );
  });

  it('refuses bad levels, dates and inverted windows with clear messages', async () => {
    const path = `/devices/${ids.device}/diagnostic-logs`;
    expectError(
      await get(`${path}?level=info,fatal`),
      400,
      'level: level must be a comma-separated list of debug, info, warn, error',
    );
    expectError(
      await get(`${path}?since=yesterday`),
      400,
      'since: since must be an ISO 8601 date-time, e.g. 2026-01-31T09:00:00Z',
    );
    expectError(
      await get(`${path}?until=2026-03-01`),
      400,
      'until: until must be an ISO 8601 date-time, e.g. 2026-01-31T09:00:00Z',
    );
    expectError(
      await get(`${path}?since=${at(5)}&until=${at(1)}`),
      400,
      'since: since must not be after until',
    );
  });
});

describe('GET /devices/:id/eventlogs (stored)', () => {
  const path = () => `/devices/${ids.device}/eventlogs`;

  it('returns the events newest first in the stored shape', async () => {
    const res = await get(path());
    expect(res.status).toBe(200);
    expect(messages(res)).toEqual([
      'crash report',
      'retried IO',
      'logon failure',
      'bad block',
      'faulting application',
      'service entered the running state',
    ]);
    expect(res.body.pagination).toEqual({ page: 1, limit: 100, total: 6 });
    expect(res.body.data[2]).toEqual({
      id: expect.any(String),
      deviceId: ids.device,
      orgId: ids.a1,
      timestamp: at(3),
      level: 'critical',
      category: 'security',
      source: 'Microsoft-Windows-Security-Auditing',
      eventId: '4625',
      message: 'logon failure',
      details: { k: 1 },
      createdAt: expect.any(String),
    });
  });

  it('filters by category, level, exact source and dates', async () => {
    expect(messages(await get(`${path()}?category=application`))).toEqual([
      'crash report',
      'faulting application',
    ]);
    expect(messages(await get(`${path()}?category=security,hardware`))).toEqual([
      'retried IO',
      'logon failure',
    ]);
    expect(messages(await get(`${path()}?level=error,critical`))).toEqual([
      'crash report',
      'logon failure',
      'bad block',
    ]);
    expect(messages(await get(`${path()}?source=disk`))).toEqual(['retried IO', 'bad block']);
    expect(messages(await get(`${path()}?source=Disk`))).toEqual([]);
    expect(messages(await get(`${path()}?source=Application`))).toEqual([]);
    expect(messages(await get(`${path()}?startDate=${at(1)}&endDate=${at(3)}`))).toEqual([
      'logon failure',
      'bad block',
      'faulting application',
    ]);
    expect(
      messages(await get(`${path()}?category=system&level=error&source=disk&startDate=${at(0)}`)),
    ).toEqual(['bad block']);
  });

  it('pages with at most 500 events and refuses bad input', async () => {
    const busy = insertDevice(ids.a1, ids.s1);
    server.context.db.transaction(() => {
      for (let i = 0; i < 520; i++) {
        insertEvent(busy, ids.a1, {
          minutes: i,
          level: 'info',
          category: 'system',
          source: 's',
          eventId: String(i),
          message: `e${i}`,
        });
      }
    })();
    const capped = await get(`/devices/${busy}/eventlogs?limit=1000`);
    expect(capped.body.data).toHaveLength(500);
    expect(capped.body.pagination).toEqual({ page: 1, limit: 500, total: 520 });
    expect(messages(await get(`/devices/${busy}/eventlogs?limit=500&page=2`))).toEqual(
      Array.from({ length: 20 }, (_, i) => `e${19 - i}`),
    );
    expectError(
      await get(`${path()}?level=warn`),
      400,
      'level: level must be a comma-separated list of info, warning, error, critical',
    );
    expectError(
      await get(`${path()}?category=network`),
      400,
      'category: category must be a comma-separated list of security, hardware, application, system',
    );
    expectError(
      await get(`${path()}?startDate=soon`),
      400,
      'startDate: startDate must be an ISO 8601 date-time, e.g. 2026-01-31T09:00:00Z',
    );
    expectError(
      await get(`${path()}?startDate=${at(3)}&endDate=${at(1)}`),
      400,
      'startDate: startDate must not be after endDate',
    );
  });
});

describe('scope', () => {
  it('answers 404 for devices outside the caller’s organizations or sites, 200 inside', async () => {
    for (const p of ['diagnostic-logs', 'eventlogs']) {
      expect((await get(`/devices/${ids.device}/${p}`, tok.readOnly)).status).toBe(200);
      expect((await get(`/devices/${ids.device}/${p}`, tok.siteTech)).status).toBe(200);
      expectError(await get(`/devices/${ids.siteTwo}/${p}`, tok.siteTech), 404, 'Device not found');
      expectError(await get(`/devices/${ids.other}/${p}`), 404, 'Device not found');
      expectError(await get(`/devices/${ids.device}/${p}`, tok.partnerNone), 404, 'Device not found');
      expectError(await get(`/devices/${ids.device}/${p}`, tok.partnerSelected), 404, 'Device not found');
      expect((await get(`/devices/${ids.other}/${p}`, tok.partnerSelected)).status).toBe(200);
      expect((await getWithKey(`/devices/${ids.device}/${p}`, keys.a1)).status).toBe(200);
      expectError(await getWithKey(`/devices/${ids.device}/${p}`, keys.b1), 404, 'Device not found');
      expectError(await get(`/devices/${randomUUID()}/${p}`), 404, 'Device not found');
    }
    // Another device's entries never leak into this device's answer.
    const own = await get(`/devices/${ids.device}/diagnostic-logs?search=other`);
    expect(own.body.data).toEqual([]);
  });
});

describe('through the agent’s own submission', () => {
  it('what an agent submits is what the console reads back, duplicates of an event ignored', async () => {
    const { key } = mintEnrollmentKey(server, ids.a1, { siteId: ids.s1 });
    const agent = await TestAgent.enroll(server, key);
    const logs = await agent.logs([
      { timestamp: '2026-03-02T08:00:00.000Z', level: 'info', component: 'main', message: 'started' },
      {
        timestamp: '2026-03-02T08:00:01.000Z',
        level: 'error',
        component: 'main',
        message: 'failed once',
        fields: { code: 7 },
      },
    ]);
    expect(logs.status).toBe(201);
    const event = {
      timestamp: '2026-03-02T08:05:00.000Z',
      level: 'error',
      category: 'system',
      source: 'kernel',
      eventId: 41,
      message: 'unexpected shutdown',
    };
    expect((await agent.eventlogs([event, event])).status).toBe(200);
    const diag = await get(`/devices/${agent.creds.deviceId}/diagnostic-logs?level=error`);
    expect(diag.body.data).toEqual([
      expect.objectContaining({
        message: 'failed once',
        fields: { code: 7 },
        timestamp: '2026-03-02T08:00:01.000Z',
      }),
    ]);
    const events = await get(`/devices/${agent.creds.deviceId}/eventlogs?source=kernel`);
    expect(events.body.data).toEqual([
      expect.objectContaining({ eventId: '41', message: 'unexpected shutdown' }),
    ]);
    expect(events.body.pagination.total).toBe(1);
  });
});
