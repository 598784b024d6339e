import type { Request, Response } from 'express';
import type { LoginResponse, TokenPair } from '../../contract';
import type { AppContext } from '../../context';
import { clientInfo } from '../../http/client-info';
import { HttpError, unauthorized } from '../../http/errors';
import { auditUser, guardAccount } from '../../http/account';
import type { GuardAccount } from '../../http/guard';
import { checkSecondFactor } from '../mfa';
import { providerById, ssoGoverns } from '../sso';
import type { UserRow } from '../users';
import {
  challengeExpired,
  clearSessionCookies,
  consumeLoginChallenge,
  CSRF_COOKIE,
  CSRF_HEADER,
  firstStepOf,
  issueSession,
  issueSessionWithId,
  liveChallenge,
  openLoginChallenge,
  readCookie,
  recordChallengeFailure,
  REFRESH_COOKIE,
  RefreshReuseError,
  type Rotation,
} from '../sessions';
import { verifyAgainstDummy, verifyPassword } from './passwords';
import { signInDetails, type SignInSteps } from './sign-in';
import { membershipOf, revokeUserSessions, touchLogin, userByEmail, userById } from '../users';

const INVALID_CREDENTIALS = 'Invalid email or password';
/** Wrong codes tolerated on one challenge before the technician must enter the password again. */
const MFA_CHALLENGE_MAX_FAILURES = 5;

/** The organization the user belongs to (null for partner and platform users): where their events are pushed. */
function auditOrg(ctx: AppContext, userId: string): string | null {
  return membershipOf(ctx.db, userId)?.orgId ?? null;
}

/**
 * A sign-in to an address without an account is counted like one with an account, under the address itself, so
 * the answers do not tell which addresses have accounts.
 */
function unknownAccount(email: string): GuardAccount {
  const address = email.trim().toLowerCase();
  return {
    key: `email:${address}`,
    audit: {
      orgId: null,
      partnerId: null,
      actorType: 'system',
      actorId: 'anonymous',
      actorEmail: address,
      resourceType: 'user',
      resourceName: address,
    },
  };
}

/**
 * The account's password, checked through the secret guard (change-password, re-authentication). Accounts without
 * a password (single sign-on) never match.
 */
export function checkPassword(
  ctx: AppContext,
  req: Request,
  user: UserRow,
  password: string,
): Promise<boolean> {
  return ctx.guard.check({ kind: 'password', req, account: guardAccount(ctx, user) }, () =>
    user.password_hash ? verifyPassword(user.password_hash, password) : verifyAgainstDummy(password),
  );
}

export async function login(
  ctx: AppContext,
  req: Request,
  res: Response,
  email: string,
  password: string,
): Promise<LoginResponse> {
  const user = userByEmail(ctx.db, email);
  const membership = user ? membershipOf(ctx.db, user.id) : null;
  // One failure whatever was wrong, so a disabled or unknown account answers and counts like a wrong password.
  const accepted = await ctx.guard.check(
    { kind: 'password', req, account: user ? guardAccount(ctx, user) : unknownAccount(email) },
    async () => {
      const passwordOk = user?.password_hash
        ? await verifyPassword(user.password_hash, password)
        : await verifyAgainstDummy(password);
      // Rule 13: single sign-on governs the account: refused exactly like a wrong password.
      return passwordOk && user?.status === 'active' && membership !== null && !ssoGoverns(ctx.db, user.id);
    },
  );
  if (!user || !accepted || !membership) {
    if (user)
      auditUser(ctx, req, user, 'user.login.failed', {
        result: 'failure',
        errorMessage: 'invalid credentials',
      });
    throw unauthorized(INVALID_CREDENTIALS);
  }
  // Partner status and IP allowlist (401 IP_NOT_ALLOWED at login); platform administrators are exempt.
  if (membership.partnerId) ctx.tenantGuard.check(membership.partnerId, req, 'login');
  if (ctx.config.enable2fa && user.mfa_enabled === 1) {
    const tempToken = openLoginChallenge(ctx, req, user);
    return { mfaRequired: true, tempToken, mfaMethod: user.mfa_method ?? 'totp' };
  }
  return completeLogin(ctx, req, res, user, { method: 'password', secondFactor: null });
}

/**
 * Issues the session of a successful sign-in and records it, with the steps it went through, in an audit entry
 * tied to the session (login, MFA verification, single sign-on, email verification). Any second factor, the
 * IdP's included, makes it an MFA session.
 */
