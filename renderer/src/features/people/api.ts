import type {
  CreateRoleBody,
  InviteUserBody,
  TenantQuery,
  UpdateRoleBody,
  UserListQuery,
} from '../../../../server/contract';
import { call } from '../../lib/api/endpoints';
import { useApiQuery } from '../../lib/query';

export type { CreateRoleBody, InviteUserBody, UpdateRoleBody };

// The users and roles endpoints (spec 1), typed by the contract, and their cached reads. Every key starts with
// 'people'.

export const peopleApi = {
  invite: (body: InviteUserBody) => call('POST /users/invite', { body }),
  resendInvite: (userId: string) => call('POST /users/resend-invite', { body: { userId } }),
  setRole: (userId: string, roleId: string) =>
    call('POST /users/:id/role', { params: { id: userId }, body: { roleId } }),
  setStatus: (userId: string, status: 'active' | 'disabled') =>
    call('PATCH /users/:id', { params: { id: userId }, body: { status } }),
  removeUser: (userId: string) => call('DELETE /users/:id', { params: { id: userId } }),

  createRole: (body: CreateRoleBody) => call('POST /roles', { body }),
  updateRole: (id: string, body: UpdateRoleBody) => call('PATCH /roles/:id', { params: { id }, body }),
  cloneRole: (id: string, name: string) => call('POST /roles/:id/clone', { params: { id }, body: { name } }),
  deleteRole: (id: string) => call('DELETE /roles/:id', { params: { id } }),
};

export const useUsers = (query: UserListQuery) =>
  useApiQuery(['people', 'users', query], () => call('GET /users', { query }));
export const useRoles = () => useApiQuery(['people', 'roles'], () => call('GET /roles'));
/** The roles a tenant may hold (null: no tenant chosen yet). */
export const useAssignableRoles = (query: TenantQuery | null) =>
  useApiQuery(query === null ? null : ['people', 'assignable-roles', query], () =>
    call('GET /users/roles', { query: query ?? {} }),
  );
export const useRole = (id: string | null) =>
  useApiQuery(id ? ['people', 'role', id] : null, () => call('GET /roles/:id', { params: { id: id ?? '' } }));
export const useRoleUsers = (id: string, query: { page: number; limit: number }) =>
  useApiQuery(['people', 'role-users', id, query], () =>
    call('GET /roles/:id/users', { params: { id }, query }),
  );
export const useAvailablePermissions = () =>
  useApiQuery(['people', 'available-permissions'], () => call('GET /roles/permissions/available'));
export const useEffectivePermissions = (id: string | null) =>
  useApiQuery(id ? ['people', 'effective-permissions', id] : null, () =>
    call('GET /roles/:id/effective-permissions', { params: { id: id ?? '' } }),
  );
export const useOrgSites = (orgId: string | null) =>
  useApiQuery(orgId === null ? null : ['people', 'org-sites', orgId], () =>
    call('GET /orgs/sites', { query: { orgId: orgId ?? '', limit: 100 } }),
  );
