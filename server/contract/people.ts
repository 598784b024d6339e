import type { Pagination, Scope } from './common';

// Users, roles and permissions (spec 1, /users and /roles).

export type OrgAccess = 'all' | 'selected' | 'none';
export type UserStatus = 'active' | 'invited' | 'disabled';

/** Where a user stands in the caller's tenant: a partner-user or an organization-user association. */
export interface UserAssociation {
  scope: Scope;
  partnerId: string | null;
  orgId: string | null;
  roleId: string;
  roleName: string;
  /** Partner users only. */
  orgAccess?: OrgAccess;
  orgIds?: string[];
  /** Organization users only; null means all sites and device groups. */
  siteIds?: string[] | null;
  deviceGroupIds?: string[] | null;
}

export interface UserSummary {
  id: string;
  email: string;
  name: string;
  avatarUrl: string | null;
  status: UserStatus;
  mfaEnabled: boolean;
  mfaMethod: 'totp' | 'sms' | null;
  lastLoginAt: string | null;
  createdAt: string;
  association: UserAssociation;
}

export interface UserProfile {
  id: string;
  email: string;
  name: string;
  avatarUrl: string | null;
  status: UserStatus;
  mfaEnabled: boolean;
  mfaMethod: 'totp' | 'sms' | null;
  phoneNumber: string | null;
  phoneVerified: boolean;
  lastLoginAt: string | null;
  passwordChangedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface RolePermission {
  resource: string;
  action: string;
}

export interface Role {
  id: string;
  partnerId: string | null;
  orgId: string | null;
  parentRoleId: string | null;
  scope: Scope;
  name: string;
  description: string | null;
  isSystem: boolean;
  userCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface RoleDetail extends Role {
  permissions: RolePermission[];
}

export interface EffectivePermission extends RolePermission {
  sourceRoleId: string;
  sourceRoleName: string;
  inherited: boolean;
}

export interface EffectivePermissionsResponse {
  roleId: string;
  permissions: EffectivePermission[];
}

/**
 * The permission resources Gatehouse has features for: each is checked by at least one route, and every route
 * checks only these (test/integration/permission-catalog.test.ts holds both sides to it). Spec 1's role vocabulary
 * and API-key scope strings also name scripts, alerts, automations, reports, remote and settings, for features
 * Gatehouse does not have: the API still accepts them (the spec's catalog is the contract), the console's role and
 * scope pickers offer only these.
 */
export const GATEHOUSE_PERMISSION_RESOURCES = [
  'devices',
  'users',
  'organizations',
  'sites',
  'audit',
  'pam',
] as const;
export type GatehousePermissionResource = (typeof GATEHOUSE_PERMISSION_RESOURCES)[number];

export interface AvailablePermissionsResponse {
  resources: string[];
  actions: string[];
  /** Named permissions outside the resource x action grid (audit, privileged access). */
  special: Array<RolePermission & { description: string }>;
}

/** `GET /users`, `GET /roles/:id/users`. */
export interface UserListResponse {
  data: UserSummary[];
  pagination: Pagination;
}

/** `GET /roles`, `GET /users/roles`: not paginated (a tenant has few roles). */
export interface RoleListResponse {
  data: Role[];
}

/** `POST /users/resend-invite`. */
export interface InviteResendResponse {
  success: true;
  expiresAt: string;
}
