import type { Paginated } from '../common';
import type { SimulatedElevationKind, SimulatorElevationResponse, SimulatorStatus } from '../demo';
import type {
  DeviceCommand,
  DeviceDetail,
  DeviceEventLogEntry,
  DeviceFacets,
  DeviceSort,
  DeviceSummary,
  DiagnosticLogEntry,
  LiveEventLevel,
  LiveEventLogDescriptor,
  LiveEventLogEntry,
  LiveEventLogPage,
} from '../devices';
import type { Endpoint } from './endpoint';

// /devices (spec 2 Devices), their logs (stored, and live under /system-tools) and the demo simulator (spec 1).

/** What narrows and orders the device list; `status` may be a comma list, `conditions` a condition group's JSON. */
export interface DeviceFilterQuery {
  search?: string;
  status?: string;
  orgId?: string;
  filterId?: string;
  conditions?: string;
  sort?: DeviceSort;
  order?: 'asc' | 'desc';
}

export interface DeviceListQuery extends DeviceFilterQuery {
  page?: number;
  limit?: number;
}

/** The list's filters (its sort is ignored) and what to count by: a comma list of DeviceFacet. */
export interface DeviceCountsQuery extends DeviceFilterQuery {
  by: string;
}

/** The device's name and tags, both sent: no display name shows the hostname; the tags replace the stored ones. */
export interface DeviceLabelsBody {
  displayName: string | null;
  tags: string[];
}

export type DeviceCommandBody =
  | { type: 'self_uninstall'; payload: { removeConfig: boolean } }
  | { type: 'dev_update'; payload: { downloadUrl: string; checksum: string } };

/** Stored event logs; `category` and `level` may be comma lists. */
export interface EventLogQuery {
  category?: string;
  level?: string;
  source?: string;
  startDate?: string;
  endDate?: string;
  page: number;
  limit: number;
}

/** The agent's diagnostic log; `level` may be a comma list, `search` matches the message. */
export interface DiagnosticLogQuery {
  level?: string;
  component?: string;
  search?: string;
  since?: string;
  until?: string;
  page: number;
  limit: number;
}

export interface LiveLogEventsQuery {
  page: number;
  limit: number;
  level?: LiveEventLevel;
  source?: string;
  /** Digits only. */
  eventId?: string;
  startTime?: string;
  endTime?: string;
}

export interface SimulatorStartBody {
  count: number;
  orgId?: string;
}

export interface SimulatorElevationBody {
  kind: SimulatedElevationKind;
  orgId?: string;
}

export interface DeviceEndpoints {
  'GET /devices': Endpoint<Paginated<DeviceSummary>, undefined, DeviceListQuery>;
  'GET /devices/facets': Endpoint<DeviceFacets, undefined, DeviceCountsQuery>;
  'GET /devices/:id': Endpoint<DeviceDetail>;
  'PATCH /devices/:id': Endpoint<DeviceDetail, DeviceLabelsBody>;
  /** Decommissioning answers with the device as it now is. */
  'DELETE /devices/:id': Endpoint<DeviceDetail>;
  'POST /devices/:id/commands': Endpoint<DeviceCommand, DeviceCommandBody>;
  'GET /devices/:id/commands': Endpoint<Paginated<DeviceCommand>>;
  'GET /devices/:deviceId/eventlogs': Endpoint<Paginated<DeviceEventLogEntry>, undefined, EventLogQuery>;
  'GET /devices/:deviceId/diagnostic-logs': Endpoint<
    Paginated<DiagnosticLogEntry>,
    undefined,
    DiagnosticLogQuery
  >;
  'GET /system-tools/devices/:deviceId/eventlogs': Endpoint<{ data: LiveEventLogDescriptor[] }>;
  'GET /system-tools/devices/:deviceId/eventlogs/:name/events': Endpoint<
    LiveEventLogPage,
    undefined,
    LiveLogEventsQuery
  >;
  'GET /system-tools/devices/:deviceId/eventlogs/:name/events/:recordId': Endpoint<{
    data: LiveEventLogEntry;
  }>;
  'GET /demo/simulator': Endpoint<SimulatorStatus>;
  'POST /demo/simulator/start': Endpoint<SimulatorStatus, SimulatorStartBody>;
  'POST /demo/simulator/stop': Endpoint<SimulatorStatus>;
  'POST /demo/simulator/elevation-requests': Endpoint<SimulatorElevationResponse, SimulatorElevationBody>;
}
