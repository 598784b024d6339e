import { statement, type Db } from '../../db/connection';
import { transaction } from '../../db/after-commit';

// SQL for the second factor, as free functions of the database: the MFA columns of users, pending TOTP setups, recovery codes, SMS codes, and the
// organization settings that make up the MFA policy. Multi-statement changes are one transaction each.

export interface SetupRow {
  secret: string;
  recovery_codes: string;
  expires_at: string;
}

export interface SmsCodeRow {
  id: string;
  phone_number: string;
  code_hash: string;
  failed_attempts: number;
}

export interface NewSmsCode {
  id: string;
  userId: string;
  purpose: string;
  phone: string;
  codeHash: string;
  createdAt: string;
  expiresAt: string;
}

/** JSON true / false come back as 1 / 0; undefined when the organization is gone. */
export function orgMfaPolicyRow(db: Db, orgId: string): { require_mfa: unknown; sms: unknown } | undefined {
  return statement(
    db,
    `SELECT json_extract(settings, '$.security.requireMfa') AS require_mfa,
            json_extract(settings, '$.security.allowedMfaMethods.sms') AS sms
     FROM organizations WHERE id = ? AND deleted_at IS NULL`,
  ).get(orgId) as { require_mfa: unknown; sms: unknown } | undefined;
}

/** Compare-and-set of the last accepted TOTP step, so two concurrent requests cannot both spend one code. */
export function spendTotpStep(db: Db, userId: string, step: number): boolean {
  return (
    statement(
      db,
      'UPDATE users SET mfa_last_time_step = ? WHERE id = ? AND (mfa_last_time_step IS NULL OR mfa_last_time_step < ?)',
    ).run(step, userId, step).changes === 1
  );
}

export function spendRecoveryCode(db: Db, userId: string, codeHash: string, at: string): boolean {
  return (
    statement(
      db,
      'UPDATE mfa_recovery_codes SET used_at = ? WHERE user_id = ? AND code_hash = ? AND used_at IS NULL',
    ).run(at, userId, codeHash).changes === 1
  );
}

export function replaceRecoveryCodes(db: Db, userId: string, hashes: readonly string[]): void {
  transaction(db, () => {
    statement(db, 'DELETE FROM mfa_recovery_codes WHERE user_id = ?').run(userId);
    const insert = statement(db, 'INSERT INTO mfa_recovery_codes (user_id, code_hash) VALUES (?, ?)');
    for (const hash of hashes) insert.run(userId, hash);
  });
}

/** A new pending TOTP setup replaces the user's earlier one. Secret and codes come sealed. */
export function saveTotpSetup(
  db: Db,
  userId: string,
  secret: string,
  recoveryCodes: string,
  expiresAt: string,
): void {
  statement(
    db,
    `INSERT INTO mfa_setups (user_id, secret, recovery_codes, expires_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret,
       recovery_codes = excluded.recovery_codes, expires_at = excluded.expires_at`,
  ).run(userId, secret, recoveryCodes, expiresAt);
}

export function pendingTotpSetup(db: Db, userId: string): SetupRow | undefined {
  return statement(db, 'SELECT * FROM mfa_setups WHERE user_id = ?').get(userId) as SetupRow | undefined;
}

/** TOTP on with a confirmed setup: its secret, new recovery codes, and no pending SMS sign-in code. */
export function enableTotpRow(
  db: Db,
  userId: string,
  secret: string,
  step: number,
  recoveryHashes: readonly string[],
  at: string,
): void {
  transaction(db, () => {
    statement(
      db,
      `UPDATE users SET mfa_enabled = 1, mfa_method = 'totp', mfa_secret = ?, mfa_last_time_step = ?, updated_at = ?
       WHERE id = ?`,
    ).run(secret, step, at, userId);
    replaceRecoveryCodes(db, userId, recoveryHashes);
    statement(db, 'DELETE FROM mfa_setups WHERE user_id = ?').run(userId);
    statement(db, 'DELETE FROM sms_codes WHERE user_id = ? AND purpose = ?').run(userId, 'login');
  });
}

/** SMS on: any TOTP secret and pending setup are dropped, new recovery codes replace the old. */
export function enableSmsRow(db: Db, userId: string, recoveryHashes: readonly string[], at: string): void {
  transaction(db, () => {
    statement(
      db,
      `UPDATE users SET mfa_enabled = 1, mfa_method = 'sms', mfa_secret = NULL, mfa_last_time_step = NULL,
       updated_at = ? WHERE id = ?`,
    ).run(at, userId);
    replaceRecoveryCodes(db, userId, recoveryHashes);
    statement(db, 'DELETE FROM mfa_setups WHERE user_id = ?').run(userId);
  });
}

/** MFA off: method, secret, phone, recovery codes and SMS codes all go. */
export function disableMfaRow(db: Db, userId: string, at: string): void {
  transaction(db, () => {
    statement(
      db,
      `UPDATE users SET mfa_enabled = 0, mfa_method = NULL, mfa_secret = NULL, mfa_last_time_step = NULL,
       phone_number = NULL, phone_verified = 0, updated_at = ? WHERE id = ?`,
    ).run(at, userId);
    statement(db, 'DELETE FROM mfa_recovery_codes WHERE user_id = ?').run(userId);
    statement(db, 'DELETE FROM sms_codes WHERE user_id = ?').run(userId);
  });
}

export function setVerifiedPhone(db: Db, userId: string, phone: string, at: string): void {
  statement(db, 'UPDATE users SET phone_number = ?, phone_verified = 1, updated_at = ? WHERE id = ?').run(
    phone,
    at,
    userId,
  );
}

/** Stores a new SMS code and retires the user's earlier live codes of the same purpose. */
export function replaceSmsCode(db: Db, code: NewSmsCode): void {
  transaction(db, () => {
    statement(
      db,
      'UPDATE sms_codes SET consumed_at = ? WHERE user_id = ? AND purpose = ? AND consumed_at IS NULL',
    ).run(code.createdAt, code.userId, code.purpose);
    statement(
      db,
      `INSERT INTO sms_codes (id, user_id, purpose, phone_number, code_hash, created_at, expires_at)
       VALUES (@id, @userId, @purpose, @phone, @codeHash, @createdAt, @expiresAt)`,
    ).run(code);
  });
}

/** The newest code of the purpose that is unspent, unexpired at `now` and under `maxAttempts` failures. */
export function liveSmsCode(
  db: Db,
  userId: string,
  purpose: string,
  now: string,
  maxAttempts: number,
): SmsCodeRow | undefined {
  return statement(
    db,
    `SELECT id, phone_number, code_hash, failed_attempts FROM sms_codes
     WHERE user_id = ? AND purpose = ? AND consumed_at IS NULL AND expires_at > ? AND failed_attempts < ?
     ORDER BY created_at DESC LIMIT 1`,
  ).get(userId, purpose, now, maxAttempts) as SmsCodeRow | undefined;
}

/** Counts a wrong code; `consumedAt` set kills it. */
export function recordSmsFailure(db: Db, id: string, failures: number, consumedAt: string | null): void {
  statement(db, 'UPDATE sms_codes SET failed_attempts = ?, consumed_at = ? WHERE id = ?').run(
    failures,
    consumedAt,
    id,
  );
}

export function consumeSmsCode(db: Db, id: string, at: string): void {
  statement(db, 'UPDATE sms_codes SET consumed_at = ? WHERE id = ?').run(at, id);
}
