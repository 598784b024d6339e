import { z } from 'zod';
import type { AppContext } from '../../context';
import { notFound } from '../../http/errors';
import { defineRoute, type AnyRoute } from '../../http/route';
import { registerPartnerBody, registerUserBody, verifyEmailBody } from './schemas';
import { requestPartnerRegistration, requestUserRegistration, verifyEmail } from './service';

export function registrationRoutes(ctx: AppContext): AnyRoute[] {
  // ENABLE_REGISTRATION=false: both registration endpoints answer a plain 404 whatever the body (spec 1 §8), so
  // their body schema refuses nothing and no 400 can come first.
  const disabled = !ctx.config.enableRegistration;
  const anyBody = z.unknown();
  const whenDisabled = () => {
    throw notFound('Not found');
  };
  return [
    disabled
      ? defineRoute({
          method: 'post',
          path: '/auth/register-partner',
          tag: 'registration',
          summary: 'Partner self-registration (disabled on this server)',
          auth: 'public',
          body: anyBody,
          responses: { 404: 'Registration is disabled' },
          handler: whenDisabled,
        })
      : defineRoute({
          method: 'post',
          path: '/auth/register-partner',
          tag: 'registration',
          summary: 'Ask to register a partner: emails a single-use verification link; creates nothing yet',
          auth: 'public',
          body: registerPartnerBody,
          responses: {
            429: 'Too many registration attempts (3 per IP per hour)',
            503: 'Service temporarily unavailable',
          },
          handler: ({ req, body }) => requestPartnerRegistration(ctx, req, body),
        }),
    disabled
      ? defineRoute({
          method: 'post',
          path: '/auth/register',
          tag: 'registration',
          summary: 'Standalone user registration (disabled on this server)',
          auth: 'public',
          body: anyBody,
          responses: { 404: 'Registration is disabled' },
          handler: whenDisabled,
        })
      : defineRoute({
          method: 'post',
          path: '/auth/register',
          tag: 'registration',
          summary:
            'Ask to register a standalone user (no tenant until invited): emails a single-use verification link',
          auth: 'public',
          body: registerUserBody,
          responses: {
            429: 'Too many registration attempts (5 per IP per hour)',
            503: 'Service temporarily unavailable',
          },
          handler: ({ req, body }) => requestUserRegistration(ctx, req, body),
        }),
    defineRoute({
      method: 'post',
      path: '/auth/verify-email',
      tag: 'registration',
      summary:
        'Complete a registration with the emailed token: creates the partner, its admin and a session in one step',
      auth: 'public',
      body: verifyEmailBody,
      responses: {
        400: 'invalid or expired token',
        429: 'Too many invalid or expired verification links from this address',
        500: 'Unable to generate unique company identifier',
        503: 'Service temporarily unavailable',
      },
      handler: ({ req, res, body }) =>
        verifyEmail(ctx, req, res, typeof body.token === 'string' ? body.token : ''),
    }),
  ];
}
