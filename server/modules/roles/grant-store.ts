import { statement, type Db } from '../../db/connection';

// The role reads every permission check makes (server/http/permissions.ts walks a role's chain and gathers its
// grants). Kept apart from store.ts, which depends on the request layer, so the check depends on nothing but these.

export function roleLink(
  db: Db,
  roleId: string,
): { id: string; name: string; parent_role_id: string | null } | undefined {
  return statement(db, 'SELECT id, name, parent_role_id FROM roles WHERE id = ?').get(roleId) as
    { id: string; name: string; parent_role_id: string | null } | undefined;
}

/** The role's own grants (not inherited ones), in a stable order. */
export function directGrants(db: Db, roleId: string): Array<{ resource: string; action: string }> {
  return statement(
    db,
    'SELECT resource, action FROM role_permissions WHERE role_id = ? ORDER BY resource, action',
  ).all(roleId) as Array<{ resource: string; action: string }>;
}
