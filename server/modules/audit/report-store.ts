import { AUDIT_CATEGORIES, type AuditActorType, type AuditCategory, type AuditResult } from '../../contract';
import { statement, type Db } from '../../db/connection';
import { CURRENT_ROLE_SQL } from './actor-store';
import { CATEGORY_SQL, fromOf, type AuditWhere } from './store';

// The aggregate queries of the reports and stats (reports.ts shapes them). Each runs over the same WHERE as the
// lists (store.ts auditWhere), so a report never counts what its caller could not list. Days are UTC calendar
// days: timestamps are stored as ISO 8601 in UTC, so the first ten characters are the day.

const DAY_SQL = 'substr(a.timestamp, 1, 10)';

function whereOf(w: AuditWhere): string {
  return w.where.length ? `WHERE ${w.where.join(' AND ')}` : '';
}

/** Matching rows with their category: the inner query every grouping reads. */
const categorized = (w: AuditWhere) =>
  `(SELECT a.*, ${CATEGORY_SQL} AS category FROM ${fromOf(w)} ${whereOf(w)})`;

export interface ActorActivityRow {
  actor_id: string;
  actor_type: AuditActorType;
  name: string | null;
  email: string | null;
  role: string | null;
  total: number;
  failures: number;
  denied: number;
  first_seen: string;
  last_seen: string;
  /** One count per category, named by the category. */
  [category: string]: unknown;
}

/** Per actor: counts by category and result, first and last entry; the most active first, at most `limit`. */
export function actorActivity(db: Db, w: AuditWhere, limit: number): ActorActivityRow[] {
  const perCategory = AUDIT_CATEGORIES.map((c) => `SUM(category = '${c}') AS "${c}"`).join(', ');
  // The role shown is the actor's role now (CURRENT_ROLE_SQL over the grouped row, preferring its organization).
  return statement(
    db,
    `SELECT a.*, (SELECT name FROM users WHERE id = a.actor_id) AS name,
       CASE WHEN a.actor_type = 'user' THEN ${CURRENT_ROLE_SQL} END AS role
     FROM (SELECT actor_id, actor_type, MAX(org_id) AS org_id, MAX(actor_email) AS email, COUNT(*) AS total,
             SUM(result = 'failure') AS failures, SUM(result = 'denied') AS denied,
             MIN(timestamp) AS first_seen, MAX(timestamp) AS last_seen, ${perCategory}
           FROM ${categorized(w)} GROUP BY actor_type, actor_id) a
     ORDER BY a.total DESC, a.last_seen DESC LIMIT ?`,
  ).all(...w.params, limit) as ActorActivityRow[];
}

export interface DayActionCount {
  day: string;
  action: string;
  result: AuditResult;
  count: number;
  last_at: string;
}

/** Counts per day, action and result (the security and compliance reports fold these). */
export function countsByDayActionResult(db: Db, w: AuditWhere): DayActionCount[] {
  return statement(
    db,
    `SELECT ${DAY_SQL} AS day, a.action AS action, a.result AS result, COUNT(*) AS count,
       MAX(a.timestamp) AS last_at
     FROM ${fromOf(w)} ${whereOf(w)} GROUP BY 1, 2, 3`,
  ).all(...w.params) as DayActionCount[];
}

/** Distinct actors per action (a per-day count cannot be summed into it). */
export function actorsByAction(db: Db, w: AuditWhere): Array<{ action: string; actors: number }> {
  return statement(
    db,
    `SELECT a.action AS action, COUNT(DISTINCT a.actor_id) AS actors FROM ${fromOf(w)} ${whereOf(w)} GROUP BY 1`,
  ).all(...w.params) as Array<{ action: string; actors: number }>;
}

export interface DayCategoryResultCount {
  day: string;
  category: AuditCategory;
  result: AuditResult;
  count: number;
}

/** Counts per day, category and result (stats). */
export function countsByDayCategoryResult(db: Db, w: AuditWhere): DayCategoryResultCount[] {
  return statement(
    db,
    `SELECT ${DAY_SQL} AS day, category, result, COUNT(*) AS count FROM ${categorized(w)} a GROUP BY 1, 2, 3`,
  ).all(...w.params) as DayCategoryResultCount[];
}

/** The most frequent actions (stats). */
export function topActions(db: Db, w: AuditWhere, limit: number): Array<{ action: string; count: number }> {
  return statement(
    db,
    `SELECT a.action AS action, COUNT(*) AS count FROM ${fromOf(w)} ${whereOf(w)}
     GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ?`,
  ).all(...w.params, limit) as Array<{ action: string; count: number }>;
}

/** The category of each given action, by the one rule (CATEGORY_SQL), for reports that list actions with no rows. */
export function categoriesOf(db: Db, actions: readonly string[]): Map<string, AuditCategory> {
  const rows = statement(
    db,
    `SELECT a.action AS action, ${CATEGORY_SQL} AS category FROM (SELECT value AS action FROM json_each(?)) a`,
  ).all(JSON.stringify(actions)) as Array<{ action: string; category: AuditCategory }>;
  return new Map(rows.map((r) => [r.action, r.category]));
}
