import type { DeviceMetrics } from './devices';

// A device's history (issue 16 item 3): GET /devices/:id/metrics, its heartbeat metrics over time, and GET
// /software/inventory/:deviceId, its stored software.

export const METRICS_RANGES = ['24h', '7d', '30d'] as const;
export type MetricsRange = (typeof METRICS_RANGES)[number];

/** One bucket's averages; a metric no heartbeat in the bucket reported is null. `at` is the bucket start. */
export interface DeviceMetricPoint extends DeviceMetrics {
  at: number;
}

export interface DeviceMetricsHistory {
  deviceId: string;
  range: MetricsRange;
  /** `minute` points for 24h, `hour` points for 7d and 30d. */
  resolution: 'minute' | 'hour';
  /** Oldest first; buckets without a heartbeat are absent (a gap in the chart, not a zero). */
  points: DeviceMetricPoint[];
}

/** A row of GET /software/inventory/:deviceId: one installed program as the agent reported it. */
export interface SoftwareItem {
  name: string;
  version: string | null;
  publisher: string | null;
}
