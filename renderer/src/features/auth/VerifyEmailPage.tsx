import { useState } from 'react';
import type { VerifyEmailResponse } from '../../../../server/contract';
import { ApiError, errorMessage } from '../../lib/api/client';
import { Link, navigate } from '../../lib/router';
import { useSession } from '../../lib/session';
import { AuthFormError } from '../../ui/AuthFormSubmit';
import { Button } from '../../ui/Button';
import { useDocumentTitle } from '../../lib/hooks';
import { authApi } from './api';
import { BackToSignIn, GoToSignIn, NoticePage, useLinkToken } from './notice';

type Phase =
  | { kind: 'ready' }
  | { kind: 'busy' }
  | { kind: 'invalid' }
  | { kind: 'failed'; message: string }
  | { kind: 'verified'; result: VerifyEmailResponse; signedIn: boolean };

/**
 * Adopts the session that verify-email opened. The server already set the refresh cookie, so a cookie refresh
 * gives the console a complete token pair; should that fail, the access token from the response still works.
 */
async function adoptSession(tokens: NonNullable<VerifyEmailResponse['tokens']>): Promise<boolean> {
  const session = useSession.getState();
  if (await session.refresh()) return true;
  try {
    const me = await authApi.meWith(tokens.accessToken);
    session.acceptTokens({
      accessToken: tokens.accessToken,
      refreshToken: '',
      expiresInSeconds: tokens.expiresInSeconds,
      mfa: me.mfa,
      user: me.user,
    });
    return true;
  } catch {
    return false;
  }
}

// Release 0.116.0: the token is submitted only when the person presses Confirm, never on load. Mail scanners
// and link previews open links too; an automatic submit would spend the single-use token for them.
export function VerifyEmailPage() {
  useDocumentTitle('Confirm your email');
  const token = useLinkToken();
  const [phase, setPhase] = useState<Phase>({ kind: 'ready' });

  const confirm = async () => {
    setPhase({ kind: 'busy' });
    try {
      const result = await authApi.verifyEmail(token);
      if (!result.tokens) {
        setPhase({ kind: 'verified', result, signedIn: false });
        return;
      }
      const signedIn = await adoptSession(result.tokens);
      if (signedIn) {
        navigate(result.mfaRequired ? `/mfa/enroll?returnTo=${encodeURIComponent('/')}` : '/', {
          replace: true,
        });
        return;
      }
      setPhase({ kind: 'verified', result, signedIn: false });
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) setPhase({ kind: 'invalid' });
      else setPhase({ kind: 'failed', message: errorMessage(err) });
    }
  };

  if (!token || phase.kind === 'invalid') {
    return (
      <NoticePage
        icon="alert"
        tone="bad"
        testId="verify-email-invalid"
        title="This link no longer works"
        lead="The confirmation link is invalid or has expired, or it was already used. Links work once. If you already confirmed, sign in; otherwise register again to get a fresh link."
      >
        <GoToSignIn />
        <div className="auth-links">
          <Link to="/register" className="link">
            Register again
          </Link>
        </div>
      </NoticePage>
    );
  }

  if (phase.kind === 'verified') {
    const { result } = phase;
    return (
      <NoticePage
        icon="check"
        tone="ok"
        testId="verify-email-done"
        title="Email confirmed"
        lead={
          result.partner
            ? `${result.partner.name} is ready. Sign in as ${result.user.email} to continue.`
            : `Thanks, ${result.user.name}. Your account is confirmed. An administrator still has to add you to an organization; you can sign in once they have.`
        }
      >
        <GoToSignIn testId="verify-email-sign-in" />
      </NoticePage>
    );
  }

  const busy = phase.kind === 'busy';
  return (
    <NoticePage
      icon="mail"
      title="Confirm your email"
      lead="Press the button to confirm your address and create your account. You will then set up two-step verification with an authenticator app."
    >
      <AuthFormError testIdPrefix="verify-email" error={phase.kind === 'failed' ? phase.message : null} />
      <Button
        tone="primary"
        block
        busy={busy}
        busyLabel="Confirming…"
        onClick={() => void confirm()}
        autoFocus
        testId="verify-email-confirm"
      >
        Confirm email address
      </Button>
      <BackToSignIn />
    </NoticePage>
  );
}
