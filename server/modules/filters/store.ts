import type {
  CustomFieldType,
  FilterConditionGroup,
  FilterPreviewDevice,
  SavedFilter,
} from '../../contract/filters';
import type { DeviceStatus, OsType } from '../../contract/devices';
import { statement, type Db } from '../../db/connection';
import type { OrgScope } from '../../http/scope';
import { scopeFilter } from '../../http/scope';
import { likeContains } from '../../db/like';

// SQL of saved filters and of the preview queries. Lists hide filters of soft-deleted organizations whatever the
// caller's scope: they went with their organization.

export interface SavedFilterRow {
  id: string;
  org_id: string;
  name: string;
  description: string | null;
  conditions: string;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export function toSavedFilter(row: SavedFilterRow): SavedFilter {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    description: row.description,
    conditions: JSON.parse(row.conditions) as FilterConditionGroup,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const COLUMNS =
  'f.id, f.org_id, f.name, f.description, f.conditions, f.created_by, f.created_at, f.updated_at';
const LIVE_ORG = 'f.org_id IN (SELECT id FROM organizations WHERE deleted_at IS NULL)';

export interface FilterChanges {
  name?: string;
  description?: string | null;
  conditions?: string;
}

export function filterStore(db: Db) {
  return {
    byId(id: string): SavedFilterRow | undefined {
      return db.prepare(`SELECT ${COLUMNS} FROM saved_filters f WHERE f.id = ? AND ${LIVE_ORG}`).get(id) as
        SavedFilterRow | undefined;
    },

    /** The filter's organization and conditions (JSON text), whatever the state of the organization. */
    conditionsOf(id: string): { org_id: string; conditions: string } | undefined {
      return db.prepare('SELECT org_id, conditions FROM saved_filters WHERE id = ?').get(id) as
        { org_id: string; conditions: string } | undefined;
    },

    /** Newest first; `search` is a case-insensitive substring of the name or the description. */
    list(scope: OrgScope, search: string | undefined): SavedFilterRow[] {
      const scoped = scopeFilter(scope, 'f.org_id');
      const where = [scoped.clause, LIVE_ORG];
      const params: unknown[] = [...scoped.params];
      if (search) {
        where.push("(f.name LIKE ? ESCAPE '\\' OR f.description LIKE ? ESCAPE '\\')");
        const pattern = likeContains(search);
        params.push(pattern, pattern);
      }
      return db
        .prepare(
          `SELECT ${COLUMNS} FROM saved_filters f WHERE ${where.join(' AND ')}
           ORDER BY f.created_at DESC, f.rowid DESC`,
        )
        .all(...params) as SavedFilterRow[];
    },

    insert(row: SavedFilterRow): void {
      db.prepare(
        `INSERT INTO saved_filters (id, org_id, name, description, conditions, created_by, created_at, updated_at)
         VALUES (@id, @org_id, @name, @description, @conditions, @created_by, @created_at, @updated_at)`,
      ).run(row);
    },

    update(id: string, changes: FilterChanges, at: string): boolean {
      const sets: string[] = [];
      const params: unknown[] = [];
      for (const [column, value] of Object.entries(changes)) {
        if (value === undefined) continue;
        sets.push(`${column} = ?`);
        params.push(value);
      }
      sets.push('updated_at = ?');
      params.push(at, id);
      return (
        db.prepare(`UPDATE saved_filters SET ${sets.join(', ')} WHERE id = ?`).run(...params).changes === 1
      );
    },

    delete(id: string): boolean {
      return db.prepare('DELETE FROM saved_filters WHERE id = ?').run(id).changes === 1;
    },
  };
}

/** A WHERE fragment with its positional parameters. */
export interface Clause {
  sql: string;
  params: unknown[];
  /** The same test written so that the planner will not drive the query from it (devices' Clause.broadSql). */
  broadSql?: string;
}

/** A compiled filter in both of its forms (ChildForm in leaf.ts): sets for the count, probes for a dense page. */
export interface PreviewFilter {
  sets: Clause;
  probes: Clause;
}

interface PreviewRow {
  id: string;
  hostname: string;
  display_name: string | null;
  os_type: OsType;
  status: DeviceStatus;
  last_seen_at: string | null;
}

/**
 * The page walks devices_filter in hostname order and stops at the `limit`-th match, so it visits about
 * limit x (devices / matches) devices. With at least this many matches per page row, asking each visited device
 * for its own tags and software (a few index lookups) costs less than building the filter's sets again.
 */
const DENSE_MATCHES_PER_ROW = 8;

/** The count and the page of a preview as statements (previewDevices runs them; tests read their plans). */
export function previewStatements(scope: Clause[], filter: Clause, limit: number) {
  const all: Clause[] = [
    { sql: "d.status <> 'decommissioned'", params: [] },
    { sql: '+d.org_id IN (SELECT id FROM organizations WHERE deleted_at IS NULL)', params: [] },
    ...scope.map((c) => ({ sql: c.broadSql ?? c.sql, params: c.params })),
    filter,
  ];
  const where = all.map((c) => c.sql).join(' AND ');
  const params = all.flatMap((c) => c.params);
  return {
    count: { sql: `SELECT count(*) FROM devices d WHERE ${where}`, params },
    page: {
      sql: `SELECT d.id, d.hostname, d.display_name, d.os_type, d.status, d.last_seen_at FROM devices d
            WHERE ${where} ORDER BY d.hostname COLLATE NOCASE, d.id LIMIT ?`,
      params: [...params, limit],
    },
  };
}

/**
 * The matching devices: the total, then the first `limit` by hostname. Decommissioned devices never match a
 * filter (they are history, not fleet), nor do devices of soft-deleted organizations.
 *
 * Every test is written so that the planner scans the covering index devices_filter rather than driving from the
 * scope or a set (`+column`, Clause.broadSql): one pass over a narrow index whatever the filter, where driving
 * from a large scope or tag set reads the wide devices row of each member. The count runs once; the page then
 * stops early (and for dense matches uses the probe form), so the filter is not paid for twice.
 */
export function previewDevices(
  db: Db,
  scope: Clause[],
  filter: PreviewFilter,
  limit: number,
): { totalCount: number; devices: FilterPreviewDevice[] } {
  const { count } = previewStatements(scope, filter.sets, limit);
  const n = db
    .prepare(count.sql)
    .pluck()
    .get(...count.params) as number;
  if (n === 0) return { totalCount: 0, devices: [] };
  const { page } = previewStatements(
    scope,
    n >= DENSE_MATCHES_PER_ROW * limit ? filter.probes : filter.sets,
    limit,
  );
  const rows = db.prepare(page.sql).all(...page.params) as PreviewRow[];
  return {
    totalCount: n,
    devices: rows.map((r) => ({
      id: r.id,
      hostname: r.hostname,
      displayName: r.display_name,
      osType: r.os_type,
      status: r.status,
      lastSeenAt: r.last_seen_at,
    })),
  };
}

/**
 * Custom-field definitions that apply to these organizations (or to every one with 'all'), most specific first:
 * the organization's own, then its partner's, then global ones; among equals the oldest first.
 */
export function customFieldDefinitions(
  db: Db,
  orgIds: Iterable<string> | 'all',
): Array<{ field_key: string; type: CustomFieldType }> {
  const order = 'ORDER BY (org_id IS NULL) + (org_id IS NULL AND partner_id IS NULL), created_at, id';
  if (orgIds === 'all')
    return statement(db, `SELECT field_key, type FROM custom_fields ${order}`).all() as Array<{
      field_key: string;
      type: CustomFieldType;
    }>;
  const ids = JSON.stringify([...orgIds]);
  return statement(
    db,
    `SELECT field_key, type FROM custom_fields
     WHERE org_id IN (SELECT value FROM json_each(?))
        OR partner_id IN (SELECT partner_id FROM organizations WHERE id IN (SELECT value FROM json_each(?)))
        OR (org_id IS NULL AND partner_id IS NULL)
     ${order}`,
  ).all(ids, ids) as Array<{ field_key: string; type: CustomFieldType }>;
}
