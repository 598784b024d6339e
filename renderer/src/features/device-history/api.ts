import type {
  DeviceMetricsHistory,
  ElevationRequestList,
  MetricsRange,
  Paginated,
  SoftwareItem,
} from '../../../../server/contract';
import { api } from '../../lib/api/client';
import { qs } from '../../lib/forms';
import { useApiQuery, type QueryState } from '../../lib/query';

// The device's history endpoints (issue 16 item 3): its metric series, stored software and elevation requests. Keys start with 'devices', like the
// device's other reads, so whatever marks all devices stale reaches these too.

export const deviceHistoryApi = {
  metrics: (id: string, range: MetricsRange) =>
    api<DeviceMetricsHistory>(`/devices/${encodeURIComponent(id)}/metrics?range=${range}`),
  software: (id: string, q: string) =>
    api<Paginated<SoftwareItem>>(
      `/software/inventory/${encodeURIComponent(id)}${qs({ q: q || undefined, limit: SOFTWARE_LIMIT })}`,
    ),
  elevations: (id: string, page: number) =>
    api<ElevationRequestList>(
      `/pam/elevation-requests${qs({ deviceId: id, page, limit: ELEVATIONS_PAGE, order: 'newest' })}`,
    ),
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
