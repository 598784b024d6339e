import { randomInt, randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import type { MfaEnableResponse, SmsSentResponse } from '../../contract';
import type { AppContext } from '../../context';
import { safeEqual, sha256Hex } from '../../crypto';
import { MFA_REQUIRED_MESSAGE } from '../../http/authenticate';
import type { UserAuth } from '../../http/auth-context';
import { badRequest, conflict, forbidden, unauthorized } from '../../http/errors';
import { AUTH_LIMITS, type LimitRule } from '../../http/rate-limit';
import { auditUser, guardAccount, requireUser } from '../../http/account';
import { challengeUser, issueSession } from '../sessions';
import type { UserRow } from '../users';
import { assertSmsAllowed, requireMfaFeature } from './policy';
import {
  consumeSmsCode,
  enableSmsRow,
  liveSmsCode,
  recordSmsFailure,
  replaceSmsCode,
  setVerifiedPhone,
  type SmsCodeRow,
} from './store';
import { hashRecoveryCode, newRecoveryCodes } from './totp';
import { transaction } from '../../db/after-commit';

// SMS as a second factor (spec 1 §5). Codes are 6 digits, valid 10 minutes, 5 wrong tries, single use, and only
// the newest code of a purpose counts. Every SMS goes to the outbox (kind `sms`): there is no SMS gateway.

export type SmsPurpose = 'phone_verify' | 'login';

export const SMS_CODE_TTL_SECONDS = 10 * 60;
export const SMS_CODE_MAX_ATTEMPTS = 5;
/** One number cannot be flooded through many accounts (AUTH_LIMITS.smsSendPerUser covers one account). */
const SMS_SEND_PER_PHONE: LimitRule = { bucket: 'sms-send:phone', limit: 10, windowSeconds: 3600 };
const TOO_MANY_SMS = 'Too many SMS codes requested';

export const E164 = /^\+[1-9]\d{6,14}$/;

/** `+14155550123` -> `+*******0123`: enough for the technician to recognise their own phone. */
export const maskPhone = (phone: string): string =>
  `+${'*'.repeat(Math.max(0, phone.length - 5))}${phone.slice(-4)}`;

/**
 * Salted with the row id so equal codes never share a hash. A 6-digit code cannot resist an offline guess by
 * someone holding the database; what protects it is the 10-minute life and the 5-try limit.
 */
const hashSmsCode = (id: string, code: string): string => sha256Hex(`sms:${id}:${code}`);

/** Retires the user's earlier codes of this purpose, stores the new one and sends it. */
function issueSmsCode(
  ctx: AppContext,
  user: Pick<UserRow, 'id'>,
  purpose: SmsPurpose,
  phone: string,
): { expiresAt: string } {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const id = randomUUID();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + SMS_CODE_TTL_SECONDS * 1000).toISOString();
  replaceSmsCode(ctx.db, {
    id,
    userId: user.id,
    purpose,
    phone,
    codeHash: hashSmsCode(id, code),
    createdAt: now.toISOString(),
    expiresAt,
  });
  const what = purpose === 'login' ? 'sign-in' : 'verification';
  ctx.mailer.send({
    kind: 'sms',
    to: phone,
    subject: `Gatehouse ${what} code`,
    text: `Gatehouse: your ${what} code is ${code}. It expires in 10 minutes. Never share it with anyone.`,
  });
  return { expiresAt };
}

export type SmsCheck = { ok: true; phone: string } | { ok: false; reason: 'none' | 'wrong' };

/**
 * Checks a code against the user's newest live code of the purpose and spends it when it matches. A wrong code
 * counts against that code; the fifth wrong one kills it. One transaction, so two requests cannot both win.
 */
export function checkSmsCode(ctx: AppContext, userId: string, purpose: SmsPurpose, code: string): SmsCheck {
  const now = new Date().toISOString();
  return transaction(ctx.db, (): SmsCheck => {
    const row: SmsCodeRow | undefined = liveSmsCode(ctx.db, userId, purpose, now, SMS_CODE_MAX_ATTEMPTS);
    if (!row) return { ok: false, reason: 'none' };
    if (!safeEqual(hashSmsCode(row.id, code.trim()), row.code_hash)) {
      const failures = row.failed_attempts + 1;
      recordSmsFailure(ctx.db, row.id, failures, failures >= SMS_CODE_MAX_ATTEMPTS ? now : null);
      return { ok: false, reason: 'wrong' };
    }
    consumeSmsCode(ctx.db, row.id, now);
    return { ok: true, phone: row.phone_number };
  });
}

/**
 * Re-pointing the phone of an SMS-MFA account moves its second factor: that needs a session that passed MFA,
 * otherwise a stolen password-only session could take the factor over.
 */
function assertMayChangePhone(ctx: AppContext, user: UserRow, auth: UserAuth): void {
  if (ctx.config.enable2fa && user.mfa_enabled === 1 && user.mfa_method === 'sms' && !auth.mfa) {
    throw forbidden(MFA_REQUIRED_MESSAGE, 'MFA_REQUIRED');
  }
}

