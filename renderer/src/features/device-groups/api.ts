import type {
  DeviceGroup,
  DeviceGroupMembersAdded,
  DeviceSummary,
  Paginated,
} from '../../../../server/contract';
import { api } from '../../lib/api/client';
import { qs } from '../../lib/forms';
import { queryClient, useApiQuery, type QueryState } from '../../lib/query';

// The device group endpoints (spec 3 catalog: /groups), typed by the contract, and their cached reads. Every key
// starts with 'device-groups', so a write refreshes the list, the group and its members at once.

export interface GroupBody {
  name: string;
  description: string | null;
  siteId: string | null;
}

const groupPath = (id: string) => `/groups/${encodeURIComponent(id)}`;

/** A group's members are read in one page: the screen is for curating groups, not for browsing thousands. */
export const MEMBER_PAGE = 500;

export const groupsApi = {
  list: (page: number) => api<Paginated<DeviceGroup>>(`/groups${qs({ page, limit: 100 })}`),
  get: (id: string) => api<DeviceGroup>(groupPath(id)),
  create: (body: GroupBody & { orgId?: string }) => api<DeviceGroup>('/groups', { method: 'POST', body }),
  update: (id: string, body: Partial<GroupBody>) =>
    api<DeviceGroup>(groupPath(id), { method: 'PATCH', body }),
  remove: (id: string) => api<DeviceGroup>(groupPath(id), { method: 'DELETE' }),
  members: (id: string) =>
    api<Paginated<DeviceSummary>>(`${groupPath(id)}/devices${qs({ limit: MEMBER_PAGE, sort: 'hostname' })}`),
  addMembers: (id: string, deviceIds: string[]) =>
    api<DeviceGroupMembersAdded>(`${groupPath(id)}/devices`, { method: 'POST', body: { deviceIds } }),
  removeMember: (id: string, deviceId: string) =>
    api<DeviceGroup>(`${groupPath(id)}/devices/${encodeURIComponent(deviceId)}`, { method: 'DELETE' }),
  /** The device picker: devices of the group's organization matching a search, one page. */
  candidates: (orgId: string, search: string) =>
    api<Paginated<DeviceSummary>>(`/devices${qs({ orgId, search: search || undefined, limit: 50 })}`),
};

export const groupsKeys = {
  all: ['device-groups'] as const,
  list: (page: number) => ['device-groups', 'list', page] as const,
  detail: (id: string) => ['device-groups', 'detail', id] as const,
  members: (id: string) => ['device-groups', 'members', id] as const,
  candidates: (orgId: string, search: string) => ['device-groups', 'candidates', orgId, search] as const,
};

export const useGroupList = (page: number): QueryState<Paginated<DeviceGroup>> =>
  useApiQuery(groupsKeys.list(page), () => groupsApi.list(page));

export const useGroup = (id: string): QueryState<DeviceGroup> =>
  useApiQuery(groupsKeys.detail(id), () => groupsApi.get(id));

export const useGroupMembers = (id: string): QueryState<Paginated<DeviceSummary>> =>
  useApiQuery(groupsKeys.members(id), () => groupsApi.members(id));

export const useCandidates = (orgId: string, search: string): QueryState<Paginated<DeviceSummary>> =>
  useApiQuery(groupsKeys.candidates(orgId, search), () => groupsApi.candidates(orgId, search));

/** After any write: every group read is stale (counts move with memberships). */
export const refreshGroups = () => queryClient.invalidateQueries({ queryKey: groupsKeys.all });
