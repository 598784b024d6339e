import type { DeviceMetricsHistory, MetricsRange } from '../../../../server/contract';
import { api } from '../../lib/api/client';
import { useApiQuery, type QueryState } from '../../lib/query';

// The device's history endpoints (issue 16 item 3): its metric series. Keys start with 'devices', like the
// device's other reads, so whatever marks all devices stale reaches these too.

export const deviceHistoryApi = {
  metrics: (id: string, range: MetricsRange) =>
    api<DeviceMetricsHistory>(`/devices/${encodeURIComponent(id)}/metrics?range=${range}`),
};

export const deviceHistoryKeys = {
  metrics: (id: string, range: MetricsRange) => ['devices', 'metrics', id, range] as const,
};

export function useDeviceMetrics(id: string, range: MetricsRange): QueryState<DeviceMetricsHistory> {
  return useApiQuery(deviceHistoryKeys.metrics(id, range), () => deviceHistoryApi.metrics(id, range));
}
