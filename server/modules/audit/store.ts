import { statement, type Db } from '../../db/connection';
import { pagedQuery } from '../../db/paged';
import type { PageRequest } from '../../http/pagination';
import type { OrgScope, Restrictions } from '../../http/scope';
import { likeContains } from '../../db/like';
import { auditRestrictionClause } from './visibility';

// Reading the audit log in the full format of spec 2 (`GET /audit-logs/logs`).

export interface AuditEntryView {
  id: string;
  orgId: string | null;
  timestamp: string;
  user: { id: string; name: string | null; email: string | null; role: string | null };
  action: string;
  resource: { type: string; id: string | null; name: string | null };
  category: string;
  result: string;
  ipAddress: string | null;
  userAgent: string | null;
  details: Record<string, unknown>;
}

export interface AuditFilters {
  user?: string | undefined;
  action?: string | undefined;
  resource?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** Spec 2: categories derive from the action prefix. */
export function categoryOf(action: string): string {
  if (
    ['user.login', 'user.logout', 'user.permission'].some((p) => action === p || action.startsWith(`${p}.`))
  )
    return 'authentication';
  if (action.startsWith('device.')) return 'device';
  if (action.startsWith('script.')) return 'automation';
  if (action.startsWith('policy.') || action.startsWith('automation.policy.')) return 'policy';
  if (action.startsWith('alert.')) return 'alert';
  if (action.startsWith('data.')) return 'compliance';
  if (action.startsWith('organization.')) return 'organization';
  return 'system';
}

interface Row {
  id: string;
  org_id: string | null;
  timestamp: string;
  actor_id: string;
  actor_email: string | null;
  actor_name: string | null;
  action: string;
  resource_type: string;
  resource_id: string | null;
  resource_name: string | null;
  result: string;
  ip_address: string | null;
  user_agent: string | null;
  details: string;
}

const containsLower = (value: string) => likeContains(value.toLowerCase());

/** The organizations a caller reads, and the partner whose own chain it also reads (null: none). */
export interface AuditScope {
  orgs: OrgScope;
  partnerId: string | null;
  /** An organization user's sites and device groups: entries about devices outside them stay hidden. */
  restrictions: Restrictions;
}

export function listAuditEntries(
  db: Db,
  scope: AuditScope,
  filters: AuditFilters,
  page: PageRequest,
): { rows: AuditEntryView[]; total: number } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (scope.orgs.kind === 'some') {
    // Tenant isolation: only the caller's organizations (and its partner's own chain); an empty scope matches
    // nothing.
    where.push(`(a.org_id IN (SELECT value FROM json_each(?)) OR (a.org_id IS NULL AND a.partner_id = ?))`);
    params.push(JSON.stringify([...scope.orgs.orgIds]), scope.partnerId);
  }
  const restricted = auditRestrictionClause(scope.restrictions);
  if (restricted) {
    where.push(restricted.sql);
    params.push(...restricted.params);
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
  const { rows, total } = pagedQuery<Row>(db, {
    select: 'a.*, u.name AS actor_name',
    from: 'audit_logs a LEFT JOIN users u ON u.id = a.actor_id',
    where,
    params,
    orderBy: 'a.seq DESC',
    page,
  });
  return {
    total,
    rows: rows.map((r) => ({
      id: r.id,
      orgId: r.org_id,
      timestamp: r.timestamp,
      user: { id: r.actor_id, name: r.actor_name, email: r.actor_email, role: null },
      action: r.action,
      resource: { type: r.resource_type, id: r.resource_id, name: r.resource_name },
      category: categoryOf(r.action),
      result: r.result,
      ipAddress: r.ip_address,
      userAgent: r.user_agent,
      details: JSON.parse(r.details) as Record<string, unknown>,
    })),
  };
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
