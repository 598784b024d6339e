import { statement, type Db } from '../../db/connection';

// The SQL of sessions (tokens.ts): refresh tokens, stored as SHA-256 hashes, one family per session.

export interface RefreshRow {
  id: string;
  user_id: string;
  family_id: string;
  mfa: 0 | 1;
  expires_at: string;
  replaced_by: string | null;
  revoked_at: string | null;
}

/**
 * The email of the account when the session is live: the user is active with this token_version, and the newest
 * token of the family (the one not yet replaced) is not revoked. One indexed lookup per authenticated request and
 * per socket upgrade.
 */
export function liveSessionEmail(
  db: Db,
  userId: string,
  tokenVersion: number,
  familyId: string,
): string | null {
  const row = statement(
    db,
    `SELECT u.email FROM users u
     WHERE u.id = ? AND u.status = 'active' AND u.token_version = ?
       AND EXISTS (SELECT 1 FROM refresh_tokens r
                   WHERE r.family_id = ? AND r.user_id = u.id AND r.replaced_by IS NULL AND r.revoked_at IS NULL)`,
  ).get(userId, tokenVersion, familyId) as { email: string } | undefined;
  return row?.email ?? null;
}

export function insertRefreshToken(
  db: Db,
  row: {
    id: string;
    userId: string;
    familyId: string;
    tokenHash: string;
    mfa: boolean;
    createdAt: string;
    expiresAt: string;
    ipAddress: string | null;
    userAgent: string | null;
  },
): void {
  statement(
    db,
    `INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, mfa, created_at, expires_at, ip_address, user_agent)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    row.id,
    row.userId,
    row.familyId,
    row.tokenHash,
    row.mfa ? 1 : 0,
    row.createdAt,
    row.expiresAt,
    row.ipAddress,
    row.userAgent,
  );
}

export function refreshTokenByHash(db: Db, tokenHash: string): RefreshRow | undefined {
  return statement(db, 'SELECT * FROM refresh_tokens WHERE token_hash = ?').get(tokenHash) as
    RefreshRow | undefined;
}

/** The token was exchanged for `nextId`: presenting it again is reuse. */
export function markRotated(db: Db, id: string, nextId: string, at: string): void {
  statement(
    db,
    "UPDATE refresh_tokens SET replaced_by = ?, revoked_at = ?, revoked_reason = 'rotated' WHERE id = ?",
  ).run(nextId, at, id);
}

export function revokeFamilyTokens(db: Db, familyId: string, reason: string, at: string): void {
  statement(
    db,
    'UPDATE refresh_tokens SET revoked_at = ?, revoked_reason = ? WHERE family_id = ? AND revoked_at IS NULL',
  ).run(at, reason, familyId);
}

export function revokeUserTokens(db: Db, userId: string, reason: string, at: string): void {
  statement(
    db,
    'UPDATE refresh_tokens SET revoked_at = ?, revoked_reason = ? WHERE user_id = ? AND revoked_at IS NULL',
  ).run(at, reason, userId);
}

/** When session `familyId` of the user began (its first token), or null when none of its tokens is on record. */
export function sessionStartedAt(db: Db, userId: string, familyId: string): string | null {
  const row = statement(
    db,
    'SELECT MIN(created_at) AS at FROM refresh_tokens WHERE family_id = ? AND user_id = ?',
  ).get(familyId, userId) as { at: string | null } | undefined;
  return row?.at ?? null;
}

/**
 * When the user's sign-in before session `familyId` began: the start of the newest other session (a family's
 * first token) that began earlier, or null when none is on record. Expired tokens are pruned after 7 days, so an
 * older sign-in is no longer known.
 */
export function previousSessionStart(db: Db, userId: string, familyId: string): string | null {
  const row = statement(
    db,
    `WITH starts AS (SELECT family_id, MIN(created_at) AS started FROM refresh_tokens WHERE user_id = ? GROUP BY family_id)
     SELECT MAX(s.started) AS at FROM starts s
     WHERE s.family_id <> ? AND s.started < (SELECT started FROM starts WHERE family_id = ?)`,
  ).get(userId, familyId, familyId) as { at: string | null } | undefined;
  return row?.at ?? null;
}
