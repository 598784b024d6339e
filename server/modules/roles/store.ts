import { randomUUID } from 'node:crypto';
import type { Role, RolePermission, Scope } from '../../contract';
import type { Db } from '../../db/connection';
import type { UserAuth } from '../../http/auth-context';
import type { PermissionGrant } from '../../http/permissions';
import { resolveOrgScope, scopeFilter } from '../../http/scope';
import type { Visibility, Tenant } from '../users';
import { transaction } from '../../db/after-commit';

// Roles and their permissions in SQLite, as free functions of the database (prepared per call: role editing is rare).

export interface RoleRow {
  id: string;
  partner_id: string | null;
  org_id: string | null;
  parent_role_id: string | null;
  scope: Scope;
  name: string;
  description: string | null;
  is_system: 0 | 1;
  created_at: string;
  updated_at: string;
}

/**
 * The roles a caller sees, as a condition over the alias `r`. System scope: all. Partner scope: partner roles
 * that are built in or the partner's own, and organization roles that are built in or belong to an organization
 * the caller may access. Organization scope: organization roles that are built in or the organization's own.
 */
export function roleVisibility(db: Db, auth: UserAuth): Visibility {
  if (auth.scope === 'system') return { clause: '1 = 1', params: [] };
  if (auth.scope === 'partner') {
    const orgs = scopeFilter(resolveOrgScope(db, auth), 'r.org_id');
    return {
      clause: `((r.scope = 'partner' AND r.org_id IS NULL AND (r.partner_id IS NULL OR r.partner_id = ?))
        OR (r.scope = 'organization' AND (r.partner_id IS NULL OR r.partner_id = ?)
            AND (r.org_id IS NULL OR ${orgs.clause})))`,
      params: [auth.partnerId, auth.partnerId, ...orgs.params],
    };
  }
  return {
    clause: `(r.scope = 'organization' AND (r.partner_id IS NULL OR r.partner_id = ?)
      AND (r.org_id IS NULL OR r.org_id = ?))`,
    params: [auth.partnerId, auth.orgId],
  };
}

/** Whether a role may be held by (assigned in, or inherited by a role of) the tenant. */
export function roleAvailableTo(role: RoleRow, tenant: Tenant): boolean {
  if (role.scope !== tenant.scope) return false;
  if (tenant.scope === 'system') return role.partner_id === null && role.org_id === null;
  if (tenant.scope === 'partner')
    return role.org_id === null && (role.partner_id === null || role.partner_id === tenant.partnerId);
  return (
    (role.org_id === null || role.org_id === tenant.orgId) &&
    (role.partner_id === null || role.partner_id === tenant.partnerId)
  );
}

export function roleById(db: Db, id: string): RoleRow | undefined {
  return db.prepare('SELECT * FROM roles WHERE id = ?').get(id) as RoleRow | undefined;
}

export function visibleRoleById(db: Db, visibility: Visibility, id: string): RoleRow | undefined {
  return db
    .prepare(`SELECT r.* FROM roles r WHERE r.id = ? AND ${visibility.clause}`)
    .get(id, ...visibility.params) as RoleRow | undefined;
}

export function listVisibleRoles(db: Db, visibility: Visibility): RoleRow[] {
  return db
    .prepare(
      `SELECT r.* FROM roles r WHERE ${visibility.clause}
       ORDER BY CASE r.scope WHEN 'system' THEN 0 WHEN 'partner' THEN 1 ELSE 2 END, r.is_system DESC,
                r.name COLLATE NOCASE`,
    )
    .all(...visibility.params) as RoleRow[];
}

/** The tenant a role belongs to, or null for a built-in role shared by every tenant of its scope. */
export function tenantOfRole(db: Db, role: RoleRow): Tenant | null {
  if (role.org_id) {
    const org = db.prepare('SELECT partner_id FROM organizations WHERE id = ?').get(role.org_id) as
      { partner_id: string } | undefined;
    return org ? { scope: 'organization', orgId: role.org_id, partnerId: org.partner_id } : null;
  }
  if (role.partner_id && role.scope === 'partner') return { scope: 'partner', partnerId: role.partner_id };
  if (role.scope === 'system' && role.is_system === 0) return { scope: 'system' };
  return null;
}

/** Another role with this name (case-insensitive) that the tenant could also hold. */
export function roleNameTaken(db: Db, tenant: Tenant, name: string, exceptId: string | null): boolean {
  const rows = db
    .prepare('SELECT * FROM roles WHERE scope = ? AND name = ? COLLATE NOCASE AND id IS NOT ?')
    .all(tenant.scope, name, exceptId) as RoleRow[];
  return rows.some((r) => roleAvailableTo(r, tenant));
}