export async function completeLogin(
  ctx: AppContext,
  req: Request,
  res: Response,
  user: UserRow,
  steps: SignInSteps,
): Promise<TokenPair> {
  const at = new Date().toISOString();
  touchLogin(ctx.db, user.id, at);
  const mfa = steps.secondFactor !== null;
  const { pair, sessionId } = await issueSessionWithId(ctx, req, res, { ...user, last_login_at: at }, mfa);
  auditUser(ctx, req, user, 'user.login', { details: signInDetails(steps), sessionId });
  ctx.bus.emit('user.login', auditOrg(ctx, user.id), { userId: user.id, email: user.email });
  return pair;
}

/** Second login step: the tempToken from login plus a TOTP, SMS or recovery code. */
export async function verifyLoginChallenge(
  ctx: AppContext,
  req: Request,
  res: Response,
  tempToken: string,
  code: string,
): Promise<TokenPair> {
  const { challenge, user } = liveChallenge(ctx, tempToken);
  const method = await checkSecondFactor(ctx, req, user, code);
  if (!method) {
    const failures = challenge.failed_attempts + 1;
    recordChallengeFailure(
      ctx.db,
      challenge.token_hash,
      failures,
      failures >= MFA_CHALLENGE_MAX_FAILURES ? new Date().toISOString() : null,
    );
    auditUser(ctx, req, user, 'user.login.failed', { result: 'failure', errorMessage: 'invalid MFA code' });
    throw unauthorized('Invalid MFA code', 'INVALID_MFA_CODE');
  }
  // Single use: a second verify with the same tempToken finds it consumed.
  if (!consumeLoginChallenge(ctx.db, challenge.token_hash, new Date().toISOString()))
    throw challengeExpired();
  const first = firstStepOf(tempToken);
  const provider = first.via === 'sso' ? providerById(ctx.db, first.providerId) : undefined;
  return completeLogin(ctx, req, res, userById(ctx.db, user.id)!, {
    method: first.via,
    secondFactor: method,
    ...(provider ? { provider: { id: provider.id, name: provider.name } } : {}),
  });
}

/** Rotates the refresh token presented in the body, or in the cookie with the CSRF header. */
export async function refresh(
  ctx: AppContext,
  req: Request,
  res: Response,
  bodyToken: string | undefined,
): Promise<TokenPair> {
  let token = bodyToken;
  if (!token) {
    token = readCookie(req, REFRESH_COOKIE);
    if (!token) throw unauthorized('Refresh token required', 'REFRESH_TOKEN_INVALID');
    const csrfCookie = readCookie(req, CSRF_COOKIE);
    const csrfHeader = req.get(CSRF_HEADER);
    if (!csrfCookie || !csrfHeader || csrfCookie !== csrfHeader) {
      throw new HttpError(403, 'CSRF token missing or invalid', 'CSRF_INVALID');
    }
  }
  let rotated: Rotation;
  try {
    rotated = ctx.tokens.rotate(token, clientInfo(req));
  } catch (err) {
    if (err instanceof RefreshReuseError) {
      const user = userById(ctx.db, err.userId);
      if (user) {
        auditUser(ctx, req, user, 'auth.refresh.reuse_detected', {
          result: 'denied',
          errorMessage: 'rotated refresh token presented again',
        });
      }
      // That one session ends everywhere: its access tokens already fail, its console sockets close now.
      ctx.bus.emit('user.session_revoked', null, { userId: err.userId, sessionId: err.sessionId });
      clearSessionCookies(req, res);
      throw unauthorized('Refresh token reuse detected. Sign in again.', 'REFRESH_TOKEN_REUSED');
    }
    throw err;
  }
  const user = userById(ctx.db, rotated.userId);
  if (!user || user.status !== 'active') throw unauthorized('Account is not active', 'ACCOUNT_INACTIVE');
  return issueSession(ctx, req, res, user, rotated.mfa, rotated.refresh);
}

/** Spec 1: logout revokes all tokens of the user and clears the refresh cookie. */
export function logout(ctx: AppContext, req: Request, res: Response, userId: string): { success: true } {
  const user = userById(ctx.db, userId);
  ctx.tokens.revokeAllForUser(userId, 'logout');
  revokeUserSessions(ctx, userId);
  clearSessionCookies(req, res);
  if (user) {
    auditUser(ctx, req, user, 'user.logout');
    ctx.bus.emit('user.logout', auditOrg(ctx, user.id), { userId: user.id, email: user.email });
  }
  return { success: true };
}
