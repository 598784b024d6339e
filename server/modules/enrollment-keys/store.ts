import type { EnrollmentKey } from '../../contract/keys';
import { statement, type Db } from '../../db/connection';
import { pagedQuery } from '../../db/paged';
import type { PageRequest } from '../../http/pagination';
import { scopeFilter, type OrgScope } from '../../http/scope';

// SQL for enrollment_keys, as free functions of the database. As with API keys, the hash column is never selected
// for display.

export interface EnrollmentKeyRow {
  id: string;
  org_id: string;
  site_id: string | null;
  name: string;
  usage_count: number;
  max_usage: number | null;
  expires_at: string;
  created_by: string;
  created_at: string;
  updated_at: string;
}

const COLUMNS =
  'id, org_id, site_id, name, usage_count, max_usage, expires_at, created_by, created_at, updated_at';

export function toEnrollmentKey(row: EnrollmentKeyRow, nowMs = Date.now()): EnrollmentKey {
  return {
    id: row.id,
    orgId: row.org_id,
    siteId: row.site_id,
    name: row.name,
    usageCount: row.usage_count,
    maxUsage: row.max_usage,
    expiresAt: row.expires_at,
    createdBy: row.created_by,
    createdAt: row.created_at,
    expired: Date.parse(row.expires_at) <= nowMs,
    exhausted: row.max_usage !== null && row.usage_count >= row.max_usage,
  };
}

export interface NewEnrollmentKey {
  id: string;
  orgId: string;
  siteId: string | null;
  name: string;
  keyHash: string;
  maxUsage: number;
  expiresAt: string;
  createdBy: string;
  at: string;
}

export type RedeemRow = { id: string; org_id: string; site_id: string | null };

export function enrollmentKeyById(db: Db, id: string): EnrollmentKeyRow | undefined {
  return statement(db, `SELECT ${COLUMNS} FROM enrollment_keys WHERE id = ?`).get(id) as
    EnrollmentKeyRow | undefined;
}

export function listEnrollmentKeyRows(
  db: Db,
  scope: OrgScope,
  filter: { orgId?: string | undefined; expired?: boolean | undefined },
  page: PageRequest,
): { rows: EnrollmentKeyRow[]; total: number } {
  const scoped = scopeFilter(scope, 'org_id');
  const where = [scoped.clause];
  const params: unknown[] = [...scoped.params];
  if (filter.orgId) {
    where.push('org_id = ?');
    params.push(filter.orgId);
  }
  if (filter.expired !== undefined) {
    where.push(filter.expired ? 'expires_at <= ?' : 'expires_at > ?');
    params.push(new Date().toISOString());
  }
  return pagedQuery<EnrollmentKeyRow>(db, {
    select: COLUMNS,
    from: 'enrollment_keys',
    where,
    params,
    orderBy: 'created_at DESC, id DESC',
    page,
  });
}

export function insertEnrollmentKeyRow(db: Db, key: NewEnrollmentKey): void {
  statement(
    db,
    `INSERT INTO enrollment_keys (id, org_id, site_id, name, key_hash, usage_count,
      max_usage, expires_at, created_by, created_at, updated_at)
      VALUES (@id, @orgId, @siteId, @name, @keyHash, 0, @maxUsage, @expiresAt, @createdBy, @at, @at)`,
  ).run(key);
}

export function rotateEnrollmentKeyRow(
  db: Db,
  id: string,
  keyHash: string,
  maxUsage: number | null,
  expiresAt: string,
  at: string,
): boolean {
  return (
    statement(
      db,
      `UPDATE enrollment_keys SET key_hash = @keyHash, usage_count = 0,
      max_usage = @maxUsage, expires_at = @expiresAt, updated_at = @at WHERE id = @id`,
    ).run({ id, keyHash, maxUsage, expiresAt, at }).changes === 1
  );
}

export function deleteEnrollmentKeyRow(db: Db, id: string): boolean {
  return statement(db, 'DELETE FROM enrollment_keys WHERE id = ?').run(id).changes === 1;
}

/**
 * Counts one use of a valid key. The whole validity test and the increment are one statement: two enrollments
 * racing for the last use cannot both pass, whichever process or connection they come from. Keys of a deleted
 * organization are dead.
 */
export function redeemEnrollmentKeyRow(db: Db, keyHash: string, at: string): RedeemRow | undefined {
  return statement(
    db,
    `UPDATE enrollment_keys SET usage_count = usage_count + 1, updated_at = @at
      WHERE key_hash = @keyHash AND expires_at > @at AND (max_usage IS NULL OR usage_count < max_usage)
        AND org_id IN (SELECT id FROM organizations WHERE deleted_at IS NULL)
      RETURNING id, org_id, site_id`,
  ).get({ keyHash, at }) as RedeemRow | undefined;
}

export interface RedeemProbe {
  expires_at: string;
  usage_count: number;
  max_usage: number | null;
  org_deleted_at: string | null;
}

/** Why a key could not be redeemed: read after the atomic update refused it. */
export function probeEnrollmentKey(db: Db, keyHash: string): RedeemProbe | undefined {
  return statement(
    db,
    `SELECT k.expires_at, k.usage_count, k.max_usage, o.deleted_at AS org_deleted_at
      FROM enrollment_keys k JOIN organizations o ON o.id = k.org_id WHERE k.key_hash = ?`,
  ).get(keyHash) as RedeemProbe | undefined;
}

export interface LiveKeyRow {
  id: string;
  org_id: string;
  site_id: string | null;
}

/**
 * The key a raw value names when it is unexpired and its organization live, used up or not (an agent repeating
 * its enrollment already holds one of its uses). Nothing is counted.
 */
export function liveEnrollmentKeyRow(db: Db, keyHash: string, at: string): LiveKeyRow | undefined {
  return statement(
    db,
    `SELECT k.id, k.org_id, k.site_id FROM enrollment_keys k JOIN organizations o ON o.id = k.org_id
      WHERE k.key_hash = ? AND k.expires_at > ? AND o.deleted_at IS NULL`,
  ).get(keyHash, at) as LiveKeyRow | undefined;
}
