import {
  GATEHOUSE_PERMISSION_RESOURCES,
  type AvailablePermissionsResponse,
  type Role,
} from '../../../../server/contract';

// What a role may inherit and grant, as the server decides it: the permission vocabulary shown when the server
// cannot say, full administration, which roles a tenant may hold, and where a new role lives.

/** What the role list and the role editor say when the caller's role cannot read roles. */
export const ROLES_FORBIDDEN = {
  title: 'Roles are not available to your account',
  text: 'Roles are managed inside a partner or an organization.',
};

/**
 * The vocabulary the role editor offers: the server's (spec 1's whole catalog) without the resources of features
 * Gatehouse does not have (scripts, alerts, automations, reports, remote, settings), which no check reads. A role
 * that already holds one keeps it: the form sends back every permission it was given.
 */
export function offeredVocabulary(all: AvailablePermissionsResponse): AvailablePermissionsResponse {
  const offered = new Set<string>(GATEHOUSE_PERMISSION_RESOURCES);
  return {
    ...all,
    resources: all.resources.filter((r) => offered.has(r)),
    special: all.special.filter((p) => offered.has(p.resource)),
  };
}

/** Shown while the server's vocabulary loads or when it cannot say. */
export const FALLBACK: AvailablePermissionsResponse = {
  resources: ['devices', 'users', 'organizations', 'sites'],
  actions: ['view', 'create', 'update', 'delete', 'execute'],
  special: [
    { resource: 'audit', action: 'read', description: 'Read the audit log' },
    { resource: 'audit', action: 'export', description: 'Export the audit log' },
    { resource: 'pam', action: 'manage_policy', description: 'Manage privileged-access rules and policy' },
    { resource: 'pam', action: 'approve', description: 'Approve or deny elevation requests' },
  ],
};

export const FULL = '*:*';

/** A held `resource:action` covers a wanted one literally, with `*` matching any resource or action. */
export function covers(held: string, wanted: string): boolean {
  const [hr, ha] = held.split(':');
  const [wr, wa] = wanted.split(':');
  return (hr === '*' || hr === wr) && (ha === '*' || ha === wa);
}

export type Tenant =
  | { scope: 'system' }
  | { scope: 'partner'; partnerId: string | null }
  | { scope: 'organization'; orgId: string | null };

/** Mirrors the server's rule for which roles a tenant may hold (and so inherit from). */
export function availableTo(role: Role, tenant: Tenant): boolean {
  if (role.scope !== tenant.scope) return false;
  if (tenant.scope === 'system') return role.partnerId === null && role.orgId === null;
  if (tenant.scope === 'partner')
    return (
      role.orgId === null &&
      (role.partnerId === null || tenant.partnerId === null || role.partnerId === tenant.partnerId)
    );
  return role.orgId === null || tenant.orgId === null || role.orgId === tenant.orgId;
}

export function tenantOfRole(role: Role): Tenant {
  if (role.scope === 'system') return { scope: 'system' };
  if (role.scope === 'partner') return { scope: 'partner', partnerId: role.partnerId };
  return { scope: 'organization', orgId: role.orgId };
}

/** The tenant a new role is created in, from the "Belongs to" choice (`system`, `p:<id>`, `o:<id>` or empty). */
export function tenantOfTarget(target: string, callerScope: string | null): Tenant {
  if (target === 'system') return { scope: 'system' };
  if (target.startsWith('p:')) return { scope: 'partner', partnerId: target.slice(2) };
  if (target.startsWith('o:')) return { scope: 'organization', orgId: target.slice(2) };
  return callerScope === 'organization'
    ? { scope: 'organization', orgId: null }
    : { scope: 'partner', partnerId: null };
}

/** Whether `candidate` inherits (directly or further down) from `roleId`: as its parent it would close a loop. */
export function inheritsFrom(candidate: Role, roleId: string, byId: Map<string, Role>): boolean {
  const seen = new Set<string>();
  let next: string | null = candidate.id;
  while (next && !seen.has(next)) {
    if (next === roleId) return true;
    seen.add(next);
    next = byId.get(next)?.parentRoleId ?? null;
  }
  return false;
}
