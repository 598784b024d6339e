import type { Request, Response } from 'express';
import type { MfaEnableResponse, MfaSetupResponse } from '../../contract';
import type { AppContext } from '../../context';
import { MFA_REQUIRED_MESSAGE } from '../../http/authenticate';
import { badRequest, conflict, forbidden } from '../../http/errors';
import { auditUser, guardAccount, requireUser } from '../../http/account';
import { issueSession } from '../sessions';
import type { UserRow } from '../users';
import { assertSmsAllowed, mfaPolicyFor, mfaRequiredByOrganization, requireMfaFeature } from './policy';
import { checkSmsCode } from './sms';
import {
  disableMfaRow,
  enableTotpRow,
  pendingTotpSetup,
  replaceRecoveryCodes,
  saveTotpSetup,
  spendRecoveryCode,
  spendTotpStep,
} from './store';
import {
  hashRecoveryCode,
  isTotpFormat,
  newRecoveryCodes,
  newTotpSecret,
  otpAuthUrl,
  qrCodeDataUrl,
  verifyTotp,
} from './totp';

export const MFA_SETUP_TTL_SECONDS = 10 * 60;

export type SecondFactor = 'totp' | 'sms' | 'recovery_code';

/**
 * Checks a second factor for an MFA-enabled user through the secret guard, and consumes it: a TOTP code moves the
 * user's last accepted time step forward, an SMS code is spent, a recovery code is marked used. Returns the method
 * that matched, or null. Six digits are the code of the user's own method; recovery codes work whatever the method.
 * An SMS code is refused with 403 when the user's organization disallows SMS (a recovery code still gets them in).
 */
export async function checkSecondFactor(
  ctx: AppContext,
  req: Request,
  user: UserRow,
  code: string,
): Promise<SecondFactor | null> {
  return ctx.guard.check({ kind: 'mfa_code', req, account: guardAccount(ctx, user) }, () =>
    consumeSecondFactor(ctx, user, code),
  );
}

async function consumeSecondFactor(
  ctx: AppContext,
  user: UserRow,
  code: string,
): Promise<SecondFactor | null> {
  const trimmed = code.trim();
  if (isTotpFormat(trimmed) && user.mfa_method === 'sms') {
    assertSmsAllowed(ctx, user.id);
    return checkSmsCode(ctx, user.id, 'login', trimmed).ok ? 'sms' : null;
  }
  if (isTotpFormat(trimmed)) {
    if (!user.mfa_secret) return null;
    const step = await verifyTotp(ctx.secretBox.open(user.mfa_secret), trimmed, user.mfa_last_time_step);
    if (step === null) return null;
    // Compare-and-set so two concurrent requests cannot both spend the same code.
    return spendTotpStep(ctx.db, user.id, step) ? 'totp' : null;
  }
  const used = spendRecoveryCode(ctx.db, user.id, hashRecoveryCode(trimmed), new Date().toISOString());
  return used ? 'recovery_code' : null;
}

/**
 * TOTP enrollment is refused while TOTP is on. An SMS user may switch to TOTP (e.g. when their organization
 * stops allowing SMS but requires MFA, so disabling is not an option), with a session that passed MFA.
 */
function assertMayEnrollTotp(user: UserRow, sessionMfa: boolean): void {
  if (user.mfa_enabled !== 1) return;
  if (user.mfa_method !== 'sms') throw conflict('MFA is already enabled', 'MFA_ALREADY_ENABLED');
  if (!sessionMfa) throw forbidden(MFA_REQUIRED_MESSAGE, 'MFA_REQUIRED');
}

export async function startSetup(
  ctx: AppContext,
  req: Request,
  userId: string,
  sessionMfa = false,
): Promise<MfaSetupResponse> {
  requireMfaFeature(ctx);
  const user = requireUser(ctx, userId);
  assertMayEnrollTotp(user, sessionMfa);
  const secret = newTotpSecret();
  const recoveryCodes = newRecoveryCodes();
  const expiresAt = new Date(Date.now() + MFA_SETUP_TTL_SECONDS * 1000).toISOString();
  saveTotpSetup(
    ctx.db,
    user.id,
    ctx.secretBox.seal(secret),
    ctx.secretBox.seal(JSON.stringify(recoveryCodes)),
    expiresAt,
  );
  const otpauth = otpAuthUrl(secret, user.email);
  auditUser(ctx, req, user, 'auth.mfa.setup', { details: { method: 'totp' } });
  return {
    secret,
    otpAuthUrl: otpauth,
    qrCodeDataUrl: await qrCodeDataUrl(otpauth),
    recoveryCodes,
    expiresAt,
  };
}

/** Confirms a pending setup with a code from the app; the session it returns carries `mfa: true`. */
export async function enable(
  ctx: AppContext,
  req: Request,
  res: Response,
  userId: string,
  code: string,
  sessionMfa = false,
): Promise<MfaEnableResponse> {
  requireMfaFeature(ctx);
  const user = requireUser(ctx, userId);
  assertMayEnrollTotp(user, sessionMfa);
  const setup = pendingTotpSetup(ctx.db, user.id);
  if (!setup || Date.parse(setup.expires_at) <= Date.now()) {
    throw badRequest('MFA setup expired or not started. Start the setup again.', 'MFA_SETUP_EXPIRED');
  }
  const step = await ctx.guard.check({ kind: 'mfa_code', req, account: guardAccount(ctx, user) }, () =>
    verifyTotp(ctx.secretBox.open(setup.secret), code.trim(), null),
  );
  if (step === null) throw badRequest('Invalid MFA code', 'INVALID_MFA_CODE');
  const recoveryCodes = JSON.parse(ctx.secretBox.open(setup.recovery_codes)) as string[];
  enableTotpRow(
    ctx.db,
    user.id,
    setup.secret,
    step,
    recoveryCodes.map(hashRecoveryCode),
    new Date().toISOString(),
  );
  auditUser(ctx, req, user, 'auth.mfa.enable', {
    details: { method: 'totp', ...(user.mfa_enabled === 1 ? { previousMethod: user.mfa_method } : {}) },
  });
  // Spec 1: enable returns the recovery codes too, so the console shows them once the authenticator is proven.
  const pair = await issueSession(ctx, req, res, requireUser(ctx, user.id), true);
  return { success: true, recoveryCodes, ...pair };
}

export async function disable(
  ctx: AppContext,
  req: Request,
  userId: string,
  code: string,
): Promise<{ success: true }> {
  const user = requireUser(ctx, userId);
  if (user.mfa_enabled !== 1) throw badRequest('MFA is not enabled', 'MFA_NOT_ENABLED');
  if (mfaPolicyFor(ctx, user.id).requireMfa) throw mfaRequiredByOrganization();
  if (!(await checkSecondFactor(ctx, req, user, code)))
    throw badRequest('Invalid MFA code', 'INVALID_MFA_CODE');
  disableMfaRow(ctx.db, user.id, new Date().toISOString());
  auditUser(ctx, req, user, 'auth.mfa.disable', { details: { method: user.mfa_method } });
  return { success: true };
}

export function regenerateRecoveryCodes(
  ctx: AppContext,
  req: Request,
  userId: string,
): { recoveryCodes: string[] } {
  const user = requireUser(ctx, userId);
  if (user.mfa_enabled !== 1) throw badRequest('MFA is not enabled', 'MFA_NOT_ENABLED');
  const codes = newRecoveryCodes();
  replaceRecoveryCodes(ctx.db, user.id, codes.map(hashRecoveryCode));
  auditUser(ctx, req, user, 'auth.mfa.recovery_codes.rotate');
  return { recoveryCodes: codes };
}
