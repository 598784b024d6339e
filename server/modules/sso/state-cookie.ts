import { createHmac, randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { safeEqual } from '../../crypto';
import { isHttpsRequest } from '../../http/client-info';
import { readCookie } from '../sessions';
import { CALLBACK_PATH } from './paths';

// The `service_sso_state` cookie (rule 10 b, d): HTTP-only, SameSite Lax (the IdP's redirect back is a top-level
// cross-site navigation, which Lax lets through), on the callback path only, 10 minutes, Secure in production. It
// holds an HMAC-SHA256 of the state, so the callback can prove that the browser presenting the state is the one
// that started the sign-in: another browser's cookie signs another state.

export const STATE_COOKIE = 'service_sso_state';
export const LOGIN_TTL_MS = 10 * 60 * 1000;

export interface StateSigner {
  sign(state: string): string;
}

/**
 * A key per server process. A restart ends the sign-ins in flight (at most 10 minutes of them), which keeps the
 * key out of storage altogether.
 */
export function stateSigner(): StateSigner {
  const key = randomBytes(32);
  return { sign: (state) => createHmac('sha256', key).update(state).digest('base64url') };
}

function cookieOptions(req: Request, production: boolean) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: production || isHttpsRequest(req),
    path: CALLBACK_PATH,
  };
}

export function setStateCookie(req: Request, res: Response, production: boolean, signature: string): void {
  res.cookie(STATE_COOKIE, signature, { ...cookieOptions(req, production), maxAge: LOGIN_TTL_MS });
}

export function clearStateCookie(req: Request, res: Response, production: boolean): void {
  res.clearCookie(STATE_COOKIE, cookieOptions(req, production));
}

/** Rule 10 d, first of all: the returned state against the cookie, in constant time. */
export function stateMatchesCookie(req: Request, signer: StateSigner, state: string | undefined): boolean {
  const cookie = readCookie(req, STATE_COOKIE);
  return cookie !== undefined && state !== undefined && safeEqual(signer.sign(state), cookie);
}
