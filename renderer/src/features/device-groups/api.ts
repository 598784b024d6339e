import type { DeviceGroup, DeviceGroupBody, DeviceSummary, Paginated } from '../../../../server/contract';
import { call } from '../../lib/api/endpoints';
import { queryClient, useApiQuery, type QueryState } from '../../lib/query';

// The device group endpoints (spec 3 catalog: /groups), typed by the contract, and their cached reads. Every key
// starts with 'device-groups', so a write refreshes the list, the group and its members at once.

/** A group's members are read in one page: the screen is for curating groups, not for browsing thousands. */
export const MEMBER_PAGE = 500;

export const groupsApi = {
  list: (page: number) => call('GET /groups', { query: { page, limit: 100 } }),
  get: (id: string) => call('GET /groups/:id', { params: { id } }),
  create: (body: DeviceGroupBody & { orgId?: string }) => call('POST /groups', { body }),
  update: (id: string, body: Partial<DeviceGroupBody>) => call('PATCH /groups/:id', { params: { id }, body }),
  remove: (id: string) => call('DELETE /groups/:id', { params: { id } }),
  members: (id: string) =>
    call('GET /groups/:id/devices', { params: { id }, query: { limit: MEMBER_PAGE, sort: 'hostname' } }),
  addMembers: (id: string, deviceIds: string[]) =>
    call('POST /groups/:id/devices', { params: { id }, body: { deviceIds } }),
  removeMember: (id: string, deviceId: string) =>
    call('DELETE /groups/:id/devices/:deviceId', { params: { id, deviceId } }),
  /** The device picker: devices of the group's organization matching a search, one page. */
  candidates: (orgId: string, search: string) =>
    call('GET /devices', { query: { orgId, search, limit: 50 } }),
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
