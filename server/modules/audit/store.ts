import type { AuditCategory, AuditEntry, AuditResult } from '../../contract';
import { statement, type Db } from '../../db/connection';
import { likeContains } from '../../db/like';
import { pagedQuery } from '../../db/paged';
import type { PageRequest } from '../../http/pagination';
import type { OrgScope, Restrictions } from '../../http/scope';
import { CURRENT_ROLE_SQL } from './actor-store';
import { auditRestrictionClause } from './visibility';

// Reading the audit log (spec 2 "Audit logs"): one WHERE built from the caller's scope and the filters serves the
// lists, search, one entry, the streamed export and the reports, so they can never disagree on what a caller sees.

export interface AuditFilters {
  user?: string | undefined;
  action?: string | undefined;
  resource?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  result?: AuditResult | undefined;
  category?: AuditCategory | undefined;
  /** One organization of the scope (the route has checked it is in scope). */
  orgId?: string | undefined;
  /** Exact actions (reports: the spec's security or compliance actions). */
  actions?: readonly string[] | undefined;
  /** Free text (search): case-insensitive substring across action, actor email, resource type and name, details. */
  q?: string | undefined;
}

/** The organizations a caller reads, and the partner whose own chain it also reads (null: none). */
export interface AuditScope {
  orgs: OrgScope;
  partnerId: string | null;
  /** An organization user's sites and device groups: entries about devices outside them stay hidden. */
  restrictions: Restrictions;
}

/** Spec 2: the category of `a.action`, from its prefix (GLOB: case-sensitive, as action names are). */
export const CATEGORY_SQL = `(CASE
  WHEN a.action IN ('user.login', 'user.logout', 'user.permission') OR a.action GLOB 'user.login.*'
    OR a.action GLOB 'user.logout.*' OR a.action GLOB 'user.permission.*' THEN 'authentication'
  WHEN a.action GLOB 'device.*' THEN 'device'
  WHEN a.action GLOB 'script.*' THEN 'automation'
  WHEN a.action GLOB 'policy.*' OR a.action GLOB 'automation.policy.*' THEN 'policy'
  WHEN a.action GLOB 'alert.*' THEN 'alert'
  WHEN a.action GLOB 'data.*' THEN 'compliance'
  WHEN a.action GLOB 'organization.*' THEN 'organization'
  ELSE 'system' END)`;

/** Below this length the trigram index cannot answer (a trigram is 3 characters): LIKE scans instead. */
const TRIGRAM_MIN = 3;

export interface AuditWhere {
  where: string[];
  params: unknown[];
  /** The user filter reads users.name: the FROM needs the join. */
  joinUsers: boolean;
}

const containsLower = (value: string) => likeContains(value.toLowerCase());

export function auditWhere(scope: AuditScope, filters: AuditFilters): AuditWhere {
  const where: string[] = [];
  const params: unknown[] = [];
  if (scope.orgs.kind === 'some') {
    // Tenant isolation: only the caller's organizations (and its partner's own chain); an empty scope matches
    // nothing. Without a partner chain the organizations alone are asked for: the OR keeps SQLite from using the
    // organization index (a count over a million rows goes from a scan to an index range).
    const orgs = JSON.stringify([...scope.orgs.orgIds]);
    if (scope.partnerId === null) {
      where.push('a.org_id IN (SELECT value FROM json_each(?))');
      params.push(orgs);
    } else {
      where.push(`(a.org_id IN (SELECT value FROM json_each(?)) OR (a.org_id IS NULL AND a.partner_id = ?))`);
      params.push(orgs, scope.partnerId);
    }
  }
  const restricted = auditRestrictionClause(scope.restrictions);
  if (restricted) {
    where.push(restricted.sql);
    params.push(...restricted.params);
  }
  if (filters.orgId) {
    where.push('a.org_id = ?');
    params.push(filters.orgId);
  }
  if (filters.user) {
    where.push(`(lower(a.actor_email) LIKE ? ESCAPE '\\' OR lower(u.name) LIKE ? ESCAPE '\\')`);
    params.push(containsLower(filters.user), containsLower(filters.user));
  }
  if (filters.action) {
    where.push(`lower(a.action) LIKE ? ESCAPE '\\'`);
    params.push(containsLower(filters.action));
  }
  if (filters.resource) {
    where.push(`(lower(a.resource_type) LIKE ? ESCAPE '\\' OR lower(a.resource_name) LIKE ? ESCAPE '\\')`);
    params.push(containsLower(filters.resource), containsLower(filters.resource));
  }
  if (filters.from) {
    where.push('a.timestamp >= ?');
    params.push(new Date(filters.from).toISOString());
  }
  if (filters.to) {
    where.push('a.timestamp <= ?');
    params.push(new Date(filters.to).toISOString());
  }
  if (filters.actions) {
    where.push('a.action IN (SELECT value FROM json_each(?))');
    params.push(JSON.stringify(filters.actions));
  }
  if (filters.result) {
    where.push('a.result = ?');
    params.push(filters.result);
  }
  if (filters.category) {
    where.push(`${CATEGORY_SQL} = ?`);
    params.push(filters.category);
  }
  if (filters.q) {
    if (filters.q.length >= TRIGRAM_MIN) {
      // The trigram index matches a quoted phrase as a case-insensitive substring of any of its five columns.
      where.push('a.seq IN (SELECT rowid FROM audit_logs_fts WHERE audit_logs_fts MATCH ?)');
      params.push(`"${filters.q.replace(/"/g, '""')}"`);
    } else {
      const text = containsLower(filters.q);
      const columns = ['a.action', 'a.actor_email', 'a.resource_type', 'a.resource_name', 'a.details'];
      where.push(`(${columns.map((c) => `lower(${c}) LIKE ? ESCAPE '\\'`).join(' OR ')})`);
      params.push(...columns.map(() => text));
    }
  }
  return { where, params, joinUsers: Boolean(filters.user) };
}

