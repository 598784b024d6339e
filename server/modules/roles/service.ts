import type { Request } from 'express';
import type {
  AvailablePermissionsResponse,
  EffectivePermissionsResponse,
  Role,
  RoleDetail,
  UserListResponse,
} from '../../contract';
import type { AppContext } from '../../context';
import { type UserAuth } from '../../http/auth-context';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../http/errors';
import { paginated, type PageRequest } from '../../http/pagination';
import {
  effectivePermissions,
  MAX_ROLE_DEPTH,
  ROLE_ACTIONS,
  ROLE_RESOURCES,
  SPECIAL_PERMISSIONS,
  type PermissionGrant,
} from '../../http/permissions';
import { auditCaller } from '../audit';
import {
  listUsers,
  roleUserCounts,
  toUserSummary,
  userVisibility,
  requireAdminContext,
  resolveTenant,
  type Tenant,
} from '../users';
import {
  deleteRoleRow,
  insertRole,
  listVisibleRoles,
  roleAssignmentCount,
  roleAvailableTo,
  roleById,
  roleChildCount,
  roleDescendantDepth,
  roleNameTaken,
  rolePermissions,
  roleVisibility,
  tenantOfRole,
  toRole,
  updateRoleRow,
  visibleRoleById,
  type RoleRow,
} from './store';

// Role rules (spec 1, Role and permission): built-in roles are immutable, custom roles belong to one tenant and
// inherit from at most one parent of the same scope, the chain never loops, and nobody hands out (by role edit,
// clone or assignment) a permission they do not hold themselves.

const VALID_PERMISSIONS = new Set<string>([
  ...ROLE_RESOURCES.flatMap((resource) => ROLE_ACTIONS.map((action) => `${resource}:${action}`)),
  ...SPECIAL_PERMISSIONS.map((p) => `${p.resource}:${p.action}`),
  '*:*',
]);

const key = (p: PermissionGrant) => `${p.resource}:${p.action}`;

/** Refuses anything outside the role vocabulary; drops duplicates. */
export function normalizePermissions(permissions: readonly PermissionGrant[]): PermissionGrant[] {
  const out = new Map<string, PermissionGrant>();
  for (const p of permissions) {
    const resource = p.resource.trim();
    const action = p.action.trim();
    const k = `${resource}:${action}`;
    if (!VALID_PERMISSIONS.has(k)) throw badRequest(`Unknown permission: ${k}`, 'INVALID_PERMISSION');
    out.set(k, { resource, action });
  }
  return [...out.values()].sort((a, b) => key(a).localeCompare(key(b)));
}

/** A held grant covers a wanted one literally, with `*` matching any resource or action. */
const covers = (held: PermissionGrant, wanted: PermissionGrant) =>
  (held.resource === '*' || held.resource === wanted.resource) &&
  (held.action === '*' || held.action === wanted.action);

export function callerPermissions(ctx: AppContext, auth: UserAuth): PermissionGrant[] {
  return auth.roleId ? effectivePermissions(ctx.db, auth.roleId) : [];
}

/**
 * Refuses when `wanted` contains a permission the caller does not hold. Used for every grant (role edits,
 * clones, invitations, role assignment) and before acting on a user or role that holds more than the caller.
 */
export function assertCovered(
  ctx: AppContext,
  auth: UserAuth,
  wanted: readonly PermissionGrant[],
  message = 'Cannot grant permissions you do not hold',
): void {
  const held = callerPermissions(ctx, auth);
  const missing = wanted.filter((w) => !held.some((h) => covers(h, w)));
  if (missing.length > 0)
    throw forbidden(message, 'PERMISSION_ESCALATION', { missing: [...new Set(missing.map(key))] });
}

/** A role the tenant may hold, for invitations and assignments. Any other id is the same 400. */
export function assignableRole(ctx: AppContext, roleId: string, tenant: Tenant): RoleRow {
  const role = roleById(ctx.db, roleId);
  if (!role || !roleAvailableTo(role, tenant)) throw badRequest('Role is not available in this scope');
  return role;
}

