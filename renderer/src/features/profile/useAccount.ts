import { useCallback, useEffect, useState } from 'react';
import type { MeResponse, UserProfile } from '../../../../server/contract';
import { api, errorMessage } from '../../lib/api/client';
import { useSession } from '../../lib/session';

/** What the profile page knows beyond the session's identity: policy flags and the stored profile. */
export interface AccountState {
  profile: UserProfile | null;
  /** The organization requires MFA: it cannot be turned off. */
  mfaRequiredByPolicy: boolean;
  /** False when the organization refuses SMS as a second factor (from /auth/me, or learned from a 403). */
  smsAllowed: boolean;
  error: string | null;
  /** Re-read /auth/me and /users/me (after any change to MFA, phone or profile). */
  reload: () => Promise<void>;
  markSmsRefused: () => void;
  setProfile: (profile: UserProfile) => void;
}

export function useAccount(): AccountState {
  const setIdentity = useSession((s) => s.setIdentity);
  const [profile, setProfile] = useState<UserProfile | null>(null);
  const [mfaRequiredByPolicy, setRequired] = useState(false);
  const [smsAllowed, setSmsAllowed] = useState(true);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      const [me, mine] = await Promise.all([api<MeResponse>('/auth/me'), api<UserProfile>('/users/me')]);
      setIdentity(me.user, me.mfa);
      setRequired(me.mfaRequiredByPolicy === true);
      if (me.smsMfaAllowed === false) setSmsAllowed(false);
      setProfile(mine);
      setError(null);
    } catch (err) {
      setError(errorMessage(err));
    }
  }, [setIdentity]);

  useEffect(() => {
    let cancelled = false;
    Promise.all([api<MeResponse>('/auth/me'), api<UserProfile>('/users/me')])
      .then(([me, mine]) => {
        if (cancelled) return;
        setIdentity(me.user, me.mfa);
        setRequired(me.mfaRequiredByPolicy === true);
        if (me.smsMfaAllowed === false) setSmsAllowed(false);
        setProfile(mine);
      })
      .catch((err: unknown) => {
        if (!cancelled) setError(errorMessage(err));
      });
    return () => {
      cancelled = true;
    };
  }, [setIdentity]);

  const markSmsRefused = useCallback(() => setSmsAllowed(false), []);

  return { profile, mfaRequiredByPolicy, smsAllowed, error, reload, markSmsRefused, setProfile };
}
