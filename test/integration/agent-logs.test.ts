import { randomUUID } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mintEnrollmentKey, startAgentServer, TestAgent } from '../support/agent-client';
import { insertOrg, insertPartner } from '../support/seed';
import { auditSettled, type TestServer } from '../support/server';

// Agent log submission (spec 2, Agent and device logs): diagnostic logs at most 500 per request, written in
// multi-row INSERTs of 100 inside one transaction; device event logs with duplicates per (device, source,
// eventId) ignored and an `agent.eventlogs.submit` audit entry.

let server: TestServer;
let orgId: string;
let agent: TestAgent;

beforeAll(async () => {
  server = await startAgentServer();
  const partnerId = insertPartner(server).partnerId;
  orgId = insertOrg(server, partnerId, 'Contoso');
  agent = await TestAgent.enroll(server, mintEnrollmentKey(server, orgId).key, { agentVersion: '1.4.2' });
});
afterAll(async () => {
  await server.dispose();
});

const db = () => server.context.db;

/**
 * Runs `submit` and returns it with the rows of each INSERT into `table` it executed, in order. Observed on
 * better-sqlite3 itself (every statement's `run` goes through the Statement prototype), so the product needs no
 * hook: a multi-row INSERT is one `run` whose SQL holds one `(?, ...)` tuple per row.
 */
async function insertsInto<T>(
  table: string,
  submit: () => Promise<T>,
): Promise<{ result: T; rows: number[] }> {
  const prototype = Object.getPrototypeOf(db().prepare('SELECT 1')) as Statement;
  const run = vi.spyOn(prototype, 'run');
  let result: T;
  let executed: string[];
  try {
    result = await submit();
  } finally {
    // Read before restoring: restoring also clears what the spy recorded.
    executed = run.mock.contexts.map((stmt) => (stmt as Statement).source);
    run.mockRestore();
  }
  const insert = new RegExp(`^INSERT (OR IGNORE )?INTO ${table} `);
  const rows = executed.filter((sql) => insert.test(sql)).map((sql) => sql.split('(?').length - 1);
  return { result, rows };
}
const minute = (i: number) => new Date(Date.UTC(2026, 0, 1, 12, i)).toISOString();
const diagnostic = (i: number, extra: Record<string, unknown> = {}) => ({
  timestamp: minute(i % 60),
  level: (['debug', 'info', 'warn', 'error'] as const)[i % 4],
  component: i % 2 ? 'heartbeat' : 'updater',
  message: `line ${i}`,
  ...extra,
});
const event = (eventId: string | number | null, extra: Record<string, unknown> = {}) => ({
  timestamp: minute(5),
  level: 'error',
  category: 'system',
  source: 'Service Control Manager',
  eventId,
  message: `event ${String(eventId)}`,
  details: { channel: 'System' },
  ...extra,
});

describe('diagnostic logs', () => {
  it('stores up to 500 entries in groups of 100 within one request', async () => {
    const logs = Array.from({ length: 250 }, (_, i) => diagnostic(i));
    logs[0] = diagnostic(0, { fields: { attempt: 3, url: 'https://x.test' }, agentVersion: '1.4.1' });
    const { result: res, rows: chunks } = await insertsInto('diagnostic_logs', () => agent.logs(logs));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ received: 250 });
    expect(chunks).toEqual([100, 100, 50]);
    const rows = db()
      .prepare('SELECT * FROM diagnostic_logs WHERE device_id = ? ORDER BY message')
      .all(agent.creds.deviceId) as Array<Record<string, any>>;
    expect(rows).toHaveLength(250);
    const first = rows.find((r) => r.message === 'line 0')!;
    expect(first).toMatchObject({
      org_id: orgId,
      timestamp: minute(0),
      level: 'debug',
      component: 'updater',
      agent_version: '1.4.1',
    });
    expect(JSON.parse(first.fields)).toEqual({ attempt: 3, url: 'https://x.test' });
    // Without its own agentVersion an entry carries the device's.
    expect(rows.find((r) => r.message === 'line 1')).toMatchObject({ agent_version: '1.4.2', fields: '{}' });
  });

  it('accepts exactly 500 and refuses 501 with nothing stored', async () => {
    const before = (db().prepare('SELECT count(*) AS n FROM diagnostic_logs').get() as { n: number }).n;
    const ok = await agent.logs(Array.from({ length: 500 }, (_, i) => diagnostic(i)));
    expect(ok.status).toBe(201);
    expect(ok.body).toEqual({ received: 500 });
    const tooMany = await agent.logs(Array.from({ length: 501 }, (_, i) => diagnostic(i)));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({
      error: 'logs: at most 500 log entries per request',
      code: 'VALIDATION_ERROR',
    });
    expect((db().prepare('SELECT count(*) AS n FROM diagnostic_logs').get() as { n: number }).n).toBe(
      before + 500,
    );
  });

  it('validates levels, components and timestamps; an empty batch is fine', async () => {
    const badLevel = await agent.logs([diagnostic(1, { level: 'fatal' })]);
    expect(badLevel.status).toBe(400);
    expect(badLevel.body.error).toMatch(/^logs\.0\.level: /);
    const badTime = await agent.logs([diagnostic(1, { timestamp: 'yesterday' })]);
    expect(badTime.status).toBe(400);
    expect(badTime.body.error).toBe('logs.0.timestamp: must be an ISO 8601 timestamp');
    const longComponent = await agent.logs([diagnostic(1, { component: 'c'.repeat(101) })]);
    expect(longComponent.status).toBe(400);
    expect((await agent.logs([])).body).toEqual({ received: 0 });
  });

  it('answers 404 for an unknown agent', async () => {
    const res = await server.api.request('POST', `/agents/${randomUUID()}/logs`, {
      body: { logs: [] },
      token: agent.creds.authToken,
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Agent not found' });
  });
});

