import type {
  LoginResponse,
  MfaEnableResponse,
  MfaSetupResponse,
  SmsSentResponse,
  SsoExchangeResponse,
  TokenPair,
} from '../session';
import type { AcceptedResponse, InvitationInfo, VerifyEmailResponse } from '../registration';
import type { SsoDiscoveryResponse } from '../sso';
import type { Endpoint } from './endpoint';

// Signing in and the ways into an account (spec 1: setup, sign-in, registration, invitations, password reset,
// authenticator enrolment). Most are public: the console calls them with `auth: false`.

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
  /** The server refuses a registration whose terms were not accepted; the form sends none before. */
  acceptTerms: true;
}

export interface AcceptInviteBody {
  token: string;
  password: string;
  name?: string;
}

export interface AuthEndpoints {
  'POST /auth/login': Endpoint<LoginResponse, { email: string; password: string }>;
  'POST /auth/mfa/verify': Endpoint<TokenPair, { tempToken: string; code: string }>;
  /** With the sign-in's tempToken midway through sign-in; without it, for the signed-in SMS account. */
  'POST /auth/mfa/sms/send': Endpoint<SmsSentResponse, { tempToken?: string }>;
  'POST /auth/sso-discovery': Endpoint<SsoDiscoveryResponse, { email: string }>;
  'GET /sso/partner-sign-in': Endpoint<SsoDiscoveryResponse, undefined, { slug?: string }>;
  'POST /sso/exchange': Endpoint<SsoExchangeResponse, { code: string }>;
  'POST /setup': Endpoint<TokenPair, SetupBody>;
  'POST /auth/register-partner': Endpoint<AcceptedResponse, RegisterBody>;
  'POST /auth/verify-email': Endpoint<VerifyEmailResponse, { token: string }>;
  'POST /auth/forgot-password': Endpoint<AcceptedResponse, { email: string }>;
  'POST /auth/reset-password': Endpoint<AcceptedResponse, { token: string; password: string }>;
  'GET /auth/invitation': Endpoint<InvitationInfo, undefined, { token: string }>;
  'POST /auth/accept-invite': Endpoint<TokenPair, AcceptInviteBody>;
  'POST /auth/mfa/setup': Endpoint<MfaSetupResponse>;
  'POST /auth/mfa/enable': Endpoint<MfaEnableResponse, { code: string }>;
}