export function rolePermissions(db: Db, roleId: string): RolePermission[] {
  return db
    .prepare('SELECT resource, action FROM role_permissions WHERE role_id = ? ORDER BY resource, action')
    .all(roleId) as RolePermission[];
}

export function replaceRolePermissions(
  db: Db,
  roleId: string,
  permissions: readonly PermissionGrant[],
): void {
  db.prepare('DELETE FROM role_permissions WHERE role_id = ?').run(roleId);
  const insert = db.prepare('INSERT INTO role_permissions (role_id, resource, action) VALUES (?, ?, ?)');
  for (const p of permissions) insert.run(roleId, p.resource, p.action);
}

export function insertRole(
  db: Db,
  fields: {
    tenant: Tenant;
    name: string;
    description: string | null;
    parentRoleId: string | null;
    permissions: readonly PermissionGrant[];
  },
): RoleRow {
  const id = randomUUID();
  const at = new Date().toISOString();
  const { tenant } = fields;
  transaction(db, () => {
    db.prepare(
      `INSERT INTO roles (id, partner_id, org_id, parent_role_id, scope, name, description, is_system,
           created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?)`,
    ).run(
      id,
      tenant.scope === 'partner' ? tenant.partnerId : null,
      tenant.scope === 'organization' ? tenant.orgId : null,
      fields.parentRoleId,
      tenant.scope,
      fields.name,
      fields.description,
      at,
      at,
    );
    replaceRolePermissions(db, id, fields.permissions);
  });
  return roleById(db, id)!;
}

export function updateRoleRow(
  db: Db,
  roleId: string,
  fields: {
    name?: string | undefined;
    description?: string | null | undefined;
    parentRoleId?: string | null | undefined;
    permissions?: readonly PermissionGrant[] | undefined;
  },
): RoleRow {
  transaction(db, () => {
    const sets: string[] = ['updated_at = ?'];
    const params: unknown[] = [new Date().toISOString()];
    if (fields.name !== undefined) {
      sets.push('name = ?');
      params.push(fields.name);
    }
    if (fields.description !== undefined) {
      sets.push('description = ?');
      params.push(fields.description);
    }
    if (fields.parentRoleId !== undefined) {
      sets.push('parent_role_id = ?');
      params.push(fields.parentRoleId);
    }
    db.prepare(`UPDATE roles SET ${sets.join(', ')} WHERE id = ?`).run(...params, roleId);
    if (fields.permissions) replaceRolePermissions(db, roleId, fields.permissions);
  });
  return roleById(db, roleId)!;
}

export function deleteRoleRow(db: Db, roleId: string): void {
  db.prepare('DELETE FROM roles WHERE id = ?').run(roleId);
}

/** Every holder of the role in any tenant: what blocks a delete (and a foreign key would anyway). */
export function roleAssignmentCount(db: Db, roleId: string): number {
  return (
    db
      .prepare(
        `SELECT (SELECT COUNT(*) FROM partner_users WHERE role_id = @id)
              + (SELECT COUNT(*) FROM organization_users WHERE role_id = @id)
              + (SELECT COUNT(*) FROM platform_admins WHERE role_id = @id) AS n`,
      )
      .get({ id: roleId }) as { n: number }
  ).n;
}

export function roleChildCount(db: Db, roleId: string): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM roles WHERE parent_role_id = ?').get(roleId) as { n: number })
    .n;
}

/** Levels of roles below this one (0 when it has no children); bounded so a corrupt cycle ends. */
export function roleDescendantDepth(db: Db, roleId: string): number {
  const row = db
    .prepare(
      `WITH RECURSIVE d(id, depth) AS (
         SELECT id, 1 FROM roles WHERE parent_role_id = ?
         UNION ALL
         SELECT r.id, d.depth + 1 FROM roles r JOIN d ON r.parent_role_id = d.id WHERE d.depth < 64
       ) SELECT MAX(depth) AS depth FROM d`,
    )
    .get(roleId) as { depth: number | null };
  return row.depth ?? 0;
}

export function toRole(row: RoleRow, userCount: number): Role {
  return {
    id: row.id,
    partnerId: row.partner_id,
    orgId: row.org_id,
    parentRoleId: row.parent_role_id,
    scope: row.scope,
    name: row.name,
    description: row.description,
    isSystem: row.is_system === 1,
    userCount,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
