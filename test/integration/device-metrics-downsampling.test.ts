import { describe, expect, it } from 'vitest';
import {
  bufferMetricSample,
  flushMetricSamples,
  metricSamplesPending,
} from '../../server/modules/device-metrics';
import { TestAgent, mintEnrollmentKey } from '../support/agent-client';
import { expectError, get, ids, insertDevice, server, useDevicesWorld } from '../support/devices-world';

// GET /devices/:id/metrics: heartbeats become a series of per-minute points (24h) and hourly averages (7d, 30d),
// written in batches by the buffer rather than on the heartbeat path.

useDevicesWorld();

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const db = () => server.context.db;
const pointRows = (deviceId: string) =>
  (
    db().prepare('SELECT COUNT(*) AS n FROM device_metric_points WHERE device_id = ?').get(deviceId) as {
      n: number;
    }
  ).n;

/** A sample written as if reported `agoMs` ago, aligned to the start of an hour so buckets are predictable. */
function sampleAt(
  deviceId: string,
  atMs: number,
  cpu: number | null,
  ram: number | null,
  disk: number | null,
) {
  bufferMetricSample(db(), { deviceId, atMs, cpu, ram, disk });
}

describe('heartbeats to points', () => {
  it('buffers heartbeat metrics and writes them in one flush; the 24h series shows their average', async () => {
    const key = mintEnrollmentKey(server, ids.a1);
    const agent = await TestAgent.enroll(server, key.key);
    const deviceId = agent.creds.deviceId;
    for (const cpuPercent of [10, 20, 30]) {
      expect(
        (await agent.heartbeat({ metrics: { cpuPercent, ramPercent: 50, diskPercent: 70 } })).status,
      ).toBe(200);
    }
    // Nothing on the heartbeat path: the rows appear with the flush.
    expect(pointRows(deviceId)).toBe(0);
    expect(flushMetricSamples(db())).toBeGreaterThanOrEqual(3);
    const res = await get('orgAdmin', `/devices/${deviceId}/metrics`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ deviceId, range: '24h', resolution: 'minute' });
    const points = res.body.points as Array<{ at: number; cpuPercent: number }>;
    // The three heartbeats fall into one minute, or two when the test straddles a minute boundary.
    expect(points.length).toBeGreaterThanOrEqual(1);
    expect(points.length).toBeLessThanOrEqual(2);
    const last = points.at(-1);
    expect(last?.at ?? 0).toBeLessThanOrEqual(Date.now());
    if (points.length === 1)
      expect(points[0]).toMatchObject({ cpuPercent: 20, ramPercent: 50, diskPercent: 70 });
    const hourly = await get('orgAdmin', `/devices/${deviceId}/metrics?range=7d`);
    expect(hourly.body.resolution).toBe('hour');
    const hourPoints = hourly.body.points as Array<{ cpuPercent: number }>;
    const mean = hourPoints.reduce((sum, p) => sum + p.cpuPercent, 0) / hourPoints.length;
    if (hourPoints.length === 1) expect(mean).toBe(20);
  });

  it('a heartbeat without metrics adds no point', async () => {
    const key = mintEnrollmentKey(server, ids.a1);
    const agent = await TestAgent.enroll(server, key.key);
    await agent.heartbeat({});
    flushMetricSamples(db());
    expect(pointRows(agent.creds.deviceId)).toBe(0);
  });
});

describe('downsampling', () => {
  it('keeps one point per minute for 24h and hourly averages for 7d and 30d', async () => {
    const id = insertDevice(ids.a1, { hostname: 'metrics-down' });
    const hourStart = Date.now() - (Date.now() % HOUR) - 2 * HOUR;
    // Two samples in the first minute, one in the second, one 30 minutes on: three minute points, one hour point.
    sampleAt(id, hourStart + 1_000, 10, 40, 80);
    sampleAt(id, hourStart + 30_000, 30, 60, 80);
    sampleAt(id, hourStart + MINUTE + 5_000, 50, null, 80);
    sampleAt(id, hourStart + 30 * MINUTE, 70, 50, 81);
    // Ten days ago: only the 30-day series reaches it; older than 24 h, so not in the minute series either.
    sampleAt(id, hourStart - 10 * 24 * HOUR, 5, 5, 5);
    expect(flushMetricSamples(db())).toBe(5);

    const day = await get('orgAdmin', `/devices/${id}/metrics?range=24h`);
    expect(day.body.points).toEqual([
      { at: hourStart, cpuPercent: 20, ramPercent: 50, diskPercent: 80 },
      // A metric the sample left out stays null rather than counting as zero.
      { at: hourStart + MINUTE, cpuPercent: 50, ramPercent: null, diskPercent: 80 },
      { at: hourStart + 30 * MINUTE, cpuPercent: 70, ramPercent: 50, diskPercent: 81 },
    ]);
    const week = await get('orgAdmin', `/devices/${id}/metrics?range=7d`);
    expect(week.body.points).toEqual([
      // cpu (10+30+50+70)/4; ram (40+60+50)/3 over the samples that reported it.
      { at: hourStart, cpuPercent: 40, ramPercent: 50, diskPercent: 80.25 },
    ]);
    const month = await get('orgAdmin', `/devices/${id}/metrics?range=30d`);
    expect(month.body.points).toEqual([
      { at: hourStart - 10 * 24 * HOUR, cpuPercent: 5, ramPercent: 5, diskPercent: 5 },
      { at: hourStart, cpuPercent: 40, ramPercent: 50, diskPercent: 80.25 },
    ]);
  });

  it('many heartbeats in one minute stay one row per resolution', async () => {
    const id = insertDevice(ids.a1, { hostname: 'metrics-burst' });
    const minuteStart = Date.now() - (Date.now() % MINUTE) - 5 * MINUTE;
    for (let i = 0; i < 200; i++) sampleAt(id, minuteStart + (i % 60) * 1000, i % 100, 50, 50);
    flushMetricSamples(db());
    expect(pointRows(id)).toBe(2);
  });

  it('a fleet in step is written in slices of device-minutes, losing nothing', () => {
    flushMetricSamples(db());
    const fleet = ['slice-a', 'slice-b', 'slice-c'].map((hostname) => insertDevice(ids.a1, { hostname }));
    const now = Date.now();
    for (const id of fleet) for (let i = 0; i < 4; i++) sampleAt(id, now, 10 * (i + 1), 50, 50);
    // Two device-minutes (eight samples) in the first slice, the third in the next.
    expect(flushMetricSamples(db(), 2)).toBe(8);
    expect(metricSamplesPending(db())).toBe(true);
    expect(flushMetricSamples(db(), 2)).toBe(4);
    expect(metricSamplesPending(db())).toBe(false);
    for (const id of fleet) expect(pointRows(id)).toBe(2);
  });

  it('samples of a device deleted while buffered are dropped without failing the batch', () => {
    const gone = insertDevice(ids.a1, { hostname: 'metrics-gone' });
    const kept = insertDevice(ids.a1, { hostname: 'metrics-kept' });
    sampleAt(gone, Date.now(), 1, 1, 1);
    sampleAt(kept, Date.now(), 2, 2, 2);
    db().prepare('DELETE FROM devices WHERE id = ?').run(gone);
    flushMetricSamples(db());
    expect(pointRows(gone)).toBe(0);
    expect(pointRows(kept)).toBe(2);
  });

  it('refuses an unknown range with 400', async () => {
    const id = insertDevice(ids.a1, { hostname: 'metrics-range' });
    expectError(
      await get('orgAdmin', `/devices/${id}/metrics?range=1y`),
      400,
      'range: must be one of 24h, 7d, 30d',
    );
  });
});
