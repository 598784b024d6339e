import { statement, type Db } from '../../db/connection';

// SQL of device_metric_points (migration 0016). Free functions over the statement cache; callers own transactions.

export type Resolution = 'minute' | 'hour';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;

/** One heartbeat's metrics; a metric the agent left out is null and does not count towards its average. */
export interface MetricSample {
  deviceId: string;
  atMs: number;
  cpu: number | null;
  ram: number | null;
  disk: number | null;
}

export interface MetricPointRow {
  bucket_ms: number;
  cpu: number | null;
  ram: number | null;
  disk: number | null;
}

/** Sums and counts of the samples one bucket of one device gathered (what a point row accumulates). */
export interface MetricSums {
  deviceId: string;
  cpuSum: number;
  cpuCount: number;
  ramSum: number;
  ramCount: number;
  diskSum: number;
  diskCount: number;
}

// Sums of a device that was deleted while they waited in the buffer are dropped by the EXISTS guard rather than
// failing the whole batch on the foreign key.
const ADD_SUMS = `
  INSERT INTO device_metric_points
    (device_id, resolution, bucket_ms, cpu_sum, cpu_count, ram_sum, ram_count, disk_sum, disk_count)
  SELECT @deviceId, @resolution, @bucketMs, @cpuSum, @cpuCount, @ramSum, @ramCount, @diskSum, @diskCount
  WHERE EXISTS (SELECT 1 FROM devices WHERE id = @deviceId)
  ON CONFLICT (device_id, resolution, bucket_ms) DO UPDATE SET
    cpu_sum = cpu_sum + excluded.cpu_sum, cpu_count = cpu_count + excluded.cpu_count,
    ram_sum = ram_sum + excluded.ram_sum, ram_count = ram_count + excluded.ram_count,
    disk_sum = disk_sum + excluded.disk_sum, disk_count = disk_count + excluded.disk_count`;

export const bucketOf = (atMs: number, size: number) => atMs - (atMs % size);

/** Adds the sums to the device's point of one resolution and bucket. */
export function addMetricSums(db: Db, resolution: Resolution, bucketMs: number, sums: MetricSums): void {
  statement(db, ADD_SUMS).run({ ...sums, resolution, bucketMs });
}

/** A device's points of one resolution from `sinceMs` on, oldest first; averages, null where nothing was reported. */
export function metricPoints(
  db: Db,
  deviceId: string,
  resolution: Resolution,
  sinceMs: number,
): MetricPointRow[] {
  return statement(
    db,
    `SELECT bucket_ms,
       CASE WHEN cpu_count > 0 THEN cpu_sum / cpu_count END AS cpu,
       CASE WHEN ram_count > 0 THEN ram_sum / ram_count END AS ram,
       CASE WHEN disk_count > 0 THEN disk_sum / disk_count END AS disk
     FROM device_metric_points
     WHERE device_id = ? AND resolution = ? AND bucket_ms >= ?
     ORDER BY bucket_ms`,
  ).all(deviceId, resolution, sinceMs) as MetricPointRow[];
}

/** Deletes points of one resolution whose bucket started before `beforeMs`; returns how many. */
export function deleteMetricPointsBefore(db: Db, resolution: Resolution, beforeMs: number): number {
  return statement(db, 'DELETE FROM device_metric_points WHERE resolution = ? AND bucket_ms < ?').run(
    resolution,
    beforeMs,
  ).changes;
}
