import { statement, type Db } from '../db/connection';

// The SQL of housekeeping (housekeeping.ts): the expiry sweep touches short-lived rows of several modules (MFA
// challenges and setups, refresh tokens, emailed tokens, SMS codes) in one statement each, so it lives with the job
// that runs it rather than as one purge per module. `at` is an ISO timestamp.

const EXPIRING_TABLES = [
  'mfa_challenges',
  'mfa_setups',
  'refresh_tokens',
  'email_tokens',
  'sms_codes',
] as const;

export function deleteExpiredRows(db: Db, at: string): void {
  for (const table of EXPIRING_TABLES) statement(db, `DELETE FROM ${table} WHERE expires_at <= ?`).run(at);
}

/** Refreshes the query planner's statistics (SQLite's recommended periodic call). */
export function optimizePlanner(db: Db): void {
  db.pragma('optimize');
}
