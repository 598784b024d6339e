import { z } from 'zod';
import type { AppContext } from '../../context';
import { defineRoute, type AnyRoute } from '../../http/route';
import { emailField, newPasswordField } from '../registration';
import { changePassword, forgotPassword, resetPassword } from './service';

export function passwordRoutes(ctx: AppContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/auth/forgot-password',
      tag: 'passwords',
      summary: 'Email a password reset link (valid 1 hour); always the same answer',
      auth: 'public',
      body: z.object({ email: emailField }),
      responses: { 429: 'Too many password reset requests' },
      handler: ({ req, body }) => forgotPassword(ctx, req, body.email),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/reset-password',
      tag: 'passwords',
      summary: 'Set a new password with the emailed token; ends every session of the user',
      auth: 'public',
      body: z.object({ token: z.string(), password: newPasswordField }),
      responses: {
        400: 'invalid or expired token, or the password is too weak',
        429: 'Too many invalid or expired links from this address',
      },
      handler: ({ req, res, body }) => resetPassword(ctx, req, res, body.token, body.password),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/change-password',
      tag: 'passwords',
      summary: 'Change the password; ends every session of the user, this one included',
      auth: 'user',
      body: z.object({
        currentPassword: z.string().min(1, 'Current password is required').max(1024),
        newPassword: newPasswordField,
      }),
      responses: {
        400: 'Current password is incorrect, or the new password is too weak',
        429: 'Too many failed password attempts',
      },
      handler: ({ req, res, auth, body }) =>
        changePassword(ctx, req, res, auth.userId, body.currentPassword, body.newPassword),
    }),
  ];
}
