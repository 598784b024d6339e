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
import { roleAvailableTo, roleVisibility, RoleStore, toRole, type RoleRow } from './store';

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
  const role = new RoleStore(ctx.db).byId(roleId);
  if (!role || !roleAvailableTo(role, tenant)) throw badRequest('Role is not available in this scope');
  return role;
}

export class RoleService {
  private readonly store: RoleStore;

  constructor(private readonly ctx: AppContext) {
    this.store = new RoleStore(ctx.db);
  }

  private audit(
    auth: UserAuth,
    req: Request,
    role: RoleRow,
    action: string,
    details: Record<string, unknown>,
  ): void {
    auditCaller(this.ctx, req, auth, {
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

  private counts(auth: UserAuth): Map<string, number> {
    return roleUserCounts(this.ctx.db, userVisibility(this.ctx.db, auth));
  }

  /** A role the caller sees, or 404: roles of other tenants do not exist for them. */
  visible(auth: UserAuth, roleId: string): RoleRow {
    const role = this.store.visibleById(roleVisibility(this.ctx.db, auth), roleId);
    if (!role) throw notFound('Role not found');
    return role;
  }

  private detail(auth: UserAuth, role: RoleRow): RoleDetail {
    return {
      ...toRole(role, this.counts(auth).get(role.id) ?? 0),
      permissions: this.store.permissions(role.id),
    };
  }

  /** Visible roles; naming a tenant narrows the list to the roles that tenant may hold. */
  list(auth: UserAuth, named: { partnerId?: string | undefined; orgId?: string | undefined }): Role[] {
    requireAdminContext(this.ctx.db, auth, { fullPartnerAccess: false });
    const tenant = named.partnerId || named.orgId ? resolveTenant(this.ctx.db, auth, named) : null;
    const counts = this.counts(auth);
    return this.store
      .listVisible(roleVisibility(this.ctx.db, auth))
      .filter((r) => !tenant || roleAvailableTo(r, tenant))
      .map((r) => toRole(r, counts.get(r.id) ?? 0));
  }

  get(auth: UserAuth, roleId: string): RoleDetail {
    requireAdminContext(this.ctx.db, auth, { fullPartnerAccess: false });
    return this.detail(auth, this.visible(auth, roleId));
  }

  effective(auth: UserAuth, roleId: string): EffectivePermissionsResponse {
    requireAdminContext(this.ctx.db, auth, { fullPartnerAccess: false });
    const role = this.visible(auth, roleId);
    return { roleId: role.id, permissions: effectivePermissions(this.ctx.db, role.id) };
  }

  users(auth: UserAuth, roleId: string, page: PageRequest): UserListResponse {
    requireAdminContext(this.ctx.db, auth, { fullPartnerAccess: false });
    const role = this.visible(auth, roleId);
    const { rows, total } = listUsers(
      this.ctx.db,
      userVisibility(this.ctx.db, auth),
      { roleId: role.id },
      page,
    );
    return paginated(rows.map(toUserSummary), page, total);
  }

  available(): AvailablePermissionsResponse {
    return {
      resources: [...ROLE_RESOURCES],
      actions: [...ROLE_ACTIONS],
      special: SPECIAL_PERMISSIONS.map((p) => ({ ...p })),
    };
  }

  /** A parent for a role of `tenant`: visible to the caller, same scope, one the tenant could hold itself. */
  private parentFor(auth: UserAuth, tenant: Tenant, parentRoleId: string): RoleRow {
    const parent = this.store.visibleById(roleVisibility(this.ctx.db, auth), parentRoleId);
    if (!parent) throw badRequest('Parent role not found');
    if (!roleAvailableTo(parent, tenant))
      throw badRequest('Parent role must have the same scope and belong to the same tenant');
    return parent;
  }

  private chainLength(parentRoleId: string, childId: string | null): number {
    let length = 0;
    const seen = new Set<string>();
    let next: string | null = parentRoleId;
    while (next) {
      if (next === childId || seen.has(next))
        throw badRequest('Invalid parentRoleId: circular inheritance rejected', 'CIRCULAR_INHERITANCE');
      seen.add(next);
      length += 1;
      next = this.store.byId(next)?.parent_role_id ?? null;
    }
    return length;
  }

  private assertNameFree(tenant: Tenant, name: string, exceptId: string | null): void {
    if (this.store.nameTaken(tenant, name, exceptId))
      throw conflict('A role with this name already exists', 'ROLE_NAME_TAKEN');
  }

  create(
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
    requireAdminContext(this.ctx.db, auth, { fullPartnerAccess: true });
    const tenant = resolveTenant(this.ctx.db, auth, body);
    const permissions = normalizePermissions(body.permissions);
    let inherited: PermissionGrant[] = [];
    if (body.parentRoleId) {
      const parent = this.parentFor(auth, tenant, body.parentRoleId);
      if (this.chainLength(parent.id, null) + 1 > MAX_ROLE_DEPTH)
        throw badRequest(`Role inheritance is limited to ${MAX_ROLE_DEPTH} levels`);
      inherited = effectivePermissions(this.ctx.db, parent.id);
    }
    assertCovered(this.ctx, auth, [...permissions, ...inherited]);
    this.assertNameFree(tenant, body.name, null);
    const role = this.store.insert({
      tenant,
      name: body.name,
      description: body.description ?? null,
      parentRoleId: body.parentRoleId ?? null,
      permissions,
    });
    this.audit(auth, req, role, 'role.create', {
      scope: role.scope,
      partnerId: role.partner_id,
      parentRoleId: role.parent_role_id,
      permissions: permissions.map(key),
    });
    return this.detail(auth, role);
  }

  /** A custom role the caller may change: visible, not built in, and holding nothing the caller lacks. */
  private writable(auth: UserAuth, roleId: string, systemMessage: string): RoleRow {
    const role = this.visible(auth, roleId);
    if (role.is_system === 1) throw badRequest(systemMessage);
    assertCovered(
      this.ctx,
      auth,
      effectivePermissions(this.ctx.db, role.id),
      'Cannot manage a role that holds permissions you do not hold',
    );
    return role;
  }

  update(
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
    requireAdminContext(this.ctx.db, auth, { fullPartnerAccess: true });
    const role = this.writable(auth, roleId, 'Cannot modify system roles');
    const changedFields = (['name', 'description', 'permissions', 'parentRoleId'] as const).filter(
      (f) => body[f] !== undefined,
    );
    if (changedFields.length === 0) throw badRequest('No updates provided');
    const tenant = this.store.tenantOf(role);
    if (!tenant) throw notFound('Role not found');
    const permissions =
      body.permissions !== undefined
        ? normalizePermissions(body.permissions)
        : this.store.permissions(role.id);
    const parentId = body.parentRoleId !== undefined ? body.parentRoleId : role.parent_role_id;
    let inherited: PermissionGrant[] = [];
    if (body.parentRoleId) {
      const parent = this.parentFor(auth, tenant, body.parentRoleId);
      const depth = this.chainLength(parent.id, role.id) + 1 + this.store.descendantDepth(role.id);
      if (depth > MAX_ROLE_DEPTH) throw badRequest(`Role inheritance is limited to ${MAX_ROLE_DEPTH} levels`);
    }
    if (parentId) inherited = effectivePermissions(this.ctx.db, parentId);
    assertCovered(this.ctx, auth, [...permissions, ...inherited]);
    if (body.name !== undefined) this.assertNameFree(tenant, body.name, role.id);
    const updated = this.store.update(role.id, {
      name: body.name,
      description: body.description,
      parentRoleId: body.parentRoleId,
      permissions: body.permissions !== undefined ? permissions : undefined,
    });
    this.audit(auth, req, updated, 'role.update', {
      changedFields,
      ...(body.permissions !== undefined ? { permissions: permissions.map(key) } : {}),
      ...(body.parentRoleId !== undefined ? { parentRoleId: body.parentRoleId } : {}),
    });
    return this.detail(auth, updated);
  }

  delete(auth: UserAuth, req: Request, roleId: string): { success: true } {
    requireAdminContext(this.ctx.db, auth, { fullPartnerAccess: true });
    const role = this.writable(auth, roleId, 'Cannot delete system roles');
    const userCount = this.store.assignmentCount(role.id);
    const childRoleCount = this.store.childCount(role.id);
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
      this.store.delete(role.id);
    } catch (err) {
      // Another table (an access review, an SSO default role) still points at it.
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY')
        throw new HttpError(409, 'Role is still in use', 'ROLE_IN_USE');
      throw err;
    }
    this.audit(auth, req, role, 'role.delete', { scope: role.scope, partnerId: role.partner_id });
    return { success: true };
  }

  /**
   * Copies the source's effective permissions (its own and inherited) into a new custom role without a parent, so
   * the copy grants exactly what the source grants today. The copy goes to the tenant the body names, else the
   * source's own tenant, else (a built-in source) the caller's tenant.
   */
  clone(
    auth: UserAuth,
    req: Request,
    roleId: string,
    body: { name: string; partnerId?: string | undefined; orgId?: string | undefined },
  ): RoleDetail {
    requireAdminContext(this.ctx.db, auth, { fullPartnerAccess: true });
    const source = this.visible(auth, roleId);
    const tenant =
      body.partnerId || body.orgId
        ? resolveTenant(this.ctx.db, auth, body)
        : (this.store.tenantOf(source) ?? resolveTenant(this.ctx.db, auth, {}));
    const permissions = effectivePermissions(this.ctx.db, source.id).map((p) => ({
      resource: p.resource,
      action: p.action,
    }));
    assertCovered(this.ctx, auth, permissions);
    this.assertNameFree(tenant, body.name, null);
    const role = this.store.insert({
      tenant,
      name: body.name,
      description: source.description,
      parentRoleId: null,
      permissions,
    });
    this.audit(auth, req, role, 'role.clone', {
      sourceRoleId: source.id,
      sourceRoleName: source.name,
      scope: role.scope,
      partnerId: role.partner_id,
    });
    return this.detail(auth, role);
  }
}
