import { statement, type Db } from '../../db/connection';

// The SQL of audit retention (spec 2 "Retention policy"): the policy per organization, and cutting the oldest
// rows of an organization's chain. The anchor written with each cut lives in chain-store.ts.

export interface RetentionRow {
  org_id: string;
  retention_days: number;
  last_cleanup_at: string | null;
  last_cleanup_removed: number;
  updated_at: string | null;
}

export function retentionRow(db: Db, orgId: string): RetentionRow | undefined {
  return statement(
    db,
    `SELECT org_id, retention_days, last_cleanup_at, last_cleanup_removed, updated_at
     FROM audit_retention WHERE org_id = ?`,
  ).get(orgId) as RetentionRow | undefined;
}

export function saveRetentionDays(db: Db, orgId: string, days: number, by: string, at: string): void {
  statement(
    db,
    `INSERT INTO audit_retention (org_id, retention_days, updated_at, updated_by) VALUES (?, ?, ?, ?)
     ON CONFLICT (org_id) DO UPDATE SET retention_days = excluded.retention_days,
       updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
  ).run(orgId, days, at, by);
}

export function recordCleanup(db: Db, orgId: string, at: string, removed: number): void {
  statement(
    db,
    `INSERT INTO audit_retention (org_id, last_cleanup_at, last_cleanup_removed) VALUES (?, ?, ?)
     ON CONFLICT (org_id) DO UPDATE SET last_cleanup_at = excluded.last_cleanup_at,
       last_cleanup_removed = excluded.last_cleanup_removed`,
  ).run(orgId, at, removed);
}

/** Every organization (deleted ones too: their entries age out as well) with its retention window in days. */
export function retentionTargets(db: Db, defaultDays: number): Array<{ orgId: string; days: number }> {
  return statement(
    db,
    `SELECT o.id AS orgId, COALESCE(r.retention_days, ?) AS days
     FROM organizations o LEFT JOIN audit_retention r ON r.org_id = o.id`,
  ).all(defaultDays) as Array<{ orgId: string; days: number }>;
}

/**
 * The seq below which the organization's rows may go: its first row inside the window (everything before it in the
 * chain is cut), or, when every row is old, one past its newest row; undefined without rows. A chain is cut only as
 * a prefix, so a row older than the window that follows a newer one (a clock set back) stays until those before it
 * go. Walked in chain order from the oldest row, so the usual case (few old rows) reads only those.
 */
export function cutBound(db: Db, orgId: string, cutoff: string): number | undefined {
  const kept = statement(
    db,
    `SELECT seq FROM audit_logs INDEXED BY audit_logs_org_seq WHERE org_id = ? AND timestamp >= ?
     ORDER BY seq LIMIT 1`,
  ).get(orgId, cutoff) as { seq: number } | undefined;
  if (kept) return kept.seq;
  const newest = statement(db, 'SELECT MAX(seq) AS seq FROM audit_logs WHERE org_id = ?').get(orgId) as {
    seq: number | null;
  };
  return newest.seq === null ? undefined : newest.seq + 1;
}

/** The last row of the next batch to cut: the `limit`-th oldest row before `beforeSeq` (or the last one there). */
export function batchEnd(
  db: Db,
  orgId: string,
  beforeSeq: number,
  limit: number,
): { seq: number; checksum: string } | undefined {
  return statement(
    db,
    `SELECT seq, checksum FROM (
       SELECT seq, checksum FROM audit_logs WHERE org_id = ? AND seq < ? ORDER BY seq LIMIT ?
     ) ORDER BY seq DESC LIMIT 1`,
  ).get(orgId, beforeSeq, limit) as { seq: number; checksum: string } | undefined;
}

/** Deletes the organization's rows up to and including `seq`; returns how many. */
export function deleteChainPrefix(db: Db, orgId: string, seq: number): number {
  return statement(db, 'DELETE FROM audit_logs WHERE org_id = ? AND seq <= ?').run(orgId, seq).changes;
}
