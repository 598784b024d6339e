import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { SsoDiscoveryResponse, SsoExchangeResponse, SsoLoginError } from '../../../../server/contract';
import { useDebounced } from '../../lib/hooks';
import { navigate, useRouter } from '../../lib/router';
import { useSession } from '../../lib/session';
import { Button } from '../../ui/Button';
import { authApi, authKeys } from './api';

// The single sign-on half of the sign-in page (spec 1 rules 10, 14 and 15): the provider offered for the typed
// email's domain, a partner's own button (its per-partner page `/login?partner=<slug>`, or the shared page of a
// single-partner install), the start of the round trip, the `#ssoCode=` it ends with, and `?error=<code>` in words.

export type SsoOffer = NonNullable<SsoDiscoveryResponse['sso']>;

/** Enough of an address to have a domain worth asking about. */
const EMAIL_DOMAIN = /^[^@\s]+@([^@\s]+\.[^@\s]{2,})$/;

/** Rule 14: discovery keys on the domain only, so the answer is cached per domain and asked once a pause. */
export function useEmailDiscovery(email: string): SsoOffer | null {
  const settled = useDebounced(email.trim(), 350);
  const domain = EMAIL_DOMAIN.exec(settled)?.[1]?.toLowerCase() ?? null;
  const found = useQuery({
    queryKey: authKeys.ssoDiscovery(domain ?? ''),
    queryFn: () => authApi.ssoDiscovery(settled),
    enabled: domain !== null,
    staleTime: 60_000,
    retry: false,
  });
  return domain && found.data ? found.data.sso : null;
}

/** Rule 15: the partner's button; an unknown slug (or none offered) leaves the stock page. */
export function usePartnerSignIn(slug: string | null): SsoOffer | null {
  const found = useQuery({
    queryKey: authKeys.partnerSignIn(slug),
    queryFn: () => authApi.partnerSignIn(slug),
    staleTime: 60_000,
    retry: false,
  });
  return found.data?.sso ?? null;
}

/** Leaves for the IdP; Gatehouse brings the browser back to `returnTo` after the exchange. */
export function startSso(offer: SsoOffer): void {
  const wanted = useSession.getState().returnTo;
  const redirect = wanted && wanted.startsWith('/') && !wanted.startsWith('//') ? wanted : '/';
  window.location.assign(`${offer.loginUrl}?redirect=${encodeURIComponent(redirect)}`);
}

export function SsoButton({
  offer,
  secondary = false,
  testId = 'login-sso',
}: {
  offer: SsoOffer;
  /** Not the page's main way in (the partner's button on the shared page). */
  secondary?: boolean;
  testId?: string;
}) {
  const [leaving, setLeaving] = useState(false);
  return (
    <Button
      tone={secondary ? 'secondary' : 'primary'}
      block
      icon="lock"
      busy={leaving}
      busyLabel={`Opening ${offer.providerName}…`}
      onClick={() => {
        setLeaving(true);
        startSso(offer);
      }}
      testId={testId}
    >
      Continue with {offer.providerName}
    </Button>
  );
}

/** `/login?error=<code>` after a failed callback, one sentence each (spec 1 Errors and contract/sso.ts). */
const SSO_ERROR_TEXT: Record<SsoLoginError, string> = {
  session_expired:
    'The single sign-on took too long or was started in another browser window. Start it again from here.',
  provider_not_found:
    'Single sign-on is not set up (or was switched off) for your organization. Ask your administrator.',
  domain_not_allowed:
    'Your email domain is not allowed to sign in with this identity provider. Ask your administrator to add it.',
  user_not_found:
    'There is no Gatehouse account for you yet. Ask your administrator to invite you, then try again.',
  default_role_required:
    'Your account cannot be created automatically because no starting role is set. Ask your administrator.',
  no_org_access: 'Your account has no access to any organization yet. Ask your administrator to grant it.',
  email_not_verified:
    'Your identity provider did not confirm your email address, so Gatehouse cannot match your account. Ask your administrator.',
  sso_failed: 'The identity provider did not complete the sign-in. Try again, or sign in with your password.',
};

export function ssoErrorText(code: string | null): string | null {
  if (!code) return null;
  return (SSO_ERROR_TEXT as Record<string, string | undefined>)[code] ?? SSO_ERROR_TEXT.sso_failed;
}

/** The `ssoCode` of the fragment the callback redirected to, or null. */
function codeInHash(hash: string): string | null {
  return new URLSearchParams(hash.replace(/^#/, '')).get('ssoCode');
}

/**
 * Rule 10 m: exchanges `#ssoCode=` once (the code is single use, so the fragment is dropped from the address at
 * once and a second render never sends it again). `onResult` gets the session or the MFA challenge.
 */
export function useSsoCodeExchange(
  onResult: (res: SsoExchangeResponse) => void,
  onError: (err: unknown) => void,
): boolean {
  const hash = useRouter((s) => s.hash);
  const code = codeInHash(hash);
  const started = useRef(false);
  const [busy, setBusy] = useState(code !== null);
  const handlers = useRef({ onResult, onError });
  useEffect(() => {
    handlers.current = { onResult, onError };
  });

  useEffect(() => {
    if (!code || started.current) return;
    started.current = true;
    navigate('/login', { replace: true });
    setBusy(true);
    authApi
      .ssoExchange(code)
      .then((res) => handlers.current.onResult(res))
      .catch((err: unknown) => handlers.current.onError(err))
      .finally(() => setBusy(false));
  }, [code]);
  return busy;
}
