import type { OrgAccess, Scope, UserAssociation } from '../../contract';
import { statement, type Db } from '../../db/connection';
import { likeContains } from '../../db/like';
import { pagedQuery } from '../../db/paged';
import type { PageRequest } from '../../http/pagination';
import type { UserRow } from './store';

// The SQL of the user directory (directory.ts decides who sees whom): every association in one shape, and the
// queries that list, find and count users through the associations a Visibility admits.

/** A SQL condition over the `a` alias of the association rows, with its parameters in order. */
export interface Visibility {
  clause: string;
  params: unknown[];
}

/**
 * Every association in one shape. Associations to soft-deleted partners and organizations are left out: they
 * no longer give access (membershipOf in store.ts ignores them too).
 */
const ASSOCIATIONS = `assoc AS (
  SELECT pa.user_id, 'system' AS a_scope, NULL AS a_partner_id, NULL AS a_org_id, pa.role_id,
         NULL AS org_access, NULL AS org_ids, NULL AS site_ids, NULL AS device_group_ids,
         pa.created_at AS a_created_at, 0 AS a_rank
    FROM platform_admins pa
  UNION ALL
  SELECT pu.user_id, 'partner', pu.partner_id, NULL, pu.role_id, pu.org_access, pu.org_ids, NULL, NULL,
         pu.created_at, 1
    FROM partner_users pu JOIN partners p ON p.id = pu.partner_id
   WHERE p.deleted_at IS NULL
  UNION ALL
  SELECT ou.user_id, 'organization', o.partner_id, ou.org_id, ou.role_id, NULL, NULL, ou.site_ids,
         ou.device_group_ids, ou.created_at, 2
    FROM organization_users ou JOIN organizations o ON o.id = ou.org_id
   WHERE o.deleted_at IS NULL
)`;

interface DirectoryRow extends UserRow {
  a_scope: Scope;
  a_partner_id: string | null;
  a_org_id: string | null;
  a_role_id: string;
  a_role_name: string;
  a_org_access: OrgAccess | null;
  a_org_ids: string | null;
  a_site_ids: string | null;
  a_device_group_ids: string | null;
}

/** A user together with the association through which the caller sees them. */
export interface DirectoryEntry {
  user: UserRow;
  association: UserAssociation;
}

function parseIds(json: string | null): string[] | null {
  if (json === null) return null;
  const value = JSON.parse(json) as unknown;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : null;
}

function toEntry(row: DirectoryRow): DirectoryEntry {
  const association: UserAssociation = {
    scope: row.a_scope,
    partnerId: row.a_partner_id,
    orgId: row.a_org_id,
    roleId: row.a_role_id,
    roleName: row.a_role_name,
  };
  if (row.a_scope === 'partner') {
    association.orgAccess = row.a_org_access ?? 'none';
    association.orgIds = parseIds(row.a_org_ids) ?? [];
  } else if (row.a_scope === 'organization') {
    association.siteIds = parseIds(row.a_site_ids);
    association.deviceGroupIds = parseIds(row.a_device_group_ids);
  }
  // The users table has no `a_` columns: everything else on the row is the account itself.
  const user = Object.fromEntries(Object.entries(row).filter(([key]) => !key.startsWith('a_')));
  return { user: user as unknown as UserRow, association };
}

export interface DirectoryFilters {
  q?: string | undefined;
  status?: 'active' | 'invited' | 'disabled' | undefined;
  roleId?: string | undefined;
  userId?: string | undefined;
}

function query(visibility: Visibility, filters: DirectoryFilters): { sql: string; params: unknown[] } {
  const where = ['v.rn = 1'];
  const params: unknown[] = [...visibility.params];
  if (filters.userId) {
    where.push('u.id = ?');
    params.push(filters.userId);
  }
  if (filters.q) {
    where.push("(u.name LIKE ? ESCAPE '\\' OR u.email LIKE ? ESCAPE '\\')");
    params.push(likeContains(filters.q), likeContains(filters.q));
  }
  if (filters.status) {
    where.push('u.status = ?');
    params.push(filters.status);
  }
  if (filters.roleId) {
    where.push('v.role_id = ?');
    params.push(filters.roleId);
  }
  // One row per user: should an account ever hold two associations visible to the caller, the one that
  // decides its sign-in scope (platform, then partner, then organization, then oldest) is shown.
  const sql = `WITH ${ASSOCIATIONS},
    visible AS (
      SELECT a.*, ROW_NUMBER() OVER (PARTITION BY a.user_id ORDER BY a.a_rank, a.a_created_at) AS rn
        FROM assoc a WHERE ${visibility.clause}
    )
    SELECT u.*, v.a_scope, v.a_partner_id, v.a_org_id, v.role_id AS a_role_id, r.name AS a_role_name,
           v.org_access AS a_org_access, v.org_ids AS a_org_ids, v.site_ids AS a_site_ids,
           v.device_group_ids AS a_device_group_ids
      FROM visible v JOIN users u ON u.id = v.user_id JOIN roles r ON r.id = v.role_id
     WHERE ${where.join(' AND ')}`;
  return { sql, params };
}

export function listUsers(
  db: Db,
  visibility: Visibility,
  filters: DirectoryFilters,
  page: PageRequest,
): { rows: DirectoryEntry[]; total: number } {
  const { sql, params } = query(visibility, filters);
  // The directory query starts with its own WITH clause, so it is paged as a subquery.
  const { rows, total } = pagedQuery<DirectoryRow>(db, {
    select: '*',
    from: `(${sql}) AS d`,
    params,
    orderBy: 'd.name COLLATE NOCASE, d.email',
    page,
  });
  return { rows: rows.map(toEntry), total };
}

/** The user as the caller sees them, or undefined when they are outside the caller's scope. */
export function findUser(db: Db, visibility: Visibility, userId: string): DirectoryEntry | undefined {
  const { sql, params } = query(visibility, { userId });
  const row = statement(db, sql).get(...params) as DirectoryRow | undefined;
  return row ? toEntry(row) : undefined;
}

/** Users per role among the associations the caller sees (built-in roles are shared by every tenant). */
export function roleUserCounts(db: Db, visibility: Visibility): Map<string, number> {
  const rows = statement(
    db,
    `WITH ${ASSOCIATIONS},
       visible AS (
         SELECT a.*, ROW_NUMBER() OVER (PARTITION BY a.user_id ORDER BY a.a_rank, a.a_created_at) AS rn
           FROM assoc a WHERE ${visibility.clause}
       )
       SELECT role_id, COUNT(*) AS n FROM visible WHERE rn = 1 GROUP BY role_id`,
  ).all(...visibility.params) as Array<{ role_id: string; n: number }>;
  return new Map(rows.map((r) => [r.role_id, r.n]));
}

/** Whether the account holds any live association (one account belongs to one tenant). */
export function hasAssociation(db: Db, userId: string): boolean {
  return (
    statement(db, `WITH ${ASSOCIATIONS} SELECT 1 FROM assoc WHERE user_id = ? LIMIT 1`).get(userId) !==
    undefined
  );
}