describe('device event logs', () => {
  it('ignores duplicates per (device, source, eventId), counts the submission and audits it', async () => {
    const { result: first, rows: chunks } = await insertsInto('device_event_logs', () =>
      agent.eventlogs([
        event('7036'),
        event(7040), // numeric ids are stored as text
        event('7036'), // duplicate inside the same submission
        event('7036', { source: 'Disk' }), // same id, other source: distinct
        event(null), // no id: nothing to be a duplicate of
        event(null),
      ]),
    );
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true, count: 6 });
    expect(chunks).toEqual([6]);
    const second = await agent.eventlogs([
      event('7036'),
      event('7040'),
      event('1001', { category: 'security' }),
    ]);
    expect(second.body).toEqual({ success: true, count: 3 });
    const rows = db()
      .prepare(
        'SELECT source, event_id, category, level, details, org_id FROM device_event_logs WHERE device_id = ?',
      )
      .all(agent.creds.deviceId) as Array<Record<string, any>>;
    expect(rows).toHaveLength(6);
    expect(rows.filter((r) => r.event_id === '7036')).toHaveLength(2);
    expect(rows.filter((r) => r.event_id === null)).toHaveLength(2);
    expect(rows.find((r) => r.event_id === '1001')).toMatchObject({ category: 'security', org_id: orgId });
    expect(JSON.parse(rows[0]!.details)).toEqual({ channel: 'System' });

    await auditSettled(server);
    const audits = db()
      .prepare(
        "SELECT actor_type, actor_id, resource_id, details FROM audit_logs WHERE action = 'agent.eventlogs.submit' ORDER BY timestamp",
      )
      .all() as Array<{ actor_type: string; actor_id: string; resource_id: string; details: string }>;
    expect(audits).toHaveLength(2);
    expect(audits[0]).toMatchObject({
      actor_type: 'agent',
      actor_id: agent.creds.deviceId,
      resource_id: agent.creds.deviceId,
    });
    expect(JSON.parse(audits[0]!.details)).toMatchObject({ count: 6, inserted: 5 });
    expect(JSON.parse(audits[1]!.details)).toMatchObject({ count: 3, inserted: 1 });
  });

  it('writes large submissions in groups of 100 and caps them at 1000', async () => {
    const { result: res, rows: chunks } = await insertsInto('device_event_logs', () =>
      agent.eventlogs(Array.from({ length: 1000 }, (_, i) => event(`bulk-${i}`))),
    );
    expect(res.body).toEqual({ success: true, count: 1000 });
    expect(chunks).toEqual(Array.from({ length: 10 }, () => 100));
    const tooMany = await agent.eventlogs(Array.from({ length: 1001 }, (_, i) => event(`over-${i}`)));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toBe('events: at most 1000 events per request');
    expect(
      (
        db().prepare("SELECT count(*) AS n FROM device_event_logs WHERE event_id LIKE 'over-%'").get() as {
          n: number;
        }
      ).n,
    ).toBe(0);
  });

  it('validates level and category per spec 2', async () => {
    const badLevel = await agent.eventlogs([event('1', { level: 'verbose' })]);
    expect(badLevel.status).toBe(400);
    expect(badLevel.body.error).toMatch(/^events\.0\.level: /);
    const badCategory = await agent.eventlogs([event('1', { category: 'network' })]);
    expect(badCategory.status).toBe(400);
    expect(badCategory.body.error).toMatch(/^events\.0\.category: /);
  });
});
