import type { Paginated } from '../common';
import type { DeviceGroup, DeviceGroupMembersAdded, DeviceSummary } from '../devices';
import type { Endpoint } from './endpoint';
import type { DeviceListQuery } from './devices';

// /groups (spec 3 catalog): device groups and their members.

export interface DeviceGroupBody {
  name: string;
  description: string | null;
  siteId: string | null;
}

export interface DeviceGroupEndpoints {
  /** `orgId`: the group's organization, where the caller spans several. */
  'POST /groups': Endpoint<DeviceGroup, DeviceGroupBody & { orgId?: string }>;
  'GET /groups/:id': Endpoint<DeviceGroup>;
  'PATCH /groups/:id': Endpoint<DeviceGroup, Partial<DeviceGroupBody>>;
  /** Answers with the deleted group. */
  'DELETE /groups/:id': Endpoint<DeviceGroup>;
  /** The device list's query, narrowed to the group. */
  'GET /groups/:id/devices': Endpoint<Paginated<DeviceSummary>, undefined, DeviceListQuery>;
  'POST /groups/:id/devices': Endpoint<DeviceGroupMembersAdded, { deviceIds: string[] }>;
  /** Answers with the group. */
  'DELETE /groups/:id/devices/:deviceId': Endpoint<DeviceGroup>;
}