export const fromOf = (w: Pick<AuditWhere, 'joinUsers'>) =>
  w.joinUsers ? 'audit_logs a LEFT JOIN users u ON u.id = a.actor_id' : 'audit_logs a';

/** Columns of an entry row: the stored ones, the actor's name, role (recorded, else current) and category. */
const ENTRY_SELECT = `a.*, (SELECT name FROM users WHERE id = a.actor_id) AS actor_name,
  COALESCE(a.actor_role, CASE WHEN a.actor_type = 'user' THEN ${CURRENT_ROLE_SQL} END) AS role,
  ${CATEGORY_SQL} AS category`;

interface EntryRow {
  id: string;
  org_id: string | null;
  partner_id: string | null;
  timestamp: string;
  actor_type: AuditEntry['actorType'];
  actor_id: string;
  actor_email: string | null;
  actor_name: string | null;
  role: string | null;
  action: string;
  category: AuditCategory;
  resource_type: string;
  resource_id: string | null;
  resource_name: string | null;
  result: AuditResult;
  error_message: string | null;
  ip_address: string | null;
  user_agent: string | null;
  session_id: string | null;
  details: string;
}

const objectOrNull = (value: unknown): Record<string, unknown> | null =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;

function toEntry(r: EntryRow): AuditEntry {
  const details = JSON.parse(r.details) as Record<string, unknown>;
  return {
    id: r.id,
    timestamp: r.timestamp,
    user: { id: r.actor_id, name: r.actor_name, email: r.actor_email, role: r.role },
    action: r.action,
    resource: { type: r.resource_type, id: r.resource_id, name: r.resource_name },
    category: r.category,
    result: r.result,
    ipAddress: r.ip_address,
    userAgent: r.user_agent,
    details,
    orgId: r.org_id,
    partnerId: r.partner_id,
    actorType: r.actor_type,
    errorMessage: r.error_message,
    sessionId: r.session_id,
    changes: { before: objectOrNull(details.before), after: objectOrNull(details.after) },
  };
}

export function listAuditEntries(
  db: Db,
  scope: AuditScope,
  filters: AuditFilters,
  page: PageRequest,
): { rows: AuditEntry[]; total: number } {
  const w = auditWhere(scope, filters);
  const { rows, total } = pagedQuery<EntryRow>(db, {
    select: ENTRY_SELECT,
    from: fromOf(w),
    where: w.where,
    params: w.params,
    orderBy: 'a.seq DESC',
    page,
  });
  return { total, rows: rows.map(toEntry) };
}

/** One entry in the caller's scope (undefined: missing or out of scope, the same 404 for both). */
export function findAuditEntry(db: Db, scope: AuditScope, id: string): AuditEntry | undefined {
  const w = auditWhere(scope, {});
  const row = statement(
    db,
    `SELECT ${ENTRY_SELECT} FROM audit_logs a WHERE a.id = ? ${w.where.map((c) => `AND ${c}`).join(' ')}`,
  ).get(id, ...w.params) as EntryRow | undefined;
  return row && toEntry(row);
}

export function countAuditEntries(db: Db, w: AuditWhere): number {
  const where = w.where.length ? `WHERE ${w.where.join(' AND ')}` : '';
  return (statement(db, `SELECT COUNT(*) AS n FROM ${fromOf(w)} ${where}`).get(...w.params) as { n: number })
    .n;
}

/** The newest seq written so far: an export reads up to it, so rows written while it streams stay out. */
export function newestSeq(db: Db): number {
  return (statement(db, 'SELECT COALESCE(MAX(seq), 0) AS seq FROM audit_logs').get() as { seq: number }).seq;
}

/**
 * The next `limit` matching entries below `beforeSeq`, newest first, iterated from one prepared statement. The
 * export asks chunk by chunk (keyset on seq) instead of holding one statement open across its awaits: the
 * connection is shared, and better-sqlite3 refuses other statements while an iteration is in progress.
 */
export function auditEntriesBefore(
  db: Db,
  w: AuditWhere,
  beforeSeq: number,
  limit: number,
): Array<{ seq: number; entry: AuditEntry }> {
  const where = ['a.seq < ?', ...w.where].join(' AND ');
  const rows = statement(
    db,
    `SELECT ${ENTRY_SELECT} FROM ${fromOf(w)} WHERE ${where} ORDER BY a.seq DESC LIMIT ?`,
  ).iterate(beforeSeq, ...w.params, limit) as IterableIterator<EntryRow & { seq: number }>;
  const chunk: Array<{ seq: number; entry: AuditEntry }> = [];
  for (const row of rows) chunk.push({ seq: row.seq, entry: toEntry(row) });
  return chunk;
}

/** The visibility rule (visibility.ts) run on one entry pushed to a console. */
export function auditEntryVisible(
  db: Db,
  r: Restrictions,
  entry: { resourceType: string; resourceId: string | null },
): boolean {
  const clause = auditRestrictionClause(r);
  if (!clause) return true;
  // The clause's placeholders come first in the statement text, the entry's two after them.
  const sql = `SELECT ${clause.sql} AS ok FROM (SELECT ? AS resource_type, ? AS resource_id) a`;
  const row = statement(db, sql).get(...clause.params, entry.resourceType, entry.resourceId) as
    { ok: number } | undefined;
  return row?.ok === 1;
}
