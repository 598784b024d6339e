import { z } from 'zod';
import type { AppContext } from '../../context';
import { defineRoute, type AnyRoute } from '../../http/route';
import { confirmPhone, E164, enableSms, requestPhoneVerification, sendLoginCode } from './sms';

const smsCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'Code must be 6 digits');

export function smsRoutes(ctx: AppContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/auth/phone/verify',
      tag: 'mfa',
      summary: 'Send a 6-digit code (valid 10 minutes) to a phone number to prove it is yours',
      auth: 'user',
      body: z.object({
        phoneNumber: z
          .string()
          .trim()
          .regex(E164, 'Phone number must be in E.164 format, for example +14155550123'),
      }),
      responses: {
        403: 'Changing the phone of an SMS-MFA account needs an MFA session',
        429: 'Too many SMS',
      },
      handler: ({ auth, body }) => requestPhoneVerification(ctx, auth, body.phoneNumber),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/phone/confirm',
      tag: 'mfa',
      summary: 'Confirm the phone with the code: sets phoneNumber and phoneVerified',
      auth: 'user',
      body: z.object({ code: smsCode }),
      responses: {
        400: 'Invalid verification code, or no live code (5 tries per code)',
        429: 'Too many failed verification codes',
      },
      handler: ({ req, auth, body }) => confirmPhone(ctx, req, auth, body.code),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/mfa/sms/enable',
      tag: 'mfa',
      summary: 'Enable SMS MFA on the verified phone; returns recovery codes and an MFA-verified session',
      auth: 'user',
      responses: {
        400: 'A verified phone number is required (PHONE_NOT_VERIFIED)',
        403: 'SMS is not allowed by the organization (MFA_METHOD_NOT_ALLOWED)',
        409: 'MFA is already enabled',
      },
      handler: ({ req, res, auth }) => enableSms(ctx, req, res, auth),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/mfa/sms/send',
      tag: 'mfa',
      summary:
        'Send a sign-in code to the verified phone of an SMS-MFA account: with the login tempToken, or when signed in',
      auth: 'optional',
      body: z.object({ tempToken: z.string().min(1).max(200).optional() }),
      responses: {
        400: 'SMS is not the multi-factor method of this account',
        401: 'MFA session expired',
        403: 'SMS is not allowed by the organization (MFA_METHOD_NOT_ALLOWED)',
        429: 'Too many SMS codes requested',
      },
      handler: ({ req, auth, body }) => sendLoginCode(ctx, req, { tempToken: body.tempToken, auth }),
    }),
  ];
}
