import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import type { MfaEnableResponse, MfaSetupResponse } from '../../../../server/contract';
import { errorMessage } from '../../lib/api/client';
import { Link, navigate, useRouter } from '../../lib/router';
import { useSession } from '../../lib/session';
import { AuthLayout, Alert, CopyButton, Spinner } from '../../ui/basics';
import { Button } from '../../ui/Button';
import { MfaCodeField } from '../../ui/fields';
import { RecoveryCodes } from '../../ui/RecoveryCodes';
import { copyText } from '../../lib/clipboard';
import { groupSecret } from '../../lib/format';
import { useDocumentTitle } from '../../lib/hooks';
import { authApi } from './api';
import { AuthSteps } from './notice';

type Step =
  | { kind: 'already' }
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  | { kind: 'scan'; setup: MfaSetupResponse }
  | { kind: 'codes'; codes: string[] };

/** The step before enrollment, by the `from` query parameter. */
const FIRST_STEPS: Record<string, string | undefined> = {
  setup: 'Administrator',
  invite: 'Password',
  registration: 'Account',
};

export function MfaEnrollPage() {
  useDocumentTitle('Set up two-step verification');
  const user = useSession((s) => s.user);
  const acceptTokens = useSession((s) => s.acceptTokens);
  const search = useRouter((s) => s.search);
  const fromSetup = search.includes('from=setup');
  // Sent here by a write that needed MFA: return to it afterwards (same-origin paths only).
  const requested = new URLSearchParams(search).get('returnTo');
  const returnTo = requested?.startsWith('/') && !requested.startsWith('//') ? requested : null;
  const [step, setStep] = useState<Step>(() =>
    user?.mfaEnabled ? { kind: 'already' } : { kind: 'loading' },
  );
  const started = useRef(false);

  const begin = useCallback(async () => {
    setStep({ kind: 'loading' });
    try {
      const setup = await authApi.startMfaSetup();
      setStep({ kind: 'scan', setup });
    } catch (err) {
      setStep({ kind: 'failed', message: errorMessage(err) });
    }
  }, []);

  useEffect(() => {
    if (started.current || step.kind !== 'loading') return;
    started.current = true;
    void begin();
  }, [begin, step.kind]);

  // Arriving from a flow that already had a first step (setup, invitation, registration) keeps its numbering.
  const earlier = FIRST_STEPS[new URLSearchParams(search).get('from') ?? ''];
  const steps = [...(earlier ? [earlier] : []), 'Authenticator', 'Recovery codes'];
  const progress = (
    <AuthSteps
      label="Setup progress"
      steps={steps}
      current={steps.length - (step.kind === 'codes' ? 1 : 2)}
    />
  );

  if (step.kind === 'already') {
    return (
      <AuthLayout>
        <h1 className="auth-title">Two-step verification is on</h1>
        <p className="auth-lead">
          Your account already uses an authenticator app. Manage it from your profile.
        </p>
        <Link to="/profile" className="btn btn-primary btn-block" data-testid="mfa-enroll-profile">
          Go to profile
        </Link>
      </AuthLayout>
    );
  }

  if (step.kind === 'codes') {
    return (
      <AuthLayout wide>
        {progress}
        <h1 className="auth-title">Save your recovery codes</h1>
        <p className="auth-lead">
          Two-step verification is now on. If you lose your authenticator, each of these codes signs you in
          once. Store them in your password manager or print them; this is the only time they are shown.
        </p>
        <RecoveryCodes
          codes={step.codes}
          email={user?.email ?? ''}
          continueLabel={fromSetup ? 'Continue to the console' : 'Done'}
          onContinue={() => navigate(returnTo ?? (fromSetup ? '/' : '/profile'), { replace: true })}
        />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout wide>
      {progress}
      <h1 className="auth-title">Set up two-step verification</h1>
      <p className="auth-lead">
        Approving privileged access needs a second factor. Scan the code with an authenticator app (1Password,
        Microsoft or Google Authenticator, Authy…), then enter the 6-digit code it shows.
      </p>
      {step.kind === 'loading' ? (
        <div className="enroll-loading">
          <Spinner label="Preparing your authenticator secret…" />
        </div>
      ) : step.kind === 'failed' ? (
        <>
          <Alert testId="mfa-enroll-error">{step.message}</Alert>
          <Button tone="secondary" onClick={() => void begin()}>
            Try again
          </Button>
        </>
      ) : (
        <ScanStep
          setup={step.setup}
          onRestart={() => void begin()}
          onEnabled={(res) => {
            acceptTokens(res);
            setStep({ kind: 'codes', codes: res.recoveryCodes });
          }}
        />
      )}
      <div className="auth-links">
        {fromSetup ? (
          <Link to="/" className="link" data-testid="mfa-enroll-later">
            Set up later
          </Link>
        ) : (
          <Link to="/profile" className="link" data-testid="mfa-enroll-cancel">
            Cancel
          </Link>
        )}
      </div>
    </AuthLayout>
  );
}

function ScanStep({
  setup,
  onEnabled,
  onRestart,
}: {
  setup: MfaSetupResponse;
  onEnabled: (res: MfaEnableResponse) => void;
  onRestart: () => void;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const digits = code.replace(/\D/g, '');
  const [expired, setExpired] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || digits.length !== 6) return;
    setBusy(true);
    setError(null);
    try {
      const res = await authApi.enableMfa(digits);
      onEnabled(res);
    } catch (err) {
      setError(errorMessage(err));
      setExpired(Date.parse(setup.expiresAt) <= Date.now());
      setCode('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="enroll">
      <div className="enroll-qr">
        <img
          src={setup.qrCodeDataUrl}
          alt="QR code for your authenticator app"
          width={184}
          height={184}
          data-testid="mfa-qr"
        />
      </div>
      <div className="enroll-side">
        <div className="field">
          <div className="field-head">
            <span className="label">Can&apos;t scan? Enter this key</span>
          </div>
          <div className="secret">
            <code className="secret-text" data-testid="mfa-secret" data-secret={setup.secret}>
              {groupSecret(setup.secret).join(' ')}
            </code>
            <CopyButton onCopy={() => copyText(setup.secret)} testId="mfa-secret-copy" />
          </div>
          <div className="field-hint">Time-based (TOTP), 6 digits, 30-second period.</div>
        </div>
        <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
          <MfaCodeField
            id="mfa-enroll-code"
            label="Code from your app"
            value={code}
            onChange={setCode}
            autoFocus
          />
          {error ? (
            <Alert testId="mfa-enroll-error">
              {error}
              {expired ? (
                <>
                  {' '}
                  <Button tone="link" onClick={onRestart}>
                    Start over with a new key
                  </Button>
                </>
              ) : null}
            </Alert>
          ) : null}
          <Button
            tone="primary"
            block
            submit
            busy={busy}
            busyLabel="Verifying…"
            disabled={digits.length !== 6}
            testId="mfa-enroll-submit"
          >
            Turn on two-step verification
          </Button>
        </form>
      </div>
    </div>
  );
}
