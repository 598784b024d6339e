import { describe, expect, it } from 'vitest';
import { mintEnrollmentKey, TestAgent } from '../support/agent-client';
import {
  server,
  ids,
  at,
  insertDevice,
  insertEvent,
  get,
  expectError,
  messages,
  useDeviceLogsWorld,
} from '../support/device-logs-world';

// GET /devices/:id/eventlogs: every filter against known rows, and the agent's own submission read back.

useDeviceLogsWorld();

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
