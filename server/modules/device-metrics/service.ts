import type { AppContext } from '../../context';
import type { DeviceMetricsHistory, MetricsRange } from '../../contract';
import type { AuthContext } from '../../http/auth-context';
import { requireDevice } from '../devices';
import { HOUR_MS, MINUTE_MS, deleteMetricPointsBefore, metricPoints, type Resolution } from './store';

// GET /devices/:id/metrics and the retention of the series. The 24-hour chart reads minute points, the 7- and
// 30-day charts hourly ones; each resolution is kept exactly as long as the longest range that reads it.

const RANGES: Record<MetricsRange, { resolution: Resolution; spanMs: number }> = {
  '24h': { resolution: 'minute', spanMs: 24 * HOUR_MS },
  '7d': { resolution: 'hour', spanMs: 7 * 24 * HOUR_MS },
  '30d': { resolution: 'hour', spanMs: 30 * 24 * HOUR_MS },
};

/** How long each resolution is kept. */
export const METRICS_RETENTION_MS: Record<Resolution, number> = {
  minute: RANGES['24h'].spanMs,
  hour: RANGES['30d'].spanMs,
};

/** The device's CPU, RAM and disk series over `range`, oldest first; scoped exactly like GET /devices/:id. */
export function deviceMetrics(
  ctx: AppContext,
  auth: AuthContext,
  id: string,
  range: MetricsRange,
  nowMs = Date.now(),
): DeviceMetricsHistory {
  const device = requireDevice(ctx, auth, id);
  const { resolution, spanMs } = RANGES[range];
  // Bucket starts: the oldest bucket that still overlaps the range is included.
  const bucket = resolution === 'minute' ? MINUTE_MS : HOUR_MS;
  const sinceMs = nowMs - spanMs - bucket + 1;
  const points = metricPoints(ctx.db, device.id, resolution, sinceMs).map((row) => ({
    at: row.bucket_ms,
    cpuPercent: row.cpu,
    ramPercent: row.ram,
    diskPercent: row.disk,
  }));
  return { deviceId: device.id, range, resolution, points };
}

/** Deletes points older than their resolution's retention; returns how many of each. */
export function pruneDeviceMetrics(
  ctx: Pick<AppContext, 'db'>,
  nowMs = Date.now(),
): Record<Resolution, number> {
  return {
    minute: deleteMetricPointsBefore(ctx.db, 'minute', nowMs - METRICS_RETENTION_MS.minute - MINUTE_MS),
    hour: deleteMetricPointsBefore(ctx.db, 'hour', nowMs - METRICS_RETENTION_MS.hour - HOUR_MS),
  };
}
