import { statement, type Db } from '../../db/connection';

// The role an acting user holds, by name: the writer records it on each entry (the role at the time of the
// entry), and reads fall back to the current one for entries written before it was recorded. A user may belong to
// several organizations, so the entry's own organization is preferred, then the partner, then the platform.

/**
 * SQL for the current role name of `a.actor_id` (a user), preferring the association of `a.org_id`. Used in the
 * SELECT of reads over `audit_logs a`; placeholders none.
 */
export const CURRENT_ROLE_SQL = `(SELECT r.name FROM roles r WHERE r.id = COALESCE(
    (SELECT ou.role_id FROM organization_users ou WHERE ou.user_id = a.actor_id AND ou.org_id = a.org_id),
    (SELECT pu.role_id FROM partner_users pu WHERE pu.user_id = a.actor_id ORDER BY pu.created_at LIMIT 1),
    (SELECT pa.role_id FROM platform_admins pa WHERE pa.user_id = a.actor_id),
    (SELECT ou.role_id FROM organization_users ou WHERE ou.user_id = a.actor_id ORDER BY ou.created_at LIMIT 1)))`;

/** The role name a user holds now for an entry of `orgId` (null: none, e.g. a user being removed). */
export function actorRoleName(db: Db, userId: string, orgId: string | null): string | null {
  const row = statement(
    db,
    `SELECT ${CURRENT_ROLE_SQL} AS name FROM (SELECT ? AS actor_id, ? AS org_id) a`,
  ).get(userId, orgId) as { name: string | null } | undefined;
  return row?.name ?? null;
}
