import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  server,
  ids,
  tok,
  keys,
  at,
  insertDevice,
  insertDiagnostic,
  get,
  getWithKey,
  expectError,
  messages,
  useDeviceLogsWorld,
} from '../support/device-logs-world';

// GET /devices/:id/diagnostic-logs: every filter against known rows; and who may read either log (diagnostic
// and event) of which device.

useDeviceLogsWorld();

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
