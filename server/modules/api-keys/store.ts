import type { ApiKey, ApiKeyStatus } from '../../contract/keys';
import { statement, type Db } from '../../db/connection';
import { pagedQuery } from '../../db/paged';
import type { PageRequest } from '../../http/pagination';
import type { OrgScope } from '../../http/scope';
import { scopeFilter } from '../../http/scope';
import { transaction } from '../../db/after-commit';

// SQL for api_keys, as free functions of the database. The hash column is never selected here: nothing that reads keys for display can leak it.

export interface ApiKeyRow {
  id: string;
  org_id: string;
  name: string;
  key_prefix: string;
  scopes: string;
  expires_at: string | null;
  rate_limit: number;
  created_by: string;
  created_at: string;
  updated_at: string;
  status: ApiKeyStatus;
  revoked_at: string | null;
  last_used_at: string | null;
  usage_count: number;
}

const COLUMNS = `id, org_id, name, key_prefix, scopes, expires_at, rate_limit, created_by, created_at, updated_at,
  status, revoked_at, last_used_at, usage_count`;

/**
 * An active key whose expiry has passed is shown as expired although storage still says active: storage is
 * updated at the key's next authentication attempt (spec 1), but a technician reading the list should not have
 * to wait for that to see the truth.
 */
export function effectiveStatus(
  row: Pick<ApiKeyRow, 'status' | 'expires_at'>,
  nowMs = Date.now(),
): ApiKeyStatus {
  if (row.status === 'active' && row.expires_at && Date.parse(row.expires_at) <= nowMs) return 'expired';
  return row.status;
}

export function toApiKey(row: ApiKeyRow, nowMs = Date.now()): ApiKey {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    keyPrefix: row.key_prefix,
    scopes: JSON.parse(row.scopes) as string[],
    expiresAt: row.expires_at,
    rateLimit: row.rate_limit,
    createdBy: row.created_by,
    createdAt: row.created_at,
    status: effectiveStatus(row, nowMs),
    lastUsedAt: row.last_used_at,
    usageCount: row.usage_count,
  };
}

export interface ApiKeyFilter {
  orgId?: string | undefined;
  status?: ApiKeyStatus | undefined;
}

export interface NewApiKey {
  id: string;
  orgId: string;
  name: string;
  keyHash: string;
  keyPrefix: string;
  scopes: string[];
  expiresAt: string | null;
  rateLimit: number;
  createdBy: string;
  at: string;
}

/** What authentication needs of a key, with its organization's partner. */
export interface KeyCredentialRow {
  id: string;
  org_id: string;
  partner_id: string;
  name: string;
  scopes: string;
  expires_at: string | null;
  rate_limit: number;
  status: ApiKeyStatus;
}

export function apiKeyById(db: Db, id: string): ApiKeyRow | undefined {
  return statement(db, `SELECT ${COLUMNS} FROM api_keys WHERE id = ?`).get(id) as ApiKeyRow | undefined;
}

/** The key with this hash, of a live organization (authentication, per request). */
export function apiKeyCredential(db: Db, keyHash: string): KeyCredentialRow | undefined {
  // A key dies with its organization: after a soft delete it matches nothing, like a key never issued.
  return statement(
    db,
    `SELECT k.id, k.org_id, o.partner_id, k.name, k.scopes, k.expires_at, k.rate_limit, k.status
      FROM api_keys k JOIN organizations o ON o.id = k.org_id AND o.deleted_at IS NULL WHERE k.key_hash = ?`,
  ).get(keyHash) as KeyCredentialRow | undefined;
}

/** Adds batched usage; rotation resets usage, so a key revoked meanwhile gains nothing. */
export function addApiKeyUsage(db: Db, batch: ReadonlyMap<string, { count: number; at: string }>): void {
  const add = statement(
    db,
    "UPDATE api_keys SET usage_count = usage_count + ?, last_used_at = ? WHERE id = ? AND status = 'active'",
  );
  transaction(db, () => {
    for (const [id, { count, at }] of batch) add.run(count, at, id);
  });
}

export function listApiKeyRows(
  db: Db,
  scope: OrgScope,
  filter: ApiKeyFilter,
  page: PageRequest,
): { rows: ApiKeyRow[]; total: number } {
  const scoped = scopeFilter(scope, 'org_id');
  const where = [scoped.clause];
  const params: unknown[] = [...scoped.params];
  if (filter.orgId) {
    where.push('org_id = ?');
    params.push(filter.orgId);
  }
  const now = new Date().toISOString();
  if (filter.status === 'active') {
    where.push("status = 'active' AND (expires_at IS NULL OR expires_at > ?)");
    params.push(now);
  } else if (filter.status === 'expired') {
    where.push("(status = 'expired' OR (status = 'active' AND expires_at IS NOT NULL AND expires_at <= ?))");
    params.push(now);
  } else if (filter.status === 'revoked') {
    where.push("status = 'revoked'");
  }
  return pagedQuery<ApiKeyRow>(db, {
    select: COLUMNS,
    from: 'api_keys',
    where,
    params,
    orderBy: 'created_at DESC, id DESC',
    page,
  });
}

export function insertApiKey(db: Db, key: NewApiKey): void {
  statement(
    db,
    `INSERT INTO api_keys (id, org_id, name, key_hash, key_prefix, scopes, expires_at,
      rate_limit, created_by, created_at, updated_at, status, usage_count)
      VALUES (@id, @orgId, @name, @keyHash, @keyPrefix, @scopes, @expiresAt, @rateLimit, @createdBy, @at, @at,
      'active', 0)`,
  ).run({ ...key, scopes: JSON.stringify(key.scopes) });
}

/** Returns false when the key is no longer active (revoked or expired in the meantime). */
export function updateApiKeyRow(
  db: Db,
  id: string,
  changes: { name?: string | undefined; scopes?: string[] | undefined; rateLimit?: number | undefined },
  at: string,
): boolean {
  return (
    statement(
      db,
      `UPDATE api_keys SET name = COALESCE(@name, name),
      scopes = COALESCE(@scopes, scopes), rate_limit = COALESCE(@rateLimit, rate_limit), updated_at = @at
      WHERE id = @id AND status = 'active'`,
    ).run({
      id,
      at,
      name: changes.name ?? null,
      scopes: changes.scopes ? JSON.stringify(changes.scopes) : null,
      rateLimit: changes.rateLimit ?? null,
    }).changes === 1
  );
}

/** Replaces the key material and starts the usage statistics over; everything else is kept. */
export function rotateApiKeyRow(db: Db, id: string, keyHash: string, keyPrefix: string, at: string): boolean {
  return (
    statement(
      db,
      `UPDATE api_keys SET key_hash = @keyHash, key_prefix = @keyPrefix,
      usage_count = 0, last_used_at = NULL, updated_at = @at WHERE id = @id AND status = 'active'`,
    ).run({ id, keyHash, keyPrefix, at }).changes === 1
  );
}

export function revokeApiKeyRow(db: Db, id: string, reason: string, at: string): boolean {
  return (
    statement(
      db,
      `UPDATE api_keys SET status = 'revoked', revoked_at = @at,
      revoked_reason = @reason, updated_at = @at WHERE id = @id AND status != 'revoked'`,
    ).run({ id, reason, at }).changes === 1
  );
}

/** Writes the expiry that the clock already decided (same transition as at authentication). */
export function markApiKeyExpired(db: Db, id: string, at: string): void {
  statement(
    db,
    "UPDATE api_keys SET status = 'expired', updated_at = ? WHERE id = ? AND status = 'active'",
  ).run(at, id);
}
