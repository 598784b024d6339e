// Who is signed in and how: the token pair, the sign-in answers, /auth/me and second-factor enrolment; with the
// server facts the console asks before anyone signs in (health, setup) and the live socket's ticket and messages.
import type { Scope } from './common';

export interface HealthResponse {
  status: 'ok';
  version: string;
  setupRequired: boolean;
  /** ENABLE_REGISTRATION: whether the sign-in page offers partner sign-up. */
  registrationEnabled: boolean;
}

export interface AuthUser {
  id: string;
  email: string;
  name: string;
  status: 'active' | 'invited' | 'disabled';
  mfaEnabled: boolean;
  mfaMethod: 'totp' | 'sms' | null;
  phoneNumber: string | null;
  phoneVerified: boolean;
  scope: Scope;
  partnerId: string | null;
  orgId: string | null;
  roleId: string | null;
  roleName: string | null;
  lastLoginAt: string | null;
  /** Route permissions the user's role chain grants (`devices:read`, `pam:approve`, ...), for showing actions. */
  permissions: string[];
}

/** Issued by login, MFA verification, refresh and setup. The refresh token is also set as an HTTP-only cookie. */
export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  expiresInSeconds: number;
  /** Whether this session passed MFA (the access token's `mfa` claim). */
  mfa: boolean;
  user: AuthUser;
}

export interface MfaChallenge {
  mfaRequired: true;
  tempToken: string;
  mfaMethod: 'totp' | 'sms';
}

export type LoginResponse = TokenPair | MfaChallenge;

/**
 * `POST /sso/exchange` (single sign-on, contract/sso.ts): the session as password sign-in answers it (tokens, or
 * Gatehouse's own MFA challenge when the IdP's MFA does not count), plus the console path the sign-in started from.
 */
export type SsoExchangeResponse = LoginResponse & { redirectPath: string };

export interface MeResponse {
  user: AuthUser;
  /** Whether the current access token carries `mfa: true`. */
  mfa: boolean;
  /** The user's organization sets `security.requireMfa`: MFA cannot be disabled (console: lead into enrollment). */
  mfaRequiredByPolicy: boolean;
  /** False when the user's organization refuses SMS as a second factor (`allowedMfaMethods.sms: false`). */
  smsMfaAllowed: boolean;
  /**
   * When the user signed in before this session began (`user.lastLoginAt` is this sign-in or a later one); null
   * when no earlier sign-in of the last 7 days is on record.
   */
  previousSignInAt: string | null;
  /** How this session was signed in; null when its sign-in is not on record (see SessionSignIn). */
  signIn: SessionSignIn | null;
}

/**
 * How a session was signed in, from the audit entry its sign-in wrote (`user.login` with the session's id). Null
 * for sessions that began without a sign-in entry: first-run setup, and the new session issued when a second
 * factor is switched on.
 */
export interface SessionSignIn {
  /** The first step: the account's password, single sign-on, or the link that set the password. */
  method: 'password' | 'sso' | 'invitation' | 'email_verification';
  /** The second factor answered at sign-in; `idp_mfa` when the SSO provider's own MFA counted; null for none. */
  secondFactor: 'totp' | 'sms' | 'recovery_code' | 'idp_mfa' | null;
  /** For single sign-on: the provider's name at the time of the sign-in. */
  providerName: string | null;
  at: string;
}

export interface MfaSetupResponse {
  secret: string;
  otpAuthUrl: string;
  qrCodeDataUrl: string;
  recoveryCodes: string[];
  expiresAt: string;
}

export interface MfaEnableResponse extends TokenPair {
  success: true;
  recoveryCodes: string[];
}

/** `POST /auth/phone/verify` and `POST /auth/mfa/sms/send`: a 6-digit code went out by SMS. */
export interface SmsSentResponse {
  success: true;
  /** When the code stops working (10 minutes after it was sent). */
  expiresAt: string;
  /** The number it went to, masked but for its last four digits (`+*******0123`). */
  sentTo: string;
}

export interface SetupStatusResponse {
  setupRequired: boolean;
}

export interface WsTicketResponse {
  ticket: string;
  expiresInSeconds: number;
}

/** Messages the server sends on the console socket (`GET /api/v1/ws?ticket=`). */
export type ConsoleServerMessage =
  | { type: 'connected'; userId: string; scope: Scope }
  | { type: 'event'; event: string; data: unknown; orgId: string | null };
