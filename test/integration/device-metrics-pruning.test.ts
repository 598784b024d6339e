import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  bufferMetricSample,
  flushMetricSamples,
  pruneDeviceMetrics,
} from '../../server/modules/device-metrics';
import { TestAgent, mintEnrollmentKey, startAgentServer } from '../support/agent-client';
import { insertOrg, insertPartner } from '../support/seed';
import { get, ids, insertDevice, server, useDevicesWorld } from '../support/devices-world';

// Retention of the metric series: minute points for 24 hours, hourly points for 30 days, so a device holds a
// bounded number of rows whatever its heartbeat rate; and a clean shutdown writes what was still buffered.

useDevicesWorld();

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const db = () => server.context.db;
const rows = (deviceId: string, resolution: string) =>
  (
    db()
      .prepare('SELECT COUNT(*) AS n FROM device_metric_points WHERE device_id = ? AND resolution = ?')
      .get(deviceId, resolution) as { n: number }
  ).n;

describe('pruning', () => {
  it('deletes minute points after 24 hours and hourly points after 30 days', async () => {
    const id = insertDevice(ids.a1, { hostname: 'metrics-prune' });
    const nowMs = Date.now();
    for (const agoMs of [10 * MINUTE, 23 * HOUR, 26 * HOUR, 29 * DAY, 32 * DAY]) {
      bufferMetricSample(db(), { deviceId: id, atMs: nowMs - agoMs, cpu: 1, ram: 1, disk: 1 });
    }
    flushMetricSamples(db());
    expect(rows(id, 'minute')).toBe(5);
    expect(rows(id, 'hour')).toBe(5);

    const removed = pruneDeviceMetrics(server.context, nowMs);
    expect(removed.minute).toBeGreaterThanOrEqual(3);
    expect(rows(id, 'minute')).toBe(2); // 10 minutes and 23 hours ago
    expect(rows(id, 'hour')).toBe(4); // all but 32 days ago
    const month = await get('orgAdmin', `/devices/${id}/metrics?range=30d`);
    expect((month.body.points as unknown[]).length).toBe(4);
  });

  it('a month of per-minute heartbeats stays within 24*60 + 30*24 rows once pruned', () => {
    const id = insertDevice(ids.a1, { hostname: 'metrics-bound' });
    const nowMs = Date.now();
    // 35 days, one sample a minute: 50,400 samples.
    for (let t = nowMs - 35 * DAY; t <= nowMs; t += MINUTE) {
      bufferMetricSample(db(), { deviceId: id, atMs: t, cpu: 10, ram: 20, disk: 30 });
    }
    flushMetricSamples(db());
    pruneDeviceMetrics(server.context, nowMs);
    expect(rows(id, 'minute')).toBeLessThanOrEqual(24 * 60 + 2);
    expect(rows(id, 'hour')).toBeLessThanOrEqual(30 * 24 + 2);
    expect(rows(id, 'minute')).toBeGreaterThanOrEqual(24 * 60);
  });
});

describe('shutdown', () => {
  it('a clean close writes the samples heartbeats buffered', async () => {
    const own = await startAgentServer();
    const partner = insertPartner(own, { name: 'Shutdown MSP' });
    const orgId = insertOrg(own, partner.partnerId, 'Shutdown Org');
    const agent = await TestAgent.enroll(own, mintEnrollmentKey(own, orgId).key);
    expect(
      (await agent.heartbeat({ metrics: { cpuPercent: 42, ramPercent: 1, diskPercent: 2 } })).status,
    ).toBe(200);
    await own.close();
    const file = new Database(join(own.dataDir, 'gatehouse.db'), { readonly: true });
    try {
      const row = file
        .prepare("SELECT cpu_sum FROM device_metric_points WHERE device_id = ? AND resolution = 'minute'")
        .get(agent.creds.deviceId) as { cpu_sum: number } | undefined;
      expect(row?.cpu_sum).toBe(42);
    } finally {
      file.close();
      rmSync(own.dataDir, { recursive: true, force: true });
    }
  });
});
