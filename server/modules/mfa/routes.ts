import { z } from 'zod';
import type { AppContext } from '../../context';
import { defineRoute, type AnyRoute } from '../../http/route';
import { disable, enable, regenerateRecoveryCodes, startSetup } from './service';

const code = z.string().trim().min(6, 'Code is required').max(32);

export function mfaRoutes(ctx: AppContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/auth/mfa/setup',
      tag: 'mfa',
      summary:
        'Start TOTP enrollment: secret, otpauth URL, QR code and recovery codes (held 10 minutes); an SMS user may switch with an MFA session',
      auth: 'user',
      responses: { 403: 'Switching from SMS needs an MFA session', 409: 'MFA is already enabled' },
      handler: ({ req, auth }) => startSetup(ctx, req, auth.userId, auth.mfa),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/mfa/enable',
      tag: 'mfa',
      summary: 'Confirm TOTP enrollment with a code; returns recovery codes and an MFA-verified session',
      auth: 'user',
      body: z.object({ code }),
      responses: { 409: 'MFA is already enabled', 429: 'Too many failed verification codes' },
      handler: ({ req, res, auth, body }) => enable(ctx, req, res, auth.userId, body.code, auth.mfa),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/mfa/disable',
      tag: 'mfa',
      summary:
        'Disable MFA with a current code (TOTP, SMS or recovery); clears secret, phone and recovery codes; refused when the organization requires MFA',
      auth: 'user',
      body: z.object({ code }),
      responses: {
        403: 'Your organization requires multi-factor authentication (MFA_REQUIRED_BY_ORGANIZATION)',
        429: 'Too many failed verification codes',
      },
      handler: ({ req, auth, body }) => disable(ctx, req, auth.userId, body.code),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/mfa/recovery-codes',
      tag: 'mfa',
      summary: 'Replace all recovery codes with ten new ones',
      auth: 'user',
      mfa: true,
      handler: ({ req, auth }) => regenerateRecoveryCodes(ctx, req, auth.userId),
    }),
  ];
}
