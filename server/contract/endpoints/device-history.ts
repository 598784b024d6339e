import type { Paginated } from '../common';
import type { DeviceMetricsHistory, MetricsRange, SoftwareItem } from '../device-metrics';
import type { Endpoint } from './endpoint';

// A device's history (issue 16 item 3): its metric series, its stored software and the elevation requests it
// raised, which the device page reads from the list of all requests.

export interface SoftwareInventoryQuery {
  q?: string;
  limit: number;
}

/** One device's requests, newest first. */
export interface DeviceHistoryEndpoints {
  'GET /devices/:id/metrics': Endpoint<DeviceMetricsHistory, undefined, { range: MetricsRange }>;
  'GET /software/inventory/:deviceId': Endpoint<Paginated<SoftwareItem>, undefined, SoftwareInventoryQuery>;
}
