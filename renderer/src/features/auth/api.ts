import type {
  AcceptedResponse,
  InvitationInfo,
  LoginResponse,
  MeResponse,
  MfaEnableResponse,
  MfaSetupResponse,
  SmsSentResponse,
  SsoDiscoveryResponse,
  SsoExchangeResponse,
  TokenPair,
  VerifyEmailResponse,
} from '../../../../server/contract';
import { api } from '../../lib/api/client';

// The signed-out and first-factor endpoints (spec 1: setup, sign-in, registration, invitations, password reset,
// authenticator enrolment), typed by the contract. Each screen calls one of these on submit and keeps its own
// form state; the only read, the invitation, is cached under `authKeys.invitation`.

export interface SetupBody {
  setupToken: string;
  name: string;
  email: string;
  password: string;
}

export interface RegisterBody {
  companyName: string;
  name: string;
  email: string;
  password: string;
  acceptTerms: boolean;
}

export const authKeys = {
  invitation: (token: string) => ['auth', 'invitation', token] as const,
  ssoDiscovery: (domain: string) => ['auth', 'sso-discovery', domain] as const,
  partnerSignIn: (slug: string | null) => ['auth', 'partner-sign-in', slug ?? ''] as const,
};

const signedOut = { method: 'POST', auth: false } as const;

export const authApi = {
  login: (email: string, password: string) =>
    api<LoginResponse>('/auth/login', { ...signedOut, body: { email, password } }),
  verifyMfa: (tempToken: string, code: string) =>
    api<TokenPair>('/auth/mfa/verify', { ...signedOut, body: { tempToken, code } }),
  /** Texts a sign-in code to an SMS account midway through sign-in. */
  sendLoginSms: (tempToken: string) =>
    api<SmsSentResponse>('/auth/mfa/sms/send', { ...signedOut, body: { tempToken } }),
  /** Rule 14: the single sign-on provider for an email's domain, if one is offered. */
  ssoDiscovery: (email: string) =>
    api<SsoDiscoveryResponse>('/auth/sso-discovery', { ...signedOut, body: { email } }),
  /** Rule 15: a partner's sign-in button, by slug (the per-partner page) or without (a single-partner install). */
  partnerSignIn: (slug: string | null) =>
    api<SsoDiscoveryResponse>(`/sso/partner-sign-in${slug ? `?slug=${encodeURIComponent(slug)}` : ''}`, {
      auth: false,
    }),
  /** Rule 10 m: the single-use code from `/login#ssoCode=` for the session (or the MFA challenge). */
  ssoExchange: (code: string) => api<SsoExchangeResponse>('/sso/exchange', { ...signedOut, body: { code } }),
  setup: (body: SetupBody) => api<TokenPair>('/setup', { ...signedOut, body }),
  registerPartner: (body: RegisterBody) =>
    api<AcceptedResponse>('/auth/register-partner', { ...signedOut, body }),
  verifyEmail: (token: string) =>
    api<VerifyEmailResponse>('/auth/verify-email', { ...signedOut, body: { token } }),
  forgotPassword: (email: string) =>
    api<AcceptedResponse>('/auth/forgot-password', { ...signedOut, body: { email } }),
  resetPassword: (token: string, password: string) =>
    api<AcceptedResponse>('/auth/reset-password', { ...signedOut, body: { token, password } }),
  invitation: (token: string) =>
    api<InvitationInfo>(`/auth/invitation?token=${encodeURIComponent(token)}`, { auth: false }),
  acceptInvite: (body: { token: string; password: string; name?: string }) =>
    api<TokenPair>('/auth/accept-invite', { ...signedOut, body }),
  /** Who holds `accessToken`, asked once with that token alone (no refresh on a 401). */
  meWith: (accessToken: string) =>
    api<MeResponse>('/auth/me', { token: accessToken, retryOnUnauthorized: false }),
  startMfaSetup: () => api<MfaSetupResponse>('/auth/mfa/setup', { method: 'POST', body: {} }),
  enableMfa: (code: string) => api<MfaEnableResponse>('/auth/mfa/enable', { method: 'POST', body: { code } }),
};
