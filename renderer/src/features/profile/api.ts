import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type { ProfileChanges, SessionSignIn, UserProfile } from '../../../../server/contract';
import { call } from '../../lib/api/endpoints';
import { errorMessage } from '../../lib/errors';
import { queryClient } from '../../lib/query';
import { meKey, useMe } from '../../lib/account';

// The signed-in account's own endpoints (spec 1: profile, password, second factor, phone), typed by the
// contract, and the two cached reads the profile page is built from.

export type { ProfileChanges };

export const profileKeys = {
  profile: ['account', 'profile'] as const,
};

export const profileApi = {
  profile: () => call('GET /users/me'),
  updateProfile: (changes: ProfileChanges) => call('PATCH /users/me', { body: changes }),
  changePassword: (currentPassword: string, newPassword: string) =>
    call('POST /auth/change-password', { body: { currentPassword, newPassword } }),
  regenerateRecoveryCodes: () => call('POST /auth/mfa/recovery-codes'),
  /** Texts a code to the verified phone of this SMS-MFA account. */
  sendMfaSms: () => call('POST /auth/mfa/sms/send', { body: {} }),
  disableMfa: (code: string) => call('POST /auth/mfa/disable', { body: { code } }),
  verifyPhone: (phoneNumber: string) => call('POST /auth/phone/verify', { body: { phoneNumber } }),
  confirmPhone: (code: string) => call('POST /auth/phone/confirm', { body: { code } }),
  enableSmsMfa: () => call('POST /auth/mfa/sms/enable'),
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
