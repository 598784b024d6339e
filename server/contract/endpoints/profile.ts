import type { MfaEnableResponse, SmsSentResponse } from '../session';
import type { UserProfile } from '../people';
import type { Endpoint } from './endpoint';

// The signed-in account's own settings (spec 1: profile, password, second factor, phone). Texting a sign-in code
// to the account's phone is POST /auth/mfa/sms/send, in auth.ts.

export interface ProfileChanges {
  name?: string;
  avatarUrl?: string | null;
}

export interface ProfileEndpoints {
  'GET /users/me': Endpoint<UserProfile>;
  'PATCH /users/me': Endpoint<UserProfile, ProfileChanges>;
  'POST /auth/change-password': Endpoint<{ success: true }, { currentPassword: string; newPassword: string }>;
  'POST /auth/mfa/recovery-codes': Endpoint<Pick<MfaEnableResponse, 'recoveryCodes'>>;
  'POST /auth/mfa/disable': Endpoint<{ success: true }, { code: string }>;
  'POST /auth/phone/verify': Endpoint<SmsSentResponse, { phoneNumber: string }>;
  'POST /auth/phone/confirm': Endpoint<
    { success: true; phoneNumber: string; phoneVerified: true },
    { code: string }
  >;
  'POST /auth/mfa/sms/enable': Endpoint<MfaEnableResponse>;
}