function auditRole(
  ctx: AppContext,
  auth: UserAuth,
  req: Request,
  role: RoleRow,
  action: string,
  details: Record<string, unknown>,
): void {
  auditCaller(ctx, req, auth, {
    orgId: role.org_id,
    // A partner's own role belongs to that partner's chain; built-in and system roles to the platform's.
    partnerId: role.org_id ? null : role.partner_id,
    action,
    resourceType: 'role',
    resourceId: role.id,
    resourceName: role.name,
    details,
  });
}

function userCounts(ctx: AppContext, auth: UserAuth): Map<string, number> {
  return roleUserCounts(ctx.db, userVisibility(ctx.db, auth));
}

/** A role the caller sees, or 404: roles of other tenants do not exist for them. */
export function visibleRole(ctx: AppContext, auth: UserAuth, roleId: string): RoleRow {
  const role = visibleRoleById(ctx.db, roleVisibility(ctx.db, auth), roleId);
  if (!role) throw notFound('Role not found');
  return role;
}

function roleDetail(ctx: AppContext, auth: UserAuth, role: RoleRow): RoleDetail {
  return {
    ...toRole(role, userCounts(ctx, auth).get(role.id) ?? 0),
    permissions: rolePermissions(ctx.db, role.id),
  };
}

/** Visible roles; naming a tenant narrows the list to the roles that tenant may hold. */
export function listRoles(
  ctx: AppContext,
  auth: UserAuth,
  named: { partnerId?: string | undefined; orgId?: string | undefined },
): Role[] {
  requireAdminContext(ctx.db, auth, { fullPartnerAccess: false });
  const tenant = named.partnerId || named.orgId ? resolveTenant(ctx.db, auth, named) : null;
  const counts = userCounts(ctx, auth);
  return listVisibleRoles(ctx.db, roleVisibility(ctx.db, auth))
    .filter((r) => !tenant || roleAvailableTo(r, tenant))
    .map((r) => toRole(r, counts.get(r.id) ?? 0));
}

export function getRole(ctx: AppContext, auth: UserAuth, roleId: string): RoleDetail {
  requireAdminContext(ctx.db, auth, { fullPartnerAccess: false });
  return roleDetail(ctx, auth, visibleRole(ctx, auth, roleId));
}

export function roleEffectivePermissions(
  ctx: AppContext,
  auth: UserAuth,
  roleId: string,
): EffectivePermissionsResponse {
  requireAdminContext(ctx.db, auth, { fullPartnerAccess: false });
  const role = visibleRole(ctx, auth, roleId);
  return { roleId: role.id, permissions: effectivePermissions(ctx.db, role.id) };
}

export function roleUsers(
  ctx: AppContext,
  auth: UserAuth,
  roleId: string,
  page: PageRequest,
): UserListResponse {
  requireAdminContext(ctx.db, auth, { fullPartnerAccess: false });
  const role = visibleRole(ctx, auth, roleId);
  const { rows, total } = listUsers(ctx.db, userVisibility(ctx.db, auth), { roleId: role.id }, page);
  return paginated(rows.map(toUserSummary), page, total);
}

export function availablePermissions(): AvailablePermissionsResponse {
  return {
    resources: [...ROLE_RESOURCES],
    actions: [...ROLE_ACTIONS],
    special: SPECIAL_PERMISSIONS.map((p) => ({ ...p })),
  };
}

/** A parent for a role of `tenant`: visible to the caller, same scope, one the tenant could hold itself. */
function parentFor(ctx: AppContext, auth: UserAuth, tenant: Tenant, parentRoleId: string): RoleRow {
  const parent = visibleRoleById(ctx.db, roleVisibility(ctx.db, auth), parentRoleId);
  if (!parent) throw badRequest('Parent role not found');
  if (!roleAvailableTo(parent, tenant))
    throw badRequest('Parent role must have the same scope and belong to the same tenant');
  return parent;
}

