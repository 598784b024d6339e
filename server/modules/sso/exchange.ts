import type { Request, Response } from 'express';
import type { SsoExchangeResponse } from '../../contract';
import { sha256Hex } from '../../crypto';
import { unauthorized } from '../../http/errors';
import { completeLogin } from '../auth';
import { openLoginChallenge } from '../sessions';
import { membershipOf, userById } from '../users';
import type { SsoRuntime } from './runtime';
import { providerById } from './provider-store';
import { consumeExchangeCode } from './session-store';

// `POST /sso/exchange` (rule 10 m): the code from the URL fragment, once, within a minute, for the session. The
// session is issued here, by the same function as a password sign-in, so its tokens, cookies, audit entry and
// `user.login` event are the same; and unless the provider vouches for the IdP's MFA (rule 16), an MFA user still
// answers Gatehouse's own second factor through the ordinary challenge.

const INVALID_CODE = 'Invalid or expired SSO code';

export async function exchangeCode(
  rt: SsoRuntime,
  req: Request,
  res: Response,
  code: string,
): Promise<SsoExchangeResponse> {
  const { ctx } = rt;
  // Codes are guessed through the one guard for secrets, like every other token a stranger can present.
  const found = ctx.guard.check({ kind: 'sso_code', req }, () => {
    const row = consumeExchangeCode(ctx.db, sha256Hex(code), new Date().toISOString());
    const user = row ? userById(ctx.db, row.user_id) : undefined;
    return row && user?.status === 'active' ? { row, user } : null;
  });
  if (!found) throw unauthorized(INVALID_CODE, 'SSO_CODE_INVALID');
  const { row, user } = found;
  const membership = membershipOf(ctx.db, user.id);
  // Partner status and IP allowlist, as at password sign-in (platform administrators are exempt).
  if (membership?.partnerId) ctx.tenantGuard.check(membership.partnerId, req, 'login');
  const redirectPath = row.redirect_path;
  if (row.idp_mfa === 0 && ctx.config.enable2fa && user.mfa_enabled === 1) {
    // The challenge carries the provider, so the session still says it began with single sign-on.
    const tempToken = openLoginChallenge(ctx, req, user, { via: 'sso', providerId: row.provider_id });
    return { mfaRequired: true, tempToken, mfaMethod: user.mfa_method ?? 'totp', redirectPath };
  }
  const provider = providerById(ctx.db, row.provider_id);
  const pair = await completeLogin(ctx, req, res, user, {
    method: 'sso',
    secondFactor: row.idp_mfa === 1 ? 'idp_mfa' : null,
    ...(provider ? { provider: { id: provider.id, name: provider.name } } : {}),
  });
  return { ...pair, redirectPath };
}
