import type { Request, Response } from 'express';
import type { AppContext } from '../../context';
import type { AcceptedResponse } from '../../contract/registration';
import { clientInfo } from '../../http/client-info';
import { badRequest, HttpError, unauthorized } from '../../http/errors';
import { AUTH_LIMITS } from '../../http/rate-limit';
import { checkPassword, hashPassword, passwordProblem } from '../auth';
import { clearSessionCookies, deleteLoginChallengesOf } from '../sessions';
import { auditUser } from '../../http/account';
import { consumeEmailToken, findUsableEmailToken, issueEmailToken, retireUserTokens } from '../registration';
import { transaction } from '../../db/after-commit';
import { ssoGoverns } from '../sso';
import { revokeUserSessions, setPasswordHash, userByEmail, userById } from '../users';

// Forgot, reset and change password (spec 1, /auth). Every password change ends every session of the user:
// refresh tokens are revoked, the token version is bumped (so access tokens die at once), pending MFA sign-in
// challenges (which proved the old password) are dropped and unused reset links are retired. The current password
// and reset links are checked through the secret guard; asking for a link is limited per address and email.

export const PASSWORD_RESET_TTL_SECONDS = 3600;

export const RESET_REQUESTED: AcceptedResponse = {
  success: true,
  message:
    'If an account exists for this address, we have sent it a link to reset the password. The link is valid for 1 hour.',
};
const INVALID_TOKEN = 'invalid or expired token';

function assertStrongPassword(password: string, email: string): void {
  const problem = passwordProblem(password, { email });
  if (problem) throw badRequest(problem, 'WEAK_PASSWORD');
}

/** Stores the new hash and ends every session and outstanding reset link of the user, in one transaction. */
function replacePassword(ctx: AppContext, userId: string, passwordHash: string, reason: string): void {
  const now = new Date().toISOString();
  setPasswordHash(ctx.db, userId, passwordHash, now);
  ctx.tokens.revokeAllForUser(userId, reason);
  revokeUserSessions(ctx, userId);
  deleteLoginChallengesOf(ctx.db, userId);
  retireUserTokens(ctx.db, userId, ['password_reset']);
}

export function forgotPassword(ctx: AppContext, req: Request, email: string): AcceptedResponse {
  const client = clientInfo(req);
  ctx.limiter.enforce(
    [
      [AUTH_LIMITS.passwordResetPerIp, client.ipAddress],
      [AUTH_LIMITS.passwordResetPerEmail, email],
    ],
    'Too many password reset requests',
  );
  // The link is issued after the answer has gone out: the response takes the same time whether or not the
  // address has an account, so its timing does not tell.
  setImmediate(() => {
    try {
      sendResetLink(ctx, req, email);
    } catch (err) {
      ctx.log.error({ err }, 'password reset link could not be issued');
    }
  });
  return RESET_REQUESTED;
}

function sendResetLink(ctx: AppContext, req: Request, email: string): void {
  const user = userByEmail(ctx.db, email);
  // Invited accounts have no password to reset (they accept their invitation); disabled ones stay disabled.
  if (!user || user.status !== 'active' || !user.password_hash) return;
  // Rule 13: single sign-on governs this account; the answer was already the generic success, and nothing is sent.
  if (ssoGoverns(ctx.db, user.id)) return;
  const { token } = issueEmailToken(ctx.db, {
    purpose: 'password_reset',
    email: user.email,
    userId: user.id,
    ttlSeconds: PASSWORD_RESET_TTL_SECONDS,
    supersede: { purposes: ['password_reset'], by: 'user' },
  });
  ctx.mailer.send({
    kind: 'email',
    to: user.email,
    subject: 'Reset your Gatehouse password',
    text: [
      `Hello ${user.name},`,
      '',
      'Someone (hopefully you) asked to reset the password of your Gatehouse account.',
      '',
      `Choose a new password here: ${ctx.publicOrigin}/reset-password?token=${token}`,
      '',
      'The link is valid for 1 hour and works once. Resetting signs you out everywhere.',
      'If you did not ask for this, ignore this email: your password stays as it is.',
    ].join('\n'),
  });
  auditUser(ctx, req, user, 'user.password.reset_request');
}

export async function resetPassword(
  ctx: AppContext,
  req: Request,
  res: Response,
  token: string,
  password: string,
): Promise<AcceptedResponse> {
  const row = ctx.guard.check({ kind: 'email_token', req }, () => {
    const found = findUsableEmailToken(ctx.db, token, ['password_reset']);
    const owner = found?.user_id ? userById(ctx.db, found.user_id) : undefined;
    return found && owner?.status === 'active' ? { ...found, user: owner } : null;
  });
  if (!row) throw new HttpError(400, INVALID_TOKEN);
  const { user } = row;
  // A refused password leaves the link usable, so the technician can try a stronger one.
  assertStrongPassword(password, user.email);
  const hash = await hashPassword(password);
  const done = transaction(ctx.db, () => {
    if (!consumeEmailToken(ctx.db, row.token_hash)) return false;
    replacePassword(ctx, user.id, hash, 'password_reset');
    return true;
  });
  if (!done) throw new HttpError(400, INVALID_TOKEN);
  clearSessionCookies(req, res);
  auditUser(ctx, req, user, 'user.password.reset');
  return { success: true, message: 'Your password has been reset. Sign in with the new password.' };
}

export async function changePassword(
  ctx: AppContext,
  req: Request,
  res: Response,
  userId: string,
  currentPassword: string,
  newPassword: string,
): Promise<{ success: true }> {
  const user = userById(ctx.db, userId);
  if (!user) throw unauthorized('Session has been revoked', 'TOKEN_REVOKED');
  if (!user.password_hash) {
    throw badRequest('This account has no password: it signs in through single sign-on', 'PASSWORD_NOT_SET');
  }
  if (!(await checkPassword(ctx, req, user, currentPassword))) {
    auditUser(ctx, req, user, 'user.password.change', {
      result: 'failure',
      errorMessage: 'current password incorrect',
    });
    throw badRequest('Current password is incorrect', 'INVALID_CURRENT_PASSWORD');
  }
  assertStrongPassword(newPassword, user.email);
  if (newPassword === currentPassword) {
    throw badRequest('New password must be different from the current password', 'PASSWORD_UNCHANGED');
  }
  const hash = await hashPassword(newPassword);
  transaction(ctx.db, () => replacePassword(ctx, user.id, hash, 'password_change'));
  clearSessionCookies(req, res);
  auditUser(ctx, req, user, 'user.password.change');
  return { success: true };
}