function chainLength(ctx: AppContext, parentRoleId: string, childId: string | null): number {
  let length = 0;
  const seen = new Set<string>();
  let next: string | null = parentRoleId;
  while (next) {
    if (next === childId || seen.has(next))
      throw badRequest('Invalid parentRoleId: circular inheritance rejected', 'CIRCULAR_INHERITANCE');
    seen.add(next);
    length += 1;
    next = roleById(ctx.db, next)?.parent_role_id ?? null;
  }
  return length;
}

function assertNameFree(ctx: AppContext, tenant: Tenant, name: string, exceptId: string | null): void {
  if (roleNameTaken(ctx.db, tenant, name, exceptId))
    throw conflict('A role with this name already exists', 'ROLE_NAME_TAKEN');
}

export function createRole(
  ctx: AppContext,
  auth: UserAuth,
  req: Request,
  body: {
    name: string;
    description?: string | null | undefined;
    permissions: PermissionGrant[];
    parentRoleId?: string | null | undefined;
    partnerId?: string | undefined;
    orgId?: string | undefined;
  },
): RoleDetail {
  requireAdminContext(ctx.db, auth, { fullPartnerAccess: true });
  const tenant = resolveTenant(ctx.db, auth, body);
  const permissions = normalizePermissions(body.permissions);
  let inherited: PermissionGrant[] = [];
  if (body.parentRoleId) {
    const parent = parentFor(ctx, auth, tenant, body.parentRoleId);
    if (chainLength(ctx, parent.id, null) + 1 > MAX_ROLE_DEPTH)
      throw badRequest(`Role inheritance is limited to ${MAX_ROLE_DEPTH} levels`);
    inherited = effectivePermissions(ctx.db, parent.id);
  }
  assertCovered(ctx, auth, [...permissions, ...inherited]);
  assertNameFree(ctx, tenant, body.name, null);
  const role = insertRole(ctx.db, {
    tenant,
    name: body.name,
    description: body.description ?? null,
    parentRoleId: body.parentRoleId ?? null,
    permissions,
  });
  auditRole(ctx, auth, req, role, 'role.create', {
    scope: role.scope,
    partnerId: role.partner_id,
    parentRoleId: role.parent_role_id,
    permissions: permissions.map(key),
  });
  return roleDetail(ctx, auth, role);
}

/** A custom role the caller may change: visible, not built in, and holding nothing the caller lacks. */
function writableRole(ctx: AppContext, auth: UserAuth, roleId: string, systemMessage: string): RoleRow {
  const role = visibleRole(ctx, auth, roleId);
  if (role.is_system === 1) throw badRequest(systemMessage);
  assertCovered(
    ctx,
    auth,
    effectivePermissions(ctx.db, role.id),
    'Cannot manage a role that holds permissions you do not hold',
  );
  return role;
}

