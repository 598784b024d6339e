import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { call } from './api/endpoints';
import { useSession } from './session';

// GET /auth/me, the source of truth for the signed-in identity and the session's MFA state: one cached read
// that the overview and the profile share, and that keeps the session's identity in step with every answer.

export const meKey = ['account', 'me'] as const;

export const fetchMe = () => call('GET /auth/me');

/** The cached /auth/me; each fresh answer updates the session's identity. */
export function useMe() {
  const setIdentity = useSession((s) => s.setIdentity);
  const me = useQuery({ queryKey: meKey, queryFn: fetchMe });
  useEffect(() => {
    if (me.data) setIdentity(me.data.user, me.data.mfa);
  }, [me.data, setIdentity]);
  return me;
}
