import type { Request, Response } from 'express';
import type { TokenPair } from '../../contract';
import type { AppContext } from '../../context';
import { randomToken } from '../../crypto';
import { clientInfo, isHttpsRequest } from '../../http/client-info';
import { unauthorized } from '../../http/errors';
import { heldPermissions } from '../../http/permissions';
import { membershipOf, toAuthUser, type UserRow } from '../users';
import { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS, type IssuedRefresh } from './tokens';

// Issuing a session: one place that mints the token pair and sets the refresh and CSRF cookies.

export const REFRESH_COOKIE = 'service_refresh_token';
export const CSRF_COOKIE = 'service_csrf_token';
export const CSRF_HEADER = 'x-service-csrf';
const REFRESH_COOKIE_PATH = '/api/v1/auth';

/** Secure when the client came over https, directly or through a trusted TLS proxy (client-info.ts). */
function secureCookies(req: Request): boolean {
  return isHttpsRequest(req);
}

export function setSessionCookies(req: Request, res: Response, refreshToken: string): void {
  const common = {
    secure: secureCookies(req),
    sameSite: 'strict' as const,
    maxAge: REFRESH_TOKEN_TTL_SECONDS * 1000,
  };
  res.cookie(REFRESH_COOKIE, refreshToken, { ...common, httpOnly: true, path: REFRESH_COOKIE_PATH });
  // Double-submit CSRF token: readable by the console, echoed in x-service-csrf when refreshing by cookie.
  res.cookie(CSRF_COOKIE, randomToken(18), { ...common, httpOnly: false, path: '/' });
}

export function clearSessionCookies(req: Request, res: Response): void {
  res.clearCookie(REFRESH_COOKIE, {
    path: REFRESH_COOKIE_PATH,
    secure: secureCookies(req),
    sameSite: 'strict',
  });
  res.clearCookie(CSRF_COOKIE, { path: '/', secure: secureCookies(req), sameSite: 'strict' });
}

/**
 * Signs an access token for the user's current membership, bound to its session: the refresh family `rotated`
 * continues (a refresh), or a new one (a sign-in).
 */
export async function issueSession(
  ctx: AppContext,
  req: Request,
  res: Response,
  user: UserRow,
  mfa: boolean,
  rotated?: IssuedRefresh,
): Promise<TokenPair> {
  return (await issueSessionWithId(ctx, req, res, user, mfa, rotated)).pair;
}

/** issueSession, also naming the session (refresh family), for a sign-in that records how it began. */
export async function issueSessionWithId(
  ctx: AppContext,
  req: Request,
  res: Response,
  user: UserRow,
  mfa: boolean,
  rotated?: IssuedRefresh,
): Promise<{ pair: TokenPair; sessionId: string }> {
  const membership = membershipOf(ctx.db, user.id);
  if (!membership || user.status !== 'active')
    throw unauthorized('Account is not active', 'ACCOUNT_INACTIVE');
  const refresh = rotated ?? ctx.tokens.issueRefresh(user.id, mfa, clientInfo(req));
  const accessToken = await ctx.tokens.signAccess(
    user.id,
    membership,
    mfa,
    user.token_version,
    refresh.sessionId,
  );
  setSessionCookies(req, res, refresh.token);
  const pair = {
    accessToken,
    refreshToken: refresh.token,
    expiresInSeconds: ACCESS_TOKEN_TTL_SECONDS,
    mfa,
    user: toAuthUser(user, membership, heldPermissions(ctx.db, membership.roleId)),
  };
  return { pair, sessionId: refresh.sessionId };
}

/** Reads `a=b; c=d` without another dependency; cookie values we set are URL-safe. */
export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}
