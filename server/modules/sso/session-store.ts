import { statement, type Db } from '../../db/connection';

// The two short-lived records of a sign-in (rule 10): the round trip to the IdP, keyed by the state's hash, and
// the code the callback hands the console in the URL fragment. Both are consumed by one UPDATE ... RETURNING, so
// two requests racing with the same state or code cannot both win.

export interface LoginSessionRow {
  state_hash: string;
  provider_id: string;
  generation: number;
  nonce: string;
  code_verifier_sealed: string;
  redirect_path: string;
  created_at: string;
  expires_at: string;
  consumed_at: string | null;
}

export function insertLoginSession(db: Db, row: Omit<LoginSessionRow, 'consumed_at'>): void {
  statement(
    db,
    `INSERT INTO sso_login_sessions (state_hash, provider_id, generation, nonce, code_verifier_sealed, redirect_path,
       created_at, expires_at)
     VALUES (@state_hash, @provider_id, @generation, @nonce, @code_verifier_sealed, @redirect_path, @created_at,
       @expires_at)`,
  ).run(row);
}

/** Marks the round trip used and returns it; undefined when unknown, already used or older than 10 minutes. */
export function consumeLoginSession(db: Db, stateHash: string, at: string): LoginSessionRow | undefined {
  return statement(
    db,
    `UPDATE sso_login_sessions SET consumed_at = ?
      WHERE state_hash = ? AND consumed_at IS NULL AND expires_at > ? RETURNING *`,
  ).get(at, stateHash, at) as LoginSessionRow | undefined;
}

export interface ExchangeCodeRow {
  code_hash: string;
  user_id: string;
  provider_id: string;
  idp_mfa: 0 | 1;
  redirect_path: string;
  created_at: string;
  expires_at: string;
  consumed_at: string | null;
}

export function insertExchangeCode(db: Db, row: Omit<ExchangeCodeRow, 'consumed_at'>): void {
  statement(
    db,
    `INSERT INTO sso_exchange_codes (code_hash, user_id, provider_id, idp_mfa, redirect_path, created_at, expires_at)
     VALUES (@code_hash, @user_id, @provider_id, @idp_mfa, @redirect_path, @created_at, @expires_at)`,
  ).run(row);
}

export function consumeExchangeCode(db: Db, codeHash: string, at: string): ExchangeCodeRow | undefined {
  return statement(
    db,
    `UPDATE sso_exchange_codes SET consumed_at = ?
      WHERE code_hash = ? AND consumed_at IS NULL AND expires_at > ? RETURNING *`,
  ).get(at, codeHash, at) as ExchangeCodeRow | undefined;
}

/** Round trips and codes past their lifetime, used or not; swept at every sign-in start (an indexed range delete). */
export function deleteExpiredSignIns(db: Db, at: string): void {
  statement(db, 'DELETE FROM sso_login_sessions WHERE expires_at <= ?').run(at);
  statement(db, 'DELETE FROM sso_exchange_codes WHERE expires_at <= ?').run(at);
}
