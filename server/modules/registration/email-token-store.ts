import { randomToken, sha256Hex } from '../../crypto';
import { transaction } from '../../db/after-commit';
import type { Db } from '../../db/connection';

// The store of single-use tokens sent by email (registration, password reset). The raw token only ever exists in the email;
// the table holds its SHA-256, so a copy of the database cannot be turned into working links.

export type EmailTokenPurpose = 'register_partner' | 'register_user' | 'invite' | 'password_reset';

export interface EmailTokenRow {
  token_hash: string;
  purpose: EmailTokenPurpose;
  email: string;
  user_id: string | null;
  payload: string;
  created_at: string;
  expires_at: string;
  consumed_at: string | null;
}

export interface IssuedEmailToken {
  token: string;
  expiresAt: string;
}

/**
 * Stores a new token and retires the unused tokens it supersedes (same purposes, same email or user), so only
 * the newest link works: an older link can never complete with stale data such as an earlier password.
 */
export function issueEmailToken(
  db: Db,
  input: {
    purpose: EmailTokenPurpose;
    email: string;
    userId?: string | null;
    payload?: Record<string, unknown>;
    ttlSeconds: number;
    supersede: { purposes: EmailTokenPurpose[]; by: 'email' | 'user' };
  },
): IssuedEmailToken {
  const token = randomToken(32);
  const now = new Date();
  const nowIso = now.toISOString();
  const expiresAt = new Date(now.getTime() + input.ttlSeconds * 1000).toISOString();
  transaction(db, () => {
    const placeholders = input.supersede.purposes.map(() => '?').join(', ');
    const column = input.supersede.by === 'email' ? 'email' : 'user_id';
    const key = input.supersede.by === 'email' ? input.email : (input.userId ?? null);
    if (key !== null) {
      db.prepare(
        `UPDATE email_tokens SET consumed_at = ? WHERE ${column} = ? AND purpose IN (${placeholders})
         AND consumed_at IS NULL`,
      ).run(nowIso, key, ...input.supersede.purposes);
    }
    db.prepare(
      `INSERT INTO email_tokens (token_hash, purpose, email, user_id, payload, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      sha256Hex(token),
      input.purpose,
      input.email,
      input.userId ?? null,
      JSON.stringify(input.payload ?? {}),
      nowIso,
      expiresAt,
    );
  });
  return { token, expiresAt };
}

/** The token's row when it exists, has one of `purposes`, is unused and has not expired. */
export function findUsableEmailToken(
  db: Db,
  token: string,
  purposes: EmailTokenPurpose[],
): EmailTokenRow | undefined {
  const row = db.prepare('SELECT * FROM email_tokens WHERE token_hash = ?').get(sha256Hex(token)) as
    EmailTokenRow | undefined;
  if (!row || !purposes.includes(row.purpose) || row.consumed_at) return undefined;
  if (Date.parse(row.expires_at) <= Date.now()) return undefined;
  return row;
}

/** Compare-and-set: true for exactly one caller, even when the same link is submitted twice at once. */
export function consumeEmailToken(db: Db, tokenHash: string): boolean {
  const now = new Date().toISOString();
  return (
    db
      .prepare(
        'UPDATE email_tokens SET consumed_at = ? WHERE token_hash = ? AND consumed_at IS NULL AND expires_at > ?',
      )
      .run(now, tokenHash, now).changes === 1
  );
}

/** Retires every unused token of a user for the given purposes (e.g. after a password change). */
export function retireUserTokens(db: Db, userId: string, purposes: EmailTokenPurpose[]): void {
  const placeholders = purposes.map(() => '?').join(', ');
  db.prepare(
    `UPDATE email_tokens SET consumed_at = ? WHERE user_id = ? AND purpose IN (${placeholders})
     AND consumed_at IS NULL`,
  ).run(new Date().toISOString(), userId, ...purposes);
}
