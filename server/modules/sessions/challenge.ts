import type { Request } from 'express';
import type { AppContext } from '../../context';
import { randomToken, sha256Hex } from '../../crypto';
import { clientInfo } from '../../http/client-info';
import { unauthorized } from '../../http/errors';
import type { UserRow } from '../users';
import { insertLoginChallenge, loginChallengeByHash, type ChallengeRow } from './store';
import { userById } from '../users';

// The login challenge: after the password of an MFA user, a tempToken stands for the half-finished sign-in until
// the second factor answers it (service.ts verifyLoginChallenge) or it expires. Apart from service.ts so that the
// SMS step can find the user behind a challenge without depending on the login flow that checks the code.

export const MFA_CHALLENGE_TTL_SECONDS = 5 * 60;

/**
 * What the first step of a half-finished sign-in was: the password, or single sign-on through a provider (whose
 * MFA did not count, so Gatehouse's own second factor is owed). The session records it once the second factor
 * answers. It travels in the tempToken itself, `mfa_sso.<providerId>.<random>`: the challenge is only ever
 * found by the hash of the whole token, so an altered provider finds no challenge at all.
 */
export type FirstStep = { via: 'password' } | { via: 'sso'; providerId: string };

const SSO_TOKEN = /^mfa_sso\.([0-9a-f-]{36})\./;

export function firstStepOf(tempToken: string): FirstStep {
  const providerId = SSO_TOKEN.exec(tempToken)?.[1];
  return providerId ? { via: 'sso', providerId } : { via: 'password' };
}

export const challengeExpired = () =>
  unauthorized('MFA session expired. Sign in again.', 'MFA_SESSION_EXPIRED');

/** Opens a challenge for a user whose password was accepted; returns the tempToken (shown once). */
export function openLoginChallenge(
  ctx: AppContext,
  req: Request,
  user: Pick<UserRow, 'id'>,
  first: FirstStep = { via: 'password' },
): string {
  const tempToken =
    first.via === 'sso' ? `mfa_sso.${first.providerId}.${randomToken(32)}` : `mfa_${randomToken(32)}`;
  const now = new Date();
  const client = clientInfo(req);
  insertLoginChallenge(ctx.db, {
    tokenHash: sha256Hex(tempToken),
    userId: user.id,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + MFA_CHALLENGE_TTL_SECONDS * 1000).toISOString(),
    ipAddress: client.ipAddress,
    userAgent: client.userAgent,
  });
  return tempToken;
}

/** A live challenge (unconsumed, not expired) and its user (still active with MFA), or 401 MFA_SESSION_EXPIRED. */
export function liveChallenge(
  ctx: AppContext,
  tempToken: string,
): { challenge: ChallengeRow; user: UserRow } {
  const challenge = loginChallengeByHash(ctx.db, sha256Hex(tempToken));
  if (!challenge || challenge.consumed_at || Date.parse(challenge.expires_at) <= Date.now()) {
    throw challengeExpired();
  }
  const user = userById(ctx.db, challenge.user_id);
  if (!user || user.status !== 'active' || user.mfa_enabled !== 1) throw challengeExpired();
  return { challenge, user };
}

/**
 * The user behind a live login challenge, for steps that act on it without answering it, such as sending the
 * SMS code.
 */
export function challengeUser(ctx: AppContext, tempToken: string): UserRow {
  return liveChallenge(ctx, tempToken).user;
}
