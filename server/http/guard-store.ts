import { statement, type Db } from '../db/connection';

// The secret guard's known-good addresses (guard.ts): where an account last signed in successfully, so its
// owner skips the account-wide delay. Times are Unix seconds.

export function isKnownAddress(
  db: Db,
  kind: string,
  account: string,
  address: string,
  since: number,
): boolean {
  return (
    statement(
      db,
      'SELECT 1 FROM secret_known_addresses WHERE kind = ? AND account = ? AND address = ? AND last_success_at > ?',
    ).get(kind, account, address, since) !== undefined
  );
}

export function rememberKnownAddress(
  db: Db,
  kind: string,
  account: string,
  address: string,
  at: number,
): void {
  statement(
    db,
    `INSERT INTO secret_known_addresses (kind, account, address, last_success_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (kind, account, address) DO UPDATE SET last_success_at = excluded.last_success_at`,
  ).run(kind, account, address, at);
}

export function pruneKnownAddresses(db: Db, before: number): void {
  statement(db, 'DELETE FROM secret_known_addresses WHERE last_success_at <= ?').run(before);
}
