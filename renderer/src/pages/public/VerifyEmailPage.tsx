import { useState } from 'react';
import type { MeResponse, VerifyEmailResponse } from '../../../../server/contract';
import { ApiError, api, errorMessage } from '../../api/client';
import { Link, navigate, useRouter } from '../../router';
import { useSession } from '../../session/store';
import { AuthLayout, Alert } from '../../components/ui';
import { Icon } from '../../components/Icon';
import { useDocumentTitle } from '../../lib/hooks';
import './public.css';

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
    const me = await api<MeResponse>('/auth/me', { token: tokens.accessToken, retryOnUnauthorized: false });
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
  const search = useRouter((s) => s.search);
  const token = new URLSearchParams(search).get('token')?.trim() ?? '';
  const [phase, setPhase] = useState<Phase>({ kind: 'ready' });

  const confirm = async () => {
    setPhase({ kind: 'busy' });
    try {
      const result = await api<VerifyEmailResponse>('/auth/verify-email', {
        method: 'POST',
        body: { token },
        auth: false,
      });
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
      <AuthLayout>
        <div className="pub-icon bad">
          <Icon name="alert" size={20} />
        </div>
        <h1 className="auth-title" data-testid="verify-email-invalid">
          This link no longer works
        </h1>
        <p className="auth-lead">
          The confirmation link is invalid or has expired, or it was already used. Links work once. If you
          already confirmed, sign in; otherwise register again to get a fresh link.
        </p>
        <Link to="/login" className="btn btn-primary btn-block">
          Go to sign in
        </Link>
        <div className="auth-links">
          <Link to="/register" className="link">
            Register again
          </Link>
        </div>
      </AuthLayout>
    );
  }

  if (phase.kind === 'verified') {
    const { result } = phase;
    return (
      <AuthLayout>
        <div className="pub-icon ok">
          <Icon name="check" size={20} />
        </div>
        <h1 className="auth-title" data-testid="verify-email-done">
          Email confirmed
        </h1>
        <p className="auth-lead">
          {result.partner
            ? `${result.partner.name} is ready. Sign in as ${result.user.email} to continue.`
            : `Thanks, ${result.user.name}. Your account is confirmed. An administrator still has to add you to an organization; you can sign in once they have.`}
        </p>
        <Link to="/login" className="btn btn-primary btn-block" data-testid="verify-email-sign-in">
          Go to sign in
        </Link>
      </AuthLayout>
    );
  }

  const busy = phase.kind === 'busy';
  return (
    <AuthLayout>
      <div className="pub-icon">
        <Icon name="mail" size={20} />
      </div>
      <h1 className="auth-title">Confirm your email</h1>
      <p className="auth-lead">
        Press the button to confirm your address and create your account. You will then set up two-step
        verification with an authenticator app.
      </p>
      {phase.kind === 'failed' ? (
        <Alert testId="verify-email-error">
          <span data-testid="verify-email-error-message">{phase.message}</span>
        </Alert>
      ) : null}
      <button
        type="button"
        className="btn btn-primary btn-block"
        onClick={() => void confirm()}
        disabled={busy}
        autoFocus
        data-testid="verify-email-confirm"
      >
        {busy ? 'Confirming…' : 'Confirm email address'}
      </button>
      <div className="auth-links">
        <Link to="/login" className="link">
          Back to sign in
        </Link>
      </div>
    </AuthLayout>
  );
}
