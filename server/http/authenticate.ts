import type { RequestHandler } from 'express';
import type { AppContext } from '../context';
import { forbidden, unauthorized } from './errors';

// Bearer JWT authentication. The token's signature proves who issued it; the user row decides whether it still
// counts: a disabled account or a bumped token_version (logout, password change) ends every token at once.

export function authenticator(ctx: AppContext, required: boolean): RequestHandler {
  const load = ctx.db.prepare('SELECT email, status, token_version FROM users WHERE id = ?');
  return async (req, _res, next) => {
    const header = req.get('authorization');
    if (!header) {
      if (required) throw unauthorized('Authentication required', 'AUTH_REQUIRED');
      return next();
    }
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) throw unauthorized('Invalid authorization header', 'TOKEN_INVALID');
    const claims = await ctx.tokens.verifyAccess(match[1]);
    const user = load.get(claims.sub) as { email: string; status: string; token_version: number } | undefined;
    if (!user || user.status !== 'active' || user.token_version !== claims.tv) {
      throw unauthorized('Session has been revoked', 'TOKEN_REVOKED');
    }
    req.auth = {
      kind: 'user',
      userId: claims.sub,
      email: user.email,
      scope: claims.scope,
      partnerId: claims.partnerId,
      orgId: claims.orgId,
      roleId: claims.roleId,
      mfa: claims.mfa,
    };
    next();
  };
}

export const MFA_REQUIRED_MESSAGE = 'Multi-factor authentication required for this action';

/** Spec 1 §5: with MFA enabled on the server, the session must carry `mfa: true`. */
export function mfaGuard(ctx: AppContext): RequestHandler {
  return (req, _res, next) => {
    if (ctx.config.enable2fa && !req.auth?.mfa) {
      throw forbidden(MFA_REQUIRED_MESSAGE, 'MFA_REQUIRED');
    }
    next();
  };
}
