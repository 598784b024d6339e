import { EXPLICIT_API_KEY_SCOPES } from '../contract/keys';
import type { Db } from '../db/connection';
import { directGrants, roleLink } from '../modules/roles/grant-store';
import type { AuthContext } from './auth-context';
import { forbidden } from './errors';

// Spec 1 uses two permission vocabularies "as given": roles hold `resource:action` with the actions view, create,
// update, delete, execute; routes check named constants with read, write, delete, execute, invite, acknowledge.
// A route permission is held when a role in the caller's chain holds the same string, a wildcard, or one of the
// role-vocabulary actions that mean it (read <- view; write <- create or update; invite <- create; ...).

export const PERMISSIONS = {
  DEVICES_READ: 'devices:read',
  DEVICES_WRITE: 'devices:write',
  DEVICES_DELETE: 'devices:delete',
  DEVICES_EXECUTE: 'devices:execute',
  SCRIPTS_READ: 'scripts:read',
  SCRIPTS_WRITE: 'scripts:write',
  SCRIPTS_DELETE: 'scripts:delete',
  SCRIPTS_EXECUTE: 'scripts:execute',
  ALERTS_READ: 'alerts:read',
  ALERTS_WRITE: 'alerts:write',
  ALERTS_DELETE: 'alerts:delete',
  ALERTS_ACKNOWLEDGE: 'alerts:acknowledge',
  USERS_READ: 'users:read',
  USERS_WRITE: 'users:write',
  USERS_DELETE: 'users:delete',
  USERS_INVITE: 'users:invite',
  ORGANIZATIONS_READ: 'organizations:read',
  ORGANIZATIONS_WRITE: 'organizations:write',
  ORGANIZATIONS_DELETE: 'organizations:delete',
  SITES_READ: 'sites:read',
  SITES_WRITE: 'sites:write',
  SITES_DELETE: 'sites:delete',
  AUTOMATIONS_READ: 'automations:read',
  AUTOMATIONS_WRITE: 'automations:write',
  AUTOMATIONS_DELETE: 'automations:delete',
  REMOTE_ACCESS: 'remote:access',
  AUDIT_READ: 'audit:read',
  AUDIT_EXPORT: 'audit:export',
  PAM_MANAGE_POLICY: 'pam:manage_policy',
  PAM_APPROVE: 'pam:approve',
  ALL: '*:*',
} as const;

export type Permission = (typeof PERMISSIONS)[keyof typeof PERMISSIONS];

/** Role-vocabulary resources and actions offered by the role editor (spec 1, Role and permission). */
export const ROLE_RESOURCES = [
  'devices',
  'scripts',
  'alerts',
  'automations',
  'reports',
  'users',
  'settings',
  'organizations',
  'sites',
  'remote',
] as const;
export const ROLE_ACTIONS = ['view', 'create', 'update', 'delete', 'execute'] as const;
/** Permissions outside the resource x action grid that routes check by name. */
export const SPECIAL_PERMISSIONS = [
  { resource: 'audit', action: 'read', description: 'Read the audit log' },
  { resource: 'audit', action: 'export', description: 'Export the audit log' },
  { resource: 'pam', action: 'manage_policy', description: 'Manage privileged-access rules and policy' },
  { resource: 'pam', action: 'approve', description: 'Approve or deny elevation requests' },
] as const;

/** Route action -> role actions that grant it. */
const GRANTED_BY: Record<string, readonly string[]> = {
  read: ['read', 'view'],
  write: ['write', 'create', 'update'],
  delete: ['delete'],
  execute: ['execute'],
  invite: ['invite', 'create'],
  acknowledge: ['acknowledge', 'update'],
  access: ['access', 'execute'],
};

export interface PermissionGrant {
  resource: string;
  action: string;
}

export function grantsPermission(held: readonly PermissionGrant[], required: Permission): boolean {
  const [resource, action] = required.split(':') as [string, string];
  const actions = GRANTED_BY[action] ?? [action];
  return held.some(
    (p) =>
      (p.resource === '*' && p.action === '*') ||
      ((p.resource === resource || p.resource === '*') && (p.action === '*' || actions.includes(p.action))),
  );
}

/** A role chain is at most this deep; a longer chain is treated as broken rather than followed forever. */
export const MAX_ROLE_DEPTH = 16;

/** The role and its ancestors, nearest first. Stops at a repeated id, so a corrupt cycle cannot hang a request. */
export function roleChain(db: Db, roleId: string): Array<{ id: string; name: string }> {
  const chain: Array<{ id: string; name: string }> = [];
  const seen = new Set<string>();
  let next: string | null = roleId;
  while (next && !seen.has(next) && chain.length < MAX_ROLE_DEPTH) {
    seen.add(next);
    const row = roleLink(db, next);
    if (!row) break;
    chain.push({ id: row.id, name: row.name });
    next = row.parent_role_id;
  }
  return chain;
}

/** Direct and inherited permissions of a role, each with the role that contributes it. */
export function effectivePermissions(
  db: Db,
  roleId: string,
): Array<PermissionGrant & { sourceRoleId: string; sourceRoleName: string; inherited: boolean }> {
  const out: Array<PermissionGrant & { sourceRoleId: string; sourceRoleName: string; inherited: boolean }> =
    [];
  const seen = new Set<string>();
  roleChain(db, roleId).forEach((role, depth) => {
    for (const p of directGrants(db, role.id)) {
      const key = `${p.resource}:${p.action}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ ...p, sourceRoleId: role.id, sourceRoleName: role.name, inherited: depth > 0 });
    }
  });
  return out;
}

const explicitOnly = (permission: Permission): boolean =>
  (EXPLICIT_API_KEY_SCOPES as readonly string[]).includes(permission);

/**
 * Whether the caller holds the permission: a user through its role chain, an API key through its scopes (`*`
 * passes every check except the scopes a key must be granted by name, EXPLICIT_API_KEY_SCOPES).
 */
export function callerHolds(db: Db, auth: AuthContext, required: Permission): boolean {
  if (auth.kind === 'api_key') {
    return auth.scopes.includes(required) || (auth.scopes.includes('*') && !explicitOnly(required));
  }
  if (!auth.roleId) return false;
  return grantsPermission(effectivePermissions(db, auth.roleId), required);
}

/** The named route permissions a role chain grants: what the console may offer the user. */
export function heldPermissions(db: Db, roleId: string | null): Permission[] {
  if (!roleId) return [];
  const held = effectivePermissions(db, roleId);
  return Object.values(PERMISSIONS).filter((p) => p !== PERMISSIONS.ALL && grantsPermission(held, p));
}

export function assertPermission(db: Db, auth: AuthContext, required: Permission): void {
  if (callerHolds(db, auth, required)) return;
  if (auth.kind === 'api_key') {
    // The spec's message; for a scope `*` does not cover, say which one and why, or the key looks sufficient.
    if (explicitOnly(required)) {
      throw forbidden('API key does not have required permissions', 'API_KEY_SCOPE_REQUIRED', {
        required,
        detail: `This action needs the ${required} scope granted by name; * does not include it.`,
      });
    }
    throw forbidden('API key does not have required permissions');
  }
  throw forbidden('Insufficient permissions', 'PERMISSION_DENIED', { required });
}
