import type {
  DeviceMetricsHistory,
  ElevationRequestList,
  MetricsRange,
  Paginated,
  SoftwareItem,
} from '../../../../server/contract';
import { call } from '../../lib/api/endpoints';
import { useApiQuery, type QueryState } from '../../lib/query';

// The device's history endpoints (issue 16 item 3): its metric series, stored software and elevation requests. Keys start with 'devices', like the
// device's other reads, so whatever marks all devices stale reaches these too.

export const deviceHistoryApi = {
  metrics: (id: string, range: MetricsRange) =>
    call('GET /devices/:id/metrics', { params: { id }, query: { range } }),
  software: (deviceId: string, q: string) =>
    call('GET /software/inventory/:deviceId', { params: { deviceId }, query: { q, limit: SOFTWARE_LIMIT } }),
  elevations: (deviceId: string, page: number) =>
    call('GET /pam/elevation-requests', {
      query: { deviceId, page, limit: ELEVATIONS_PAGE, order: 'newest' },
    }),
};

/** One read holds a device's whole inventory in practice; past it the tab asks for a narrower search. */
export const SOFTWARE_LIMIT = 1000;
export const ELEVATIONS_PAGE = 50;

export const deviceHistoryKeys = {
  metrics: (id: string, range: MetricsRange) => ['devices', 'metrics', id, range] as const,
  software: (id: string, q: string) => ['devices', 'software', id, q] as const,
  elevations: (id: string, page: number) => ['devices', 'elevations', id, page] as const,
};

export function useDeviceMetrics(id: string, range: MetricsRange): QueryState<DeviceMetricsHistory> {
  return useApiQuery(deviceHistoryKeys.metrics(id, range), () => deviceHistoryApi.metrics(id, range));
}

export function useDeviceSoftware(id: string, q: string): QueryState<Paginated<SoftwareItem>> {
  return useApiQuery(deviceHistoryKeys.software(id, q), () => deviceHistoryApi.software(id, q));
}

export function useDeviceElevations(id: string, page: number): QueryState<ElevationRequestList> {
  return useApiQuery(deviceHistoryKeys.elevations(id, page), () => deviceHistoryApi.elevations(id, page));
}
