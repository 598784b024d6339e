import type {
  AvailablePermissionsResponse,
  EffectivePermissionsResponse,
  InviteResendResponse,
  OrgAccess,
  RoleDetail,
  RoleListResponse,
  RolePermission,
  UserListResponse,
  UserStatus,
  UserSummary,
} from '../people';
import type { Endpoint } from './endpoint';

// /users and /roles (spec 1), and the one /orgs read the invitation needs (the sites of its organization).

export interface UserListQuery {
  q?: string;
  status?: UserStatus;
  page?: number;
  limit: number;
}

/** The tenant whose roles are listed (none: the caller's own). */
export interface TenantQuery {
  partnerId?: string;
  orgId?: string;
}

/**
 * A partner user carries `orgAccess` and `orgIds`, an organization user `siteIds`; `partnerId` / `orgId` name the
 * tenant (without them, the caller's own).
 */
export interface InviteUserBody {
  email: string;
  name: string;
  roleId: string;
  partnerId?: string;
  orgId?: string;
  orgAccess?: OrgAccess;
  orgIds?: string[];
  siteIds?: string[];
}

export interface CreateRoleBody {
  name: string;
  description: string | null;
  permissions: RolePermission[];
  parentRoleId?: string;
  partnerId?: string;
  orgId?: string;
}

/** Only the fields that changed; `null` clears the description or the parent. */
export interface UpdateRoleBody {
  name?: string;
  description?: string | null;
  permissions?: RolePermission[];
  parentRoleId?: string | null;
}

export interface PeopleEndpoints {
  'GET /users': Endpoint<UserListResponse, undefined, UserListQuery>;
  'GET /users/roles': Endpoint<RoleListResponse, undefined, TenantQuery>;
  'POST /users/invite': Endpoint<UserSummary, InviteUserBody>;
  'POST /users/resend-invite': Endpoint<InviteResendResponse, { userId: string }>;
  'PATCH /users/:id': Endpoint<UserSummary, { status: 'active' | 'disabled' }>;
  'DELETE /users/:id': Endpoint<{ success: true }>;
  'POST /users/:id/role': Endpoint<UserSummary, { roleId: string }>;
  'GET /roles': Endpoint<RoleListResponse>;
  'POST /roles': Endpoint<RoleDetail, CreateRoleBody>;
  'GET /roles/permissions/available': Endpoint<AvailablePermissionsResponse>;
  'GET /roles/:id': Endpoint<RoleDetail>;
  'PATCH /roles/:id': Endpoint<RoleDetail, UpdateRoleBody>;
  'DELETE /roles/:id': Endpoint<{ success: true }>;
  'POST /roles/:id/clone': Endpoint<RoleDetail, { name: string }>;
  'GET /roles/:id/users': Endpoint<UserListResponse, undefined, { page: number; limit: number }>;
  'GET /roles/:id/effective-permissions': Endpoint<EffectivePermissionsResponse>;
}
