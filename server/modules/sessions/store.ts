import { statement, type Db } from '../../db/connection';

// SQL for mfa_challenges, as free functions of the database: the pending second step of a password sign-in, keyed by the tempToken's hash.
// Refresh tokens and sessions are TokenService's (tokens.ts), which signs and stores them together.

export interface ChallengeRow {
  token_hash: string;
  user_id: string;
  expires_at: string;
  failed_attempts: number;
  consumed_at: string | null;
}

export interface NewChallenge {
  tokenHash: string;
  userId: string;
  createdAt: string;
  expiresAt: string;
  ipAddress: string | null;
  userAgent: string | null;
}

export function insertLoginChallenge(db: Db, challenge: NewChallenge): void {
  statement(
    db,
    `INSERT INTO mfa_challenges (token_hash, user_id, created_at, expires_at, ip_address, user_agent)
     VALUES (@tokenHash, @userId, @createdAt, @expiresAt, @ipAddress, @userAgent)`,
  ).run(challenge);
}

export function loginChallengeByHash(db: Db, tokenHash: string): ChallengeRow | undefined {
  return statement(db, 'SELECT * FROM mfa_challenges WHERE token_hash = ?').get(tokenHash) as
    ChallengeRow | undefined;
}

/** Counts a wrong code; `consumedAt` set kills the challenge (too many wrong codes). */
export function recordChallengeFailure(
  db: Db,
  tokenHash: string,
  failures: number,
  consumedAt: string | null,
): void {
  statement(db, 'UPDATE mfa_challenges SET failed_attempts = ?, consumed_at = ? WHERE token_hash = ?').run(
    failures,
    consumedAt,
    tokenHash,
  );
}

/** Ends the user's half-finished sign-ins (after a password change, a pending second step must not finish). */
export function deleteLoginChallengesOf(db: Db, userId: string): void {
  statement(db, 'DELETE FROM mfa_challenges WHERE user_id = ?').run(userId);
}

/** Spends the challenge; false when another request spent it first. */
export function consumeLoginChallenge(db: Db, tokenHash: string, at: string): boolean {
  return (
    statement(
      db,
      'UPDATE mfa_challenges SET consumed_at = ? WHERE token_hash = ? AND consumed_at IS NULL',
    ).run(at, tokenHash).changes === 1
  );
}