export function updateRole(
  ctx: AppContext,
  auth: UserAuth,
  req: Request,
  roleId: string,
  body: {
    name?: string | undefined;
    description?: string | null | undefined;
    permissions?: PermissionGrant[] | undefined;
    parentRoleId?: string | null | undefined;
  },
): RoleDetail {
  requireAdminContext(ctx.db, auth, { fullPartnerAccess: true });
  const role = writableRole(ctx, auth, roleId, 'Cannot modify system roles');
  const changedFields = (['name', 'description', 'permissions', 'parentRoleId'] as const).filter(
    (f) => body[f] !== undefined,
  );
  if (changedFields.length === 0) throw badRequest('No updates provided');
  const tenant = tenantOfRole(ctx.db, role);
  if (!tenant) throw notFound('Role not found');
  const permissions =
    body.permissions !== undefined
      ? normalizePermissions(body.permissions)
      : rolePermissions(ctx.db, role.id);
  const parentId = body.parentRoleId !== undefined ? body.parentRoleId : role.parent_role_id;
  let inherited: PermissionGrant[] = [];
  if (body.parentRoleId) {
    const parent = parentFor(ctx, auth, tenant, body.parentRoleId);
    const depth = chainLength(ctx, parent.id, role.id) + 1 + roleDescendantDepth(ctx.db, role.id);
    if (depth > MAX_ROLE_DEPTH) throw badRequest(`Role inheritance is limited to ${MAX_ROLE_DEPTH} levels`);
  }
  if (parentId) inherited = effectivePermissions(ctx.db, parentId);
  assertCovered(ctx, auth, [...permissions, ...inherited]);
  if (body.name !== undefined) assertNameFree(ctx, tenant, body.name, role.id);
  const updated = updateRoleRow(ctx.db, role.id, {
    name: body.name,
    description: body.description,
    parentRoleId: body.parentRoleId,
    permissions: body.permissions !== undefined ? permissions : undefined,
  });
  auditRole(ctx, auth, req, updated, 'role.update', {
    changedFields,
    ...(body.permissions !== undefined ? { permissions: permissions.map(key) } : {}),
    ...(body.parentRoleId !== undefined ? { parentRoleId: body.parentRoleId } : {}),
  });
  return roleDetail(ctx, auth, updated);
}

export function deleteRole(ctx: AppContext, auth: UserAuth, req: Request, roleId: string): { success: true } {
  requireAdminContext(ctx.db, auth, { fullPartnerAccess: true });
  const role = writableRole(ctx, auth, roleId, 'Cannot delete system roles');
  const userCount = roleAssignmentCount(ctx.db, role.id);
  const childRoleCount = roleChildCount(ctx.db, role.id);
  if (userCount > 0)
    throw badRequest('Cannot delete role with assigned users', 'ROLE_IN_USE', {
      userCount,
      childRoleCount,
    });
  if (childRoleCount > 0)
    throw badRequest('Cannot delete role with child roles', 'ROLE_HAS_CHILDREN', {
      userCount,
      childRoleCount,
    });
  try {
    deleteRoleRow(ctx.db, role.id);
  } catch (err) {
    // Another table (an access review, an SSO default role) still points at it.
    if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY')
      throw new HttpError(409, 'Role is still in use', 'ROLE_IN_USE');
    throw err;
  }
  auditRole(ctx, auth, req, role, 'role.delete', { scope: role.scope, partnerId: role.partner_id });
  return { success: true };
}

/**
 * Copies the source's effective permissions (its own and inherited) into a new custom role without a parent, so
 * the copy grants exactly what the source grants today. The copy goes to the tenant the body names, else the
 * source's own tenant, else (a built-in source) the caller's tenant.
 */
export function cloneRole(
  ctx: AppContext,
  auth: UserAuth,
  req: Request,
  roleId: string,
  body: { name: string; partnerId?: string | undefined; orgId?: string | undefined },
): RoleDetail {
  requireAdminContext(ctx.db, auth, { fullPartnerAccess: true });
  const source = visibleRole(ctx, auth, roleId);
  const tenant =
    body.partnerId || body.orgId
      ? resolveTenant(ctx.db, auth, body)
      : (tenantOfRole(ctx.db, source) ?? resolveTenant(ctx.db, auth, {}));
  const permissions = effectivePermissions(ctx.db, source.id).map((p) => ({
    resource: p.resource,
    action: p.action,
  }));
  assertCovered(ctx, auth, permissions);
  assertNameFree(ctx, tenant, body.name, null);
  const role = insertRole(ctx.db, {
    tenant,
    name: body.name,
    description: source.description,
    parentRoleId: null,
    permissions,
  });
  auditRole(ctx, auth, req, role, 'role.clone', {
    sourceRoleId: source.id,
    sourceRoleName: source.name,
    scope: role.scope,
    partnerId: role.partner_id,
  });
  return roleDetail(ctx, auth, role);
}
