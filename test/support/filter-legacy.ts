import type { FilterCondition, FilterConditionGroup } from '../../server/contract/filters';
import type { Db } from '../../server/db/connection';
import { escapeLike } from '../../server/db/like';
import { compileFilter } from '../../server/modules/filters/compile';

// The saved-filter SQL as it was before migration 0018, kept as the reference the new forms must agree with:
// tags and software matched on device_tags and device_software themselves (NOCASE comparisons, LIKE over every
// row), conditions in their written order, and a preview that counts and pages with the same statement text.
// Only tags and software changed how they are written; every other field compiles as before, so it is taken
// from compileFilter one condition at a time.

const LIST = '(SELECT value FROM json_each(?))';
const LIKE = "ESCAPE '\\'";

interface Sql {
  sql: string;
  params: unknown[];
}

const fold = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

function legacyChild(c: FilterCondition): Sql | null {
  const v = c.value;
  const list = () => JSON.stringify(v);
  const like = () => `%${escapeLike(v as string)}%`;
  const hasAll = (table: string, a: string, col: string): Sql => ({
    sql: `d.id IN (SELECT ${a}.device_id FROM ${table} ${a} WHERE ${col} COLLATE NOCASE IN ${LIST} GROUP BY ${a}.device_id HAVING count(DISTINCT lower(${col})) = ?)`,
    params: [list(), new Set((v as string[]).map(fold)).size],
  });
  const tags = (where: string) => `d.id IN (SELECT t.device_id FROM device_tags t${where})`;
  const sw = (where: string, not = false) =>
    `d.id ${not ? 'NOT IN' : 'IN'} (SELECT s.device_id FROM device_software s WHERE ${where})`;
  if (c.field === 'tags') {
    if (c.operator === 'hasAny')
      return { sql: tags(` WHERE t.tag COLLATE NOCASE IN ${LIST}`), params: [list()] };
    if (c.operator === 'hasAll') return hasAll('device_tags', 't', 't.tag');
    if (c.operator === 'isEmpty')
      return { sql: 'd.id NOT IN (SELECT t.device_id FROM device_tags t)', params: [] };
    if (c.operator === 'isNotEmpty') return { sql: tags(''), params: [] };
    return { sql: tags(` WHERE t.tag LIKE ? ${LIKE}`), params: [like()] };
  }
  if (c.field === 'software.notInstalled')
    return { sql: sw(`s.name LIKE ? ${LIKE}`, true), params: [like()] };
  if (c.field !== 'software.installed') return null;
  if (c.operator === 'contains') return { sql: sw(`s.name LIKE ? ${LIKE}`), params: [like()] };
  if (c.operator === 'notContains') return { sql: sw(`s.name LIKE ? ${LIKE}`, true), params: [like()] };
  if (c.operator === 'equals') return { sql: sw('s.name = ? COLLATE NOCASE'), params: [v] };
  if (c.operator === 'hasAll') return hasAll('device_software', 's', 's.name');
  return { sql: sw(`s.name COLLATE NOCASE IN ${LIST}`), params: [list()] };
}

/** A condition group as the compiler wrote it before 0018. */
export function legacyFilter(group: FilterConditionGroup, now: Date): Sql {
  const parts = group.conditions.map((c): Sql => {
    if ('conditions' in c) return legacyFilter(c, now);
    return legacyChild(c) ?? compileFilter({ operator: 'AND', conditions: [c] }, { now });
  });
  return {
    sql: `(${parts.map((p) => p.sql).join(` ${group.operator} `)})`,
    params: parts.flatMap((p) => p.params),
  };
}

/** The preview as it ran before: count and page over the table, every device visible. */
export function legacyPreview(db: Db, group: FilterConditionGroup, now: Date, limit: number) {
  const f = legacyFilter(group, now);
  const where = `d.status <> 'decommissioned' AND d.org_id IN (SELECT id FROM organizations WHERE deleted_at IS NULL) AND ${f.sql}`;
  const totalCount = db
    .prepare(`SELECT count(*) FROM devices d WHERE ${where}`)
    .pluck()
    .get(...f.params) as number;
  const ids = db
    .prepare(`SELECT d.id FROM devices d WHERE ${where} ORDER BY d.hostname COLLATE NOCASE, d.id LIMIT ?`)
    .pluck()
    .all(...f.params, limit) as string[];
  return { totalCount, ids };
}
