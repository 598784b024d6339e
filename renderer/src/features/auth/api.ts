import type { AcceptInviteBody, RegisterBody, SetupBody } from '../../../../server/contract';
import { call } from '../../lib/api/endpoints';

export type { RegisterBody, SetupBody };

// The signed-out and first-factor endpoints (spec 1: setup, sign-in, registration, invitations, password reset,
// authenticator enrolment), typed by the contract. Each screen calls one of these on submit and keeps its own
// form state; the only read, the invitation, is cached under `authKeys.invitation`.

export const authKeys = {
  invitation: (token: string) => ['auth', 'invitation', token] as const,
  ssoDiscovery: (domain: string) => ['auth', 'sso-discovery', domain] as const,
  partnerSignIn: (slug: string | null) => ['auth', 'partner-sign-in', slug ?? ''] as const,
};

const signedOut = { auth: false } as const;

export const authApi = {
  login: (email: string, password: string) =>
    call('POST /auth/login', { ...signedOut, body: { email, password } }),
  verifyMfa: (tempToken: string, code: string) =>
    call('POST /auth/mfa/verify', { ...signedOut, body: { tempToken, code } }),
  /** Texts a sign-in code to an SMS account midway through sign-in. */
  sendLoginSms: (tempToken: string) => call('POST /auth/mfa/sms/send', { ...signedOut, body: { tempToken } }),
  /** Rule 14: the single sign-on provider for an email's domain, if one is offered. */
  ssoDiscovery: (email: string) => call('POST /auth/sso-discovery', { ...signedOut, body: { email } }),
  /** Rule 15: a partner's sign-in button, by slug (the per-partner page) or without (a single-partner install). */
  partnerSignIn: (slug: string | null) =>
    call('GET /sso/partner-sign-in', { ...signedOut, query: { slug: slug ?? undefined } }),
  /** Rule 10 m: the single-use code from `/login#ssoCode=` for the session (or the MFA challenge). */
  ssoExchange: (code: string) => call('POST /sso/exchange', { ...signedOut, body: { code } }),
  setup: (body: SetupBody) => call('POST /setup', { ...signedOut, body }),
  registerPartner: (body: RegisterBody) => call('POST /auth/register-partner', { ...signedOut, body }),
  verifyEmail: (token: string) => call('POST /auth/verify-email', { ...signedOut, body: { token } }),
  forgotPassword: (email: string) => call('POST /auth/forgot-password', { ...signedOut, body: { email } }),
  resetPassword: (token: string, password: string) =>
    call('POST /auth/reset-password', { ...signedOut, body: { token, password } }),
  invitation: (token: string) => call('GET /auth/invitation', { ...signedOut, query: { token } }),
  acceptInvite: (body: AcceptInviteBody) => call('POST /auth/accept-invite', { ...signedOut, body }),
  /** Who holds `accessToken`, asked once with that token alone (no refresh on a 401). */
  meWith: (accessToken: string) => call('GET /auth/me', { token: accessToken, retryOnUnauthorized: false }),
  startMfaSetup: () => call('POST /auth/mfa/setup'),
  enableMfa: (code: string) => call('POST /auth/mfa/enable', { body: { code } }),
};
