import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type {
  MfaEnableResponse,
  SessionSignIn,
  SmsSentResponse,
  UserProfile,
} from '../../../../server/contract';
import { api } from '../../lib/api/client';
import { errorMessage } from '../../lib/errors';
import { queryClient } from '../../lib/query';
import { meKey, useMe } from '../../lib/account';

// The signed-in account's own endpoints (spec 1: profile, password, second factor, phone), typed by the
// contract, and the two cached reads the profile page is built from.

export interface ProfileChanges {
  name?: string;
  avatarUrl?: string | null;
}

export const profileKeys = {
  profile: ['account', 'profile'] as const,
};

export const profileApi = {
  profile: () => api<UserProfile>('/users/me'),
  updateProfile: (changes: ProfileChanges) =>
    api<UserProfile>('/users/me', { method: 'PATCH', body: changes }),
  changePassword: (currentPassword: string, newPassword: string) =>
    api<void>('/auth/change-password', { method: 'POST', body: { currentPassword, newPassword } }),
  regenerateRecoveryCodes: () =>
    api<Pick<MfaEnableResponse, 'recoveryCodes'>>('/auth/mfa/recovery-codes', { method: 'POST', body: {} }),
  /** Texts a code to the verified phone of this SMS-MFA account. */
  sendMfaSms: () => api<SmsSentResponse>('/auth/mfa/sms/send', { method: 'POST', body: {} }),
  disableMfa: (code: string) => api<void>('/auth/mfa/disable', { method: 'POST', body: { code } }),
  verifyPhone: (phoneNumber: string) =>
    api<SmsSentResponse>('/auth/phone/verify', { method: 'POST', body: { phoneNumber } }),
  confirmPhone: (code: string) => api<void>('/auth/phone/confirm', { method: 'POST', body: { code } }),
  enableSmsMfa: () => api<MfaEnableResponse>('/auth/mfa/sms/enable', { method: 'POST', body: {} }),
};

/** What the profile page knows beyond the session's identity: policy flags and the stored profile. */
export interface AccountState {
  profile: UserProfile | null;
  /** The organization requires MFA: it cannot be turned off. */
  mfaRequiredByPolicy: boolean;
  /** False when the organization refuses SMS as a second factor (from /auth/me, or learned from a 403). */
  smsAllowed: boolean;
  /** The sign-in before this session (from /auth/me); null when none is on record. */
  previousSignInAt: string | null;
  /** How this session was signed in (from /auth/me); null when not on record, undefined while loading. */
  signIn: SessionSignIn | null | undefined;
  error: string | null;
  /** Re-read /auth/me and /users/me (after any change to MFA, phone or profile). */
  reload: () => Promise<void>;
  markSmsRefused: () => void;
  setProfile: (profile: UserProfile) => void;
}

export function useAccount(): AccountState {
  const me = useMe();
  const profile = useQuery({ queryKey: profileKeys.profile, queryFn: profileApi.profile });
  // Once refused (by /auth/me or by a 403 on enabling), SMS stays refused for this visit.
  const [smsRefused, setSmsRefused] = useState(false);

  const reload = useCallback(async () => {
    await Promise.all([
      queryClient.refetchQueries({ queryKey: meKey, exact: true }),
      queryClient.refetchQueries({ queryKey: profileKeys.profile, exact: true }),
    ]);
  }, []);
  const markSmsRefused = useCallback(() => setSmsRefused(true), []);
  const setProfile = useCallback(
    (next: UserProfile) => queryClient.setQueryData(profileKeys.profile, next),
    [],
  );

  const error = me.error ?? profile.error;
  return {
    // Both answers together, as the page was always built from the pair.
    profile: me.data && profile.data ? profile.data : null,
    mfaRequiredByPolicy: me.data?.mfaRequiredByPolicy === true,
    smsAllowed: !smsRefused && me.data?.smsMfaAllowed !== false,
    previousSignInAt: me.data?.previousSignInAt ?? null,
    signIn: me.data?.signIn,
    error: error ? errorMessage(error) : null,
    reload,
    markSmsRefused,
    setProfile,
  };
}
