import { z } from 'zod';
import type { AppContext } from '../../context';
import type { MeResponse } from '../../contract';
import { unauthorized } from '../../http/errors';
import { defineRoute, type AnyRoute } from '../../http/route';
import { mfaPolicyFor, enable } from '../mfa';
import { heldPermissions } from '../../http/permissions';
import { previousSessionStart } from '../sessions';
import { sessionSignIn } from './sign-in';
import { membershipOf, toAuthUser, userById } from '../users';
import { login, logout, refresh, verifyLoginChallenge } from './service';

const email = z.email('Invalid email address').max(255);

export function authRoutes(ctx: AppContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/auth/login',
      tag: 'auth',
      summary: 'Sign in with email and password; answers an MFA challenge for MFA users',
      auth: 'public',
      body: z.object({ email, password: z.string().min(1, 'Password is required').max(1024) }),
      responses: {
        401: 'Invalid email or password',
        429: 'Too many failed password attempts (Retry-After says when to try again)',
      },
      handler: ({ req, res, body }) => login(ctx, req, res, body.email, body.password),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/mfa/verify',
      tag: 'auth',
      summary:
        'Second login step with tempToken (TOTP, SMS or recovery code), or confirms a pending TOTP setup when signed in',
      auth: 'optional',
      body: z.object({
        code: z.string().trim().min(6, 'Code is required').max(32),
        tempToken: z.string().min(1).max(200).optional(),
      }),
      responses: {
        401: 'Invalid MFA code or expired MFA session',
        403: 'SMS multi-factor authentication is not allowed by your organization',
        429: 'Too many failed verification codes',
      },
      handler: ({ req, res, body, auth }) => {
        if (body.tempToken) return verifyLoginChallenge(ctx, req, res, body.tempToken, body.code);
        if (!auth) throw unauthorized('tempToken or a signed-in session is required', 'AUTH_REQUIRED');
        return enable(ctx, req, res, auth.userId, body.code, auth.mfa);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/refresh',
      tag: 'auth',
      summary: 'Rotate the refresh token (cookie with x-service-csrf header, or body) for a new token pair',
      auth: 'public',
      body: z.object({ refreshToken: z.string().min(1).max(200).optional() }),
      responses: {
        401: 'Invalid, expired, revoked or reused refresh token',
        403: 'CSRF header missing or wrong',
      },
      handler: ({ req, res, body }) => refresh(ctx, req, res, body.refreshToken),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/logout',
      tag: 'auth',
      summary: 'Revoke every token of the user and clear the refresh cookie',
      auth: 'user',
      handler: ({ req, res, auth }) => logout(ctx, req, res, auth.userId),
    }),
    defineRoute({
      method: 'get',
      path: '/auth/me',
      tag: 'auth',
      summary: 'The signed-in user, with MFA and phone status',
      auth: 'user',
      handler: ({ auth }): MeResponse => {
        const user = userById(ctx.db, auth.userId);
        const membership = membershipOf(ctx.db, auth.userId);
        if (!user || !membership) throw unauthorized('Session has been revoked', 'TOKEN_REVOKED');
        const policy = mfaPolicyFor(ctx, user.id);
        return {
          user: toAuthUser(user, membership, heldPermissions(ctx.db, membership.roleId)),
          mfa: auth.mfa,
          mfaRequiredByPolicy: policy.requireMfa,
          smsMfaAllowed: policy.smsAllowed,
          previousSignInAt: previousSessionStart(ctx.db, user.id, auth.sessionId),
          signIn: sessionSignIn(ctx, user.id, auth.sessionId),
        };
      },
    }),
  ];
}