export function requestPhoneVerification(
  ctx: AppContext,
  auth: UserAuth,
  phoneNumber: string,
): SmsSentResponse {
  const user = requireUser(ctx, auth.userId);
  assertMayChangePhone(ctx, user, auth);
  ctx.limiter.enforce(
    [
      [AUTH_LIMITS.smsSendPerUser, user.id],
      [SMS_SEND_PER_PHONE, phoneNumber],
    ],
    TOO_MANY_SMS,
  );
  const { expiresAt } = issueSmsCode(ctx, user, 'phone_verify', phoneNumber);
  return { success: true, expiresAt, sentTo: maskPhone(phoneNumber) };
}

export function confirmPhone(
  ctx: AppContext,
  req: Request,
  auth: UserAuth,
  code: string,
): { success: true; phoneNumber: string; phoneVerified: true } {
  const user = requireUser(ctx, auth.userId);
  assertMayChangePhone(ctx, user, auth);
  const check = ctx.guard.check(
    { kind: 'mfa_code', req, account: guardAccount(ctx, user) },
    () => checkSmsCode(ctx, user.id, 'phone_verify', code),
    (found) => found.ok,
  );
  if (!check.ok) {
    if (check.reason === 'none') {
      throw badRequest('Verification code expired or not requested. Ask for a new code.', 'SMS_CODE_EXPIRED');
    }
    throw badRequest('Invalid verification code', 'INVALID_SMS_CODE');
  }
  setVerifiedPhone(ctx.db, user.id, check.phone, new Date().toISOString());
  auditUser(ctx, req, user, 'user.phone.verify', { details: { phoneNumber: maskPhone(check.phone) } });
  return { success: true, phoneNumber: check.phone, phoneVerified: true };
}

/** Turns SMS MFA on for a verified phone; switching from TOTP needs a session that passed MFA. */
export async function enableSms(
  ctx: AppContext,
  req: Request,
  res: Response,
  auth: UserAuth,
): Promise<MfaEnableResponse> {
  requireMfaFeature(ctx);
  const user = requireUser(ctx, auth.userId);
  if (user.mfa_enabled === 1) {
    if (user.mfa_method === 'sms') throw conflict('MFA is already enabled', 'MFA_ALREADY_ENABLED');
    if (!auth.mfa) throw forbidden(MFA_REQUIRED_MESSAGE, 'MFA_REQUIRED');
  }
  if (user.phone_verified !== 1 || !user.phone_number) {
    throw badRequest(
      'A verified phone number is required to enable SMS multi-factor authentication',
      'PHONE_NOT_VERIFIED',
    );
  }
  assertSmsAllowed(ctx, user.id);
  const recoveryCodes = newRecoveryCodes();
  enableSmsRow(ctx.db, user.id, recoveryCodes.map(hashRecoveryCode), new Date().toISOString());
  const details = {
    method: 'sms',
    phoneNumber: maskPhone(user.phone_number),
    ...(user.mfa_enabled === 1 ? { previousMethod: user.mfa_method } : {}),
  };
  // The same two entries as TOTP enrollment (setup, then enable), so one filter finds every method.
  auditUser(ctx, req, user, 'auth.mfa.setup', { details });
  auditUser(ctx, req, user, 'auth.mfa.enable', { details });
  const pair = await issueSession(ctx, req, res, requireUser(ctx, user.id), true);
  return { success: true, recoveryCodes, ...pair };
}

/**
 * Sends a sign-in code to the verified phone of an SMS-MFA user: during login (tempToken), or to a signed-in
 * user who needs a current code (for example to disable MFA).
 */
export function sendLoginCode(
  ctx: AppContext,
  req: Request,
  input: { tempToken?: string; auth: UserAuth | null },
): SmsSentResponse {
  let user: UserRow;
  if (input.tempToken) user = challengeUser(ctx, input.tempToken);
  else if (input.auth) user = requireUser(ctx, input.auth.userId);
  else throw unauthorized('tempToken or a signed-in session is required', 'AUTH_REQUIRED');
  if (
    user.mfa_enabled !== 1 ||
    user.mfa_method !== 'sms' ||
    user.phone_verified !== 1 ||
    !user.phone_number
  ) {
    throw badRequest('SMS is not the multi-factor method of this account', 'MFA_METHOD_MISMATCH');
  }
  assertSmsAllowed(ctx, user.id);
  ctx.limiter.enforce(
    [
      [AUTH_LIMITS.smsSendPerUser, user.id],
      [SMS_SEND_PER_PHONE, user.phone_number],
    ],
    TOO_MANY_SMS,
  );
  const { expiresAt } = issueSmsCode(ctx, user, 'login', user.phone_number);
  auditUser(ctx, req, user, 'auth.mfa.sms.send', {
    details: { phoneNumber: maskPhone(user.phone_number), duringLogin: Boolean(input.tempToken) },
  });
  return { success: true, expiresAt, sentTo: maskPhone(user.phone_number) };
}
