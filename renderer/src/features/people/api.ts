import type {
  AvailablePermissionsResponse,
  EffectivePermissionsResponse,
  InviteResendResponse,
  Paginated,
  RoleDetail,
  RoleListResponse,
  Site,
  UserListResponse,
} from '../../../../server/contract';
import { api } from '../../lib/api/client';
import { qs } from '../../lib/forms';
import { apiKey, useApiQuery, type QueryState } from '../../lib/query';

// The users and roles endpoints (spec 1), typed by the contract.

type Body = Record<string, unknown>;
type Query = Record<string, string | number | null | undefined>;

function useGet<T>(path: string | null): QueryState<T> {
  return useApiQuery<T>(path === null ? null : apiKey(path), () => api<T>(path ?? ''));
}

export const peopleApi = {
  invite: (body: Body) => api<void>('/users/invite', { method: 'POST', body }),
  resendInvite: (userId: string) =>
    api<InviteResendResponse>('/users/resend-invite', { method: 'POST', body: { userId } }),
  setRole: (userId: string, roleId: string) =>
    api<void>(`/users/${userId}/role`, { method: 'POST', body: { roleId } }),
  setStatus: (userId: string, status: 'active' | 'disabled') =>
    api<void>(`/users/${userId}`, { method: 'PATCH', body: { status } }),
  removeUser: (userId: string) => api<void>(`/users/${userId}`, { method: 'DELETE' }),

  createRole: (body: Body) => api<RoleDetail>('/roles', { method: 'POST', body }),
  updateRole: (id: string, body: Body) => api<RoleDetail>(`/roles/${id}`, { method: 'PATCH', body }),
  cloneRole: (id: string, name: string) =>
    api<RoleDetail>(`/roles/${id}/clone`, { method: 'POST', body: { name } }),
  deleteRole: (id: string) => api<void>(`/roles/${id}`, { method: 'DELETE' }),
};

export const useUsers = (q: Query) => useGet<UserListResponse>(`/users${qs(q)}`);
export const useRoles = () => useGet<RoleListResponse>('/roles');
/** The roles a tenant may hold (null: no tenant chosen yet). */
export const useAssignableRoles = (q: Query | null) =>
  useGet<RoleListResponse>(q === null ? null : `/users/roles${qs(q)}`);
export const useRole = (id: string | null) => useGet<RoleDetail>(id ? `/roles/${id}` : null);
export const useRoleUsers = (id: string, q: Query) => useGet<UserListResponse>(`/roles/${id}/users${qs(q)}`);
export const useAvailablePermissions = () =>
  useGet<AvailablePermissionsResponse>('/roles/permissions/available');
export const useEffectivePermissions = (id: string | null) =>
  useGet<EffectivePermissionsResponse>(id ? `/roles/${id}/effective-permissions` : null);
export const useOrgSites = (orgId: string | null) =>
  useGet<Paginated<Site>>(orgId === null ? null : `/orgs/sites${qs({ orgId, limit: 100 })}`);
