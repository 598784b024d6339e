import {
  AUDIT_CATEGORIES,
  AUDIT_COMPLIANCE_ACTIONS,
  AUDIT_RESULTS,
  AUDIT_SECURITY_ACTIONS,
  type AuditCategoryCounts,
  type AuditComplianceReport,
  type AuditRange,
  type AuditSecurityEventsReport,
  type AuditStats,
  type AuditUserActivityReport,
} from '../../contract';
import type { Db } from '../../db/connection';
import {
  actorActivity,
  actorsByAction,
  categoriesOf,
  countsByDayActionResult,
  countsByDayCategoryResult,
  topActions,
} from './report-store';
import { auditWhere, listAuditEntries, type AuditScope } from './store';

// The three reports and the stats (issue 13 item 2), shaped to chart: every day of the range present (zero when
// quiet), every category and result key present, so the console draws series without filling gaps itself.

const USER_ACTIVITY_LIMIT = 500;
const TOP_ACTIONS = 10;
const DAY_MS = 24 * 3600 * 1000;

export interface ReportRequest {
  range: AuditRange;
  orgId?: string | undefined;
}

/** The UTC days from `from` to `to`, both included. */
export function daysOf(range: AuditRange): string[] {
  const days: string[] = [];
  const last = range.to.slice(0, 10);
  for (let t = Date.parse(`${range.from.slice(0, 10)}T00:00:00Z`); ; t += DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10);
    days.push(day);
    if (day >= last) return days;
  }
}

const zeroCategories = (): AuditCategoryCounts =>
  Object.fromEntries(AUDIT_CATEGORIES.map((c) => [c, 0])) as AuditCategoryCounts;

const whereFor = (scope: AuditScope, req: ReportRequest, actions?: readonly string[]) =>
  auditWhere(scope, { from: req.range.from, to: req.range.to, orgId: req.orgId, actions });

export function userActivityReport(db: Db, scope: AuditScope, req: ReportRequest): AuditUserActivityReport {
  const rows = actorActivity(db, whereFor(scope, req), USER_ACTIVITY_LIMIT + 1);
  return {
    range: req.range,
    truncated: rows.length > USER_ACTIVITY_LIMIT,
    users: rows.slice(0, USER_ACTIVITY_LIMIT).map((r) => {
      const byCategory = zeroCategories();
      for (const c of AUDIT_CATEGORIES) byCategory[c] = Number(r[c] ?? 0);
      return {
        actorId: r.actor_id,
        actorType: r.actor_type,
        name: r.name,
        email: r.email,
        role: r.role,
        total: r.total,
        byCategory,
        failures: r.failures,
        denied: r.denied,
        firstSeenAt: r.first_seen,
        lastSeenAt: r.last_seen,
      };
    }),
  };
}

export function securityEventsReport(
  db: Db,
  scope: AuditScope,
  req: ReportRequest,
  latest: number,
): AuditSecurityEventsReport {
  const w = whereFor(scope, req, AUDIT_SECURITY_ACTIONS);
  const days = new Map(
    daysOf(req.range).map((day) => [
      day,
      {
        day,
        total: 0,
        failures: 0,
        counts: Object.fromEntries(AUDIT_SECURITY_ACTIONS.map((a) => [a, 0])) as Record<string, number>,
      },
    ]),
  );
  const byAction = new Map(
    AUDIT_SECURITY_ACTIONS.map((action) => [action, { action, count: 0, failures: 0 }]),
  );
  let total = 0;
  let failures = 0;
  for (const r of countsByDayActionResult(db, w)) {
    const failed = r.result === 'success' ? 0 : r.count;
    const day = days.get(r.day);
    if (day) {
      day.total += r.count;
      day.failures += failed;
      day.counts[r.action] = (day.counts[r.action] ?? 0) + r.count;
    }
    const action = byAction.get(r.action as (typeof AUDIT_SECURITY_ACTIONS)[number]);
    if (action) {
      action.count += r.count;
      action.failures += failed;
    }
    total += r.count;
    failures += failed;
  }
  const { rows } = listAuditEntries(
    db,
    scope,
    { from: req.range.from, to: req.range.to, orgId: req.orgId, actions: AUDIT_SECURITY_ACTIONS },
    { page: 1, limit: latest },
  );
  return {
    range: req.range,
    actions: AUDIT_SECURITY_ACTIONS,
    total,
    failures,
    byDay: [...days.values()],
    byAction: [...byAction.values()],
    latest: rows,
  };
}

export function complianceReport(db: Db, scope: AuditScope, req: ReportRequest): AuditComplianceReport {
  const w = whereFor(scope, req, AUDIT_COMPLIANCE_ACTIONS);
  const actors = new Map(actorsByAction(db, w).map((r) => [r.action, r.actors]));
  const categories = categoriesOf(db, AUDIT_COMPLIANCE_ACTIONS);
  const groups = new Map(
    AUDIT_COMPLIANCE_ACTIONS.map((action) => [
      action as string,
      {
        action,
        category: categories.get(action) ?? 'system',
        count: 0,
        success: 0,
        failure: 0,
        denied: 0,
        actors: actors.get(action) ?? 0,
        lastAt: null as string | null,
      },
    ]),
  );
  const days = new Map(daysOf(req.range).map((day) => [day, { day, total: 0 }]));
  let total = 0;
  for (const r of countsByDayActionResult(db, w)) {
    const group = groups.get(r.action);
    if (group) {
      group.count += r.count;
      group[r.result] += r.count;
      if (group.lastAt === null || r.last_at > group.lastAt) group.lastAt = r.last_at;
    }
    const day = days.get(r.day);
    if (day) day.total += r.count;
    total += r.count;
  }
  return {
    range: req.range,
    actions: AUDIT_COMPLIANCE_ACTIONS,
    total,
    groups: [...groups.values()].sort((a, b) => b.count - a.count || a.action.localeCompare(b.action)),
    byDay: [...days.values()],
  };
}

export function auditStats(db: Db, scope: AuditScope, req: ReportRequest): AuditStats {
  const w = whereFor(scope, req);
  const byCategory = zeroCategories();
  const byResult = Object.fromEntries(AUDIT_RESULTS.map((r) => [r, 0])) as AuditStats['byResult'];
  const days = new Map(
    daysOf(req.range).map((day) => [day, { day, total: 0, success: 0, failure: 0, denied: 0 }]),
  );
  let total = 0;
  for (const r of countsByDayCategoryResult(db, w)) {
    byCategory[r.category] += r.count;
    byResult[r.result] += r.count;
    const day = days.get(r.day);
    if (day) {
      day.total += r.count;
      day[r.result] += r.count;
    }
    total += r.count;
  }
  return {
    range: req.range,
    total,
    byCategory,
    byResult,
    byDay: [...days.values()],
    topActions: topActions(db, w, TOP_ACTIONS),
  };
}
