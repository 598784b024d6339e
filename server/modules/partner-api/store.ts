import { statement, type Db } from '../../db/connection';

// SQL of partner_keys: a partner service principal's keys, stored as SHA-256 hashes.

export interface PartnerKeyRow {
  id: string;
  partner_id: string;
  name: string;
  key_hash: string;
  key_prefix: string;
  /** JSON array of provisioning scopes. */
  scopes: string;
  rate_limit: number;
  status: 'active' | 'revoked';
  expires_at: string | null;
  last_used_at: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  revoked_at: string | null;
}

export function insertPartnerKey(
  db: Db,
  row: Omit<PartnerKeyRow, 'last_used_at' | 'revoked_at' | 'status'>,
): void {
  statement(
    db,
    `INSERT INTO partner_keys (id, partner_id, name, key_hash, key_prefix, scopes, rate_limit, expires_at,
       created_by, created_at, updated_at)
     VALUES (@id, @partner_id, @name, @key_hash, @key_prefix, @scopes, @rate_limit, @expires_at, @created_by,
       @created_at, @updated_at)`,
  ).run(row);
}

export function partnerKeyById(db: Db, partnerId: string, id: string): PartnerKeyRow | undefined {
  return statement(db, 'SELECT * FROM partner_keys WHERE id = ? AND partner_id = ?').get(id, partnerId) as
    PartnerKeyRow | undefined;
}

export function partnerKeyByHash(db: Db, hash: string): PartnerKeyRow | undefined {
  return statement(db, 'SELECT * FROM partner_keys WHERE key_hash = ?').get(hash) as
    PartnerKeyRow | undefined;
}

export function partnerKeysOf(db: Db, partnerId: string): PartnerKeyRow[] {
  return statement(db, 'SELECT * FROM partner_keys WHERE partner_id = ? ORDER BY created_at DESC, id').all(
    partnerId,
  ) as PartnerKeyRow[];
}

/** A new secret for an active key; false when the key was revoked meanwhile. */
export function rotatePartnerKeyRow(db: Db, id: string, hash: string, prefix: string, at: string): boolean {
  return (
    statement(
      db,
      `UPDATE partner_keys SET key_hash = ?, key_prefix = ?, last_used_at = NULL, updated_at = ?
       WHERE id = ? AND status = 'active'`,
    ).run(hash, prefix, at, id).changes === 1
  );
}

export function revokePartnerKeyRow(db: Db, id: string, at: string): boolean {
  return (
    statement(
      db,
      "UPDATE partner_keys SET status = 'revoked', revoked_at = ?, updated_at = ? WHERE id = ? AND status = 'active'",
    ).run(at, at, id).changes === 1
  );
}

export function touchPartnerKey(db: Db, id: string, at: string): void {
  statement(db, 'UPDATE partner_keys SET last_used_at = ? WHERE id = ?').run(at, id);
}
