import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { LoginResponse, MfaChallenge, TokenPair } from '../../../../server/contract';
import { ApiError, errorMessage } from '../../lib/api/client';
import { Link, navigate, useRouter } from '../../lib/router';
import { useSession } from '../../lib/session';
import { AuthLayout, Alert, Spinner } from '../../ui/basics';
import { AuthFormError, AuthFormSubmit } from '../../ui/AuthFormSubmit';
import { AccountEmailField, MfaCodeField, TextField, useMfaCodeEntry } from '../../ui/fields';
import { Button } from '../../ui/Button';
import { useMeta } from '../../lib/meta';
import { useDocumentTitle } from '../../lib/hooks';
import { authApi } from './api';
import { useAuthForm } from './form';
import { NoticeHead } from './notice';
import {
  SsoButton,
  ssoErrorText,
  useEmailDiscovery,
  usePartnerSignIn,
  useSsoCodeExchange,
} from './LoginPageSso';
import './LoginPageSso.css';

function isChallenge(res: LoginResponse): res is MfaChallenge {
  return (res as MfaChallenge).mfaRequired === true;
}

export function LoginPage() {
  useDocumentTitle('Sign in');
  const acceptTokens = useSession((s) => s.acceptTokens);
  const notice = useSession((s) => s.notice);
  const search = useRouter((s) => s.search);
  const params = new URLSearchParams(search);
  // The registration page sends people here when the server answers that registration is turned off.
  const disabledReason = params.get('reason') === 'registration-disabled';
  // Single sign-on: why the last round trip failed, and the partner whose own sign-in page this is.
  const ssoError = ssoErrorText(params.get('error'));
  const partnerSlug = params.get('partner')?.trim() || null;
  const registrationEnabled = useMeta((s) => s.health?.registrationEnabled);
  const registrationDisabled = disabledReason || registrationEnabled === false;
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [challenge, setChallenge] = useState<MfaChallenge | null>(null);
  /** Where a single sign-on asked to land (the server kept it through the round trip). */
  const [ssoTarget, setSsoTarget] = useState<string | null>(null);
  const [ssoProblem, setSsoProblem] = useState<string | null>(null);
  /** An enforced provider hides the password; someone it does not govern (a platform administrator) may ask for it. */
  const [wantsPassword, setWantsPassword] = useState(false);
  const { busy, error, setError, submit } = useAuthForm();
  const partnerOffer = usePartnerSignIn(partnerSlug);
  const offer = useEmailDiscovery(email);
  const showPassword = !offer?.enforceSSO || wantsPassword;

  const finish = (pair: TokenPair, landing: string | null = ssoTarget) => {
    const target = landing ?? useSession.getState().returnTo;
    acceptTokens(pair);
    useSession.getState().setReturnTo(null);
    navigate(target && target !== '/login' ? target : '/', { replace: true });
  };

  const exchanging = useSsoCodeExchange(
    (res) => {
      setSsoTarget(res.redirectPath);
      if (isChallenge(res)) setChallenge(res);
      else finish(res, res.redirectPath);
    },
    (err) => setSsoProblem(`Single sign-on could not finish: ${errorMessage(err)}`),
  );

  const onSubmit = (e: FormEvent) =>
    submit(e, {
      run: async () => {
        const res = await authApi.login(email.trim(), password);
        if (isChallenge(res)) {
          setChallenge(res);
          setPassword('');
        } else {
          finish(res);
        }
      },
    });

  if (exchanging) {
    return (
      <AuthLayout>
        <div className="login-sso-finishing" data-testid="login-sso-finishing">
          <Spinner label="Signing you in…" />
        </div>
      </AuthLayout>
    );
  }

  if (challenge) {
    return (
      <AuthLayout>
        <MfaStep
          challenge={challenge}
          email={email.trim() || null}
          onDone={finish}
          onRestart={(message) => {
            setChallenge(null);
            // After single sign-on there was no password: the way back is the sign-in page as a whole.
            setError(message && ssoTarget !== null ? 'The sign-in took too long. Sign in again.' : message);
            setSsoTarget(null);
          }}
        />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout>
      <h1 className="auth-title">Sign in</h1>
      <p className="auth-lead">
        {partnerOffer && partnerSlug
          ? `Sign in with your ${partnerOffer.providerName} work account.`
          : 'Use your Gatehouse operator account.'}
      </p>
      {ssoError || ssoProblem ? <Alert testId="login-sso-error">{ssoProblem ?? ssoError}</Alert> : null}
      {notice && !error ? (
        <Alert tone="info" testId="login-notice">
          {notice}
        </Alert>
      ) : null}
      {disabledReason && !error ? (
        <Alert tone="info" testId="login-registration-disabled">
          Self-registration is turned off on this server. Ask an administrator to invite you.
        </Alert>
      ) : null}
      {partnerOffer ? (
        <>
          {/* Its own page leads with it; on the shared page (a single-partner install) it is one way in of two. */}
          <SsoButton offer={partnerOffer} secondary={!partnerSlug} testId="login-partner-sso" />
          <div className="login-sso-or">
            <span>or with your email</span>
          </div>
        </>
      ) : null}
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <AccountEmailField id="login-email" autoFocus required value={email} onChange={setEmail} />
        {offer ? (
          <div className="login-sso-offer" data-testid="login-sso-offer">
            <SsoButton offer={offer} />
            {showPassword ? (
              <div className="login-sso-or">
                <span>or with your password</span>
              </div>
            ) : (
              <p className="muted small" data-testid="login-sso-enforced">
                Your organization signs in with {offer.providerName}.{' '}
                <Button tone="link" onClick={() => setWantsPassword(true)}>
                  Use a password instead
                </Button>
              </p>
            )}
          </div>
        ) : null}
        {showPassword ? (
          <>
            <TextField
              id="login-password"
              label="Password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={setPassword}
            />
            <AuthFormSubmit
              testIdPrefix="login"
              error={error}
              busy={busy}
              busyLabel="Signing in…"
              disabled={!email.trim() || !password}
            >
              Sign in
            </AuthFormSubmit>
          </>
        ) : (
          <AuthFormError testIdPrefix="login" error={error} />
        )}
      </form>
      <div className="auth-links">
        <Link to="/forgot-password" className="link" data-testid="login-forgot-password">
          Forgot password?
        </Link>
        {registrationDisabled ? null : (
          <Link to="/register" className="link" data-testid="login-register">
            Create a partner account
          </Link>
        )}
      </div>
    </AuthLayout>
  );
}

function MfaStep({
  challenge,
  email,
  onDone,
  onRestart,
}: {
  challenge: MfaChallenge;
  /** Who is signing in; null after single sign-on (the page never saw the address). */
  email: string | null;
  onDone: (pair: TokenPair) => void;
  onRestart: (message: string | null) => void;
}) {
  const { code, setCode, recovery: useRecovery, toggleRecovery, normalized, ready } = useMfaCodeEntry();
  const { busy, error, setError, submit } = useAuthForm();
  /** Masked number the last text went to, once one was sent. */
  const [smsSentTo, setSmsSentTo] = useState<string | null>(null);
  const [smsBusy, setSmsBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    inputRef.current?.focus();
  }, [useRecovery]);

  /** The sign-in's temporary token ran out: back to the password, saying why. */
  const expired = (err: unknown) => {
    const gone = err instanceof ApiError && err.code === 'MFA_SESSION_EXPIRED';
    if (gone) onRestart('The sign-in took too long. Enter your password again.');
    return gone;
  };

  const onSubmit = (e: FormEvent) =>
    submit(e, {
      ready,
      run: async () => onDone(await authApi.verifyMfa(challenge.tempToken, normalized)),
      handled: (err) => {
        if (expired(err)) return true;
        // The message shows; the field is cleared for the next code.
        setCode('');
        inputRef.current?.focus();
        return false;
      },
    });

  const sendSms = async () => {
    if (smsBusy) return;
    setError(null);
    setSmsBusy(true);
    try {
      const res = await authApi.sendLoginSms(challenge.tempToken);
      setSmsSentTo(res.sentTo ?? 'your phone');
      inputRef.current?.focus();
    } catch (err) {
      if (!expired(err)) setError(errorMessage(err));
    } finally {
      setSmsBusy(false);
    }
  };

  const sms = challenge.mfaMethod === 'sms';
  // Texting a code: a full button before the first text, a link under the form once one was sent.
  const smsButton = (again: boolean) => (
    <Button
      tone={again ? 'link' : 'secondary'}
      block={!again}
      icon={again ? undefined : 'phone'}
      busy={smsBusy}
      busyLabel="Sending…"
      onClick={() => void sendSms()}
      testId={again ? 'mfa-send-sms-again' : 'mfa-send-sms'}
    >
      {again ? 'Text me another code' : 'Send code by text'}
    </Button>
  );

  return (
    <>
      <NoticeHead icon="lock">Two-step verification</NoticeHead>
      <p className="auth-lead">
        {useRecovery
          ? 'Enter one of the recovery codes you saved when you set up two-step verification. Each code works once.'
          : sms
            ? smsSentTo
              ? `Enter the 6-digit code we texted to ${smsSentTo}. It is valid for 10 minutes.`
              : 'Your account uses text messages. Send a code to your phone, then enter it here.'
            : 'Enter the 6-digit code from your authenticator app.'}
        {email ? (
          <>
            <br />
            <span className="muted">Signing in as {email}</span>
          </>
        ) : null}
      </p>
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate data-testid="mfa-step">
        {sms && !useRecovery && !smsSentTo ? smsButton(false) : null}
        <MfaCodeField
          ref={inputRef}
          id="mfa-code"
          label={sms ? 'Code from the text message' : 'Authentication code'}
          recovery={useRecovery}
          value={code}
          onChange={setCode}
        />
        <AuthFormSubmit testIdPrefix="mfa" error={error} busy={busy} busyLabel="Verifying…" disabled={!ready}>
          Verify
        </AuthFormSubmit>
      </form>
      <div className="auth-links">
        <Button
          tone="link"
          onClick={() => {
            toggleRecovery();
            setError(null);
          }}
          testId="mfa-use-recovery"
        >
          {useRecovery ? 'Use an authentication code' : 'Use a recovery code'}
        </Button>
        {sms && !useRecovery && smsSentTo ? smsButton(true) : null}
        <Button tone="link" onClick={() => onRestart(null)} testId="mfa-back">
          Use a different account
        </Button>
      </div>
    </>
  );
}
