import { statement, type Db } from '../../db/connection';
import { transaction } from '../../db/after-commit';

// SQL for the second factor: the MFA columns of users, pending TOTP setups, recovery codes, SMS codes, and the
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

export class MfaStore {
  constructor(private readonly db: Db) {}

  /** JSON true / false come back as 1 / 0; undefined when the organization is gone. */
  organizationPolicy(orgId: string): { require_mfa: unknown; sms: unknown } | undefined {
    return statement(
      this.db,
      `SELECT json_extract(settings, '$.security.requireMfa') AS require_mfa,
              json_extract(settings, '$.security.allowedMfaMethods.sms') AS sms
       FROM organizations WHERE id = ? AND deleted_at IS NULL`,
    ).get(orgId) as { require_mfa: unknown; sms: unknown } | undefined;
  }

  /** Compare-and-set of the last accepted TOTP step, so two concurrent requests cannot both spend one code. */
  spendTotpStep(userId: string, step: number): boolean {
    return (
      statement(
        this.db,
        'UPDATE users SET mfa_last_time_step = ? WHERE id = ? AND (mfa_last_time_step IS NULL OR mfa_last_time_step < ?)',
      ).run(step, userId, step).changes === 1
    );
  }

  spendRecoveryCode(userId: string, codeHash: string, at: string): boolean {
    return (
      statement(
        this.db,
        'UPDATE mfa_recovery_codes SET used_at = ? WHERE user_id = ? AND code_hash = ? AND used_at IS NULL',
      ).run(at, userId, codeHash).changes === 1
    );
  }

  replaceRecoveryCodes(userId: string, hashes: readonly string[]): void {
    transaction(this.db, () => {
      statement(this.db, 'DELETE FROM mfa_recovery_codes WHERE user_id = ?').run(userId);
      const insert = statement(this.db, 'INSERT INTO mfa_recovery_codes (user_id, code_hash) VALUES (?, ?)');
      for (const hash of hashes) insert.run(userId, hash);
    });
  }

  /** A new pending TOTP setup replaces the user's earlier one. Secret and codes come sealed. */
  saveSetup(userId: string, secret: string, recoveryCodes: string, expiresAt: string): void {
    statement(
      this.db,
      `INSERT INTO mfa_setups (user_id, secret, recovery_codes, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret,
         recovery_codes = excluded.recovery_codes, expires_at = excluded.expires_at`,
    ).run(userId, secret, recoveryCodes, expiresAt);
  }

  pendingSetup(userId: string): SetupRow | undefined {
    return statement(this.db, 'SELECT * FROM mfa_setups WHERE user_id = ?').get(userId) as
      SetupRow | undefined;
  }

  /** TOTP on with a confirmed setup: its secret, new recovery codes, and no pending SMS sign-in code. */
  enableTotp(
    userId: string,
    secret: string,
    step: number,
    recoveryHashes: readonly string[],
    at: string,
  ): void {
    transaction(this.db, () => {
      statement(
        this.db,
        `UPDATE users SET mfa_enabled = 1, mfa_method = 'totp', mfa_secret = ?, mfa_last_time_step = ?, updated_at = ?
         WHERE id = ?`,
      ).run(secret, step, at, userId);
      this.replaceRecoveryCodes(userId, recoveryHashes);
      statement(this.db, 'DELETE FROM mfa_setups WHERE user_id = ?').run(userId);
      statement(this.db, 'DELETE FROM sms_codes WHERE user_id = ? AND purpose = ?').run(userId, 'login');
    });
  }

  /** SMS on: any TOTP secret and pending setup are dropped, new recovery codes replace the old. */
  enableSms(userId: string, recoveryHashes: readonly string[], at: string): void {
    transaction(this.db, () => {
      statement(
        this.db,
        `UPDATE users SET mfa_enabled = 1, mfa_method = 'sms', mfa_secret = NULL, mfa_last_time_step = NULL,
         updated_at = ? WHERE id = ?`,
      ).run(at, userId);
      this.replaceRecoveryCodes(userId, recoveryHashes);
      statement(this.db, 'DELETE FROM mfa_setups WHERE user_id = ?').run(userId);
    });
  }

  /** MFA off: method, secret, phone, recovery codes and SMS codes all go. */
  disable(userId: string, at: string): void {
    transaction(this.db, () => {
      statement(
        this.db,
        `UPDATE users SET mfa_enabled = 0, mfa_method = NULL, mfa_secret = NULL, mfa_last_time_step = NULL,
         phone_number = NULL, phone_verified = 0, updated_at = ? WHERE id = ?`,
      ).run(at, userId);
      statement(this.db, 'DELETE FROM mfa_recovery_codes WHERE user_id = ?').run(userId);
      statement(this.db, 'DELETE FROM sms_codes WHERE user_id = ?').run(userId);
    });
  }

  setVerifiedPhone(userId: string, phone: string, at: string): void {
    statement(
      this.db,
      'UPDATE users SET phone_number = ?, phone_verified = 1, updated_at = ? WHERE id = ?',
    ).run(phone, at, userId);
  }

  /** Stores a new SMS code and retires the user's earlier live codes of the same purpose. */
  replaceSmsCode(code: NewSmsCode): void {
    transaction(this.db, () => {
      statement(
        this.db,
        'UPDATE sms_codes SET consumed_at = ? WHERE user_id = ? AND purpose = ? AND consumed_at IS NULL',
      ).run(code.createdAt, code.userId, code.purpose);
      statement(
        this.db,
        `INSERT INTO sms_codes (id, user_id, purpose, phone_number, code_hash, created_at, expires_at)
         VALUES (@id, @userId, @purpose, @phone, @codeHash, @createdAt, @expiresAt)`,
      ).run(code);
    });
  }

  /** The newest code of the purpose that is unspent, unexpired at `now` and under `maxAttempts` failures. */
  liveSmsCode(userId: string, purpose: string, now: string, maxAttempts: number): SmsCodeRow | undefined {
    return statement(
      this.db,
      `SELECT id, phone_number, code_hash, failed_attempts FROM sms_codes
       WHERE user_id = ? AND purpose = ? AND consumed_at IS NULL AND expires_at > ? AND failed_attempts < ?
       ORDER BY created_at DESC LIMIT 1`,
    ).get(userId, purpose, now, maxAttempts) as SmsCodeRow | undefined;
  }

  /** Counts a wrong code; `consumedAt` set kills it. */
  recordSmsFailure(id: string, failures: number, consumedAt: string | null): void {
    statement(this.db, 'UPDATE sms_codes SET failed_attempts = ?, consumed_at = ? WHERE id = ?').run(
      failures,
      consumedAt,
      id,
    );
  }

  consumeSmsCode(id: string, at: string): void {
    statement(this.db, 'UPDATE sms_codes SET consumed_at = ? WHERE id = ?').run(at, id);
  }
}
