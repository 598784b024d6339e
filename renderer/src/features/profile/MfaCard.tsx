import { useState, type FormEvent } from 'react';
import type { AuthUser, SessionSignIn } from '../../../../server/contract';
import { ApiError, errorMessage } from '../../lib/api/client';
import { ActionError } from '../../ui/ActionError';
import { Icon } from '../../ui/Icon';
import { MfaFacts } from '../../ui/MfaFacts';
import { RecoveryCodes } from '../../ui/RecoveryCodes';
import { Alert, Card } from '../../ui/basics';
import { MfaCodeField, useMfaCodeEntry } from '../../ui/fields';
import { Button } from '../../ui/Button';
import { Link } from '../../lib/router';
import { profileApi } from './api';
import { SmallButton } from '../../ui/SmallButton';

export function MfaCard({
  user,
  mfa,
  signIn,
  requiredByPolicy,
  smsAllowed,
  onChanged,
}: {
  user: AuthUser;
  mfa: boolean;
  signIn: SessionSignIn | null | undefined;
  requiredByPolicy: boolean;
  smsAllowed: boolean;
  onChanged: () => Promise<void>;
}) {
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <Card title="Two-step verification" icon="lock" testId="profile-mfa">
      <MfaFacts user={user} mfa={mfa} signIn={signIn} testIdPrefix="profile" />
      {requiredByPolicy ? (
        <div className="pf-policy" data-testid="profile-mfa-policy">
          <Icon name="lock" size={14} />
          <span>Your organization requires two-step verification for every account.</span>
        </div>
      ) : null}
      {notice ? (
        <Alert tone="success" testId="profile-mfa-notice">
          {notice}
        </Alert>
      ) : null}
      {user.mfaEnabled ? (
        <>
          <RegenerateCodes email={user.email} />
          <DisableMfa
            user={user}
            requiredByPolicy={requiredByPolicy}
            onDisabled={async () => {
              setNotice('Two-step verification is off. Your recovery codes and verified phone were removed.');
              await onChanged();
            }}
          />
        </>
      ) : (
        <div className="card-foot">
          <p className="muted small">
            Protect your account with an authenticator app. Approvals and administrative changes require it.
            {requiredByPolicy ? ' Your organization requires it before you can work.' : ''}
          </p>
          <Link
            to={`/mfa/enroll?returnTo=${encodeURIComponent('/profile')}`}
            className="btn btn-primary btn-sm"
            data-testid="profile-enroll-mfa"
          >
            <Icon name="lock" />
            Set up an authenticator app
          </Link>
          {smsAllowed ? (
            <p className="muted small">
              Or use text messages: verify your phone below, then turn on SMS codes.
            </p>
          ) : null}
        </div>
      )}
    </Card>
  );
}

function RegenerateCodes({ email }: { email: string }) {
  const [phase, setPhase] = useState<'idle' | 'confirm' | 'busy' | 'shown'>('idle');
  const [codes, setCodes] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);

  const regenerate = async () => {
    setPhase('busy');
    setError(null);
    try {
      const res = await profileApi.regenerateRecoveryCodes();
      setCodes(res.recoveryCodes);
      setPhase('shown');
    } catch (err) {
      if (err instanceof ApiError && err.code === 'MFA_REQUIRED') {
        setError(
          `${err.message.replace(/\.$/, '')}. This session was not verified with two-step verification: sign out, sign in again with your code, then regenerate.`,
        );
      } else {
        setError(errorMessage(err));
      }
      setPhase('idle');
    }
  };

  return (
    <div className="card-foot">
      <h3 className="subhead">Recovery codes</h3>
      {phase === 'shown' ? (
        <>
          <Alert tone="success">New recovery codes issued. Your previous codes no longer work.</Alert>
          <RecoveryCodes
            codes={codes}
            email={email}
            continueLabel="Done"
            onContinue={() => setPhase('idle')}
          />
        </>
      ) : phase === 'confirm' || phase === 'busy' ? (
        <>
          <p className="small">Issuing new codes invalidates every existing recovery code. Continue?</p>
          <div className="row gap-sm">
            <SmallButton
              tone="danger"
              onClick={() => void regenerate()}
              disabled={phase === 'busy'}
              testId="profile-regenerate-confirm"
            >
              {phase === 'busy' ? 'Issuing…' : 'Issue new codes'}
            </SmallButton>
            <SmallButton tone="ghost" onClick={() => setPhase('idle')} disabled={phase === 'busy'}>
              Cancel
            </SmallButton>
          </div>
        </>
      ) : (
        <>
          <p className="muted small">Lost your codes, or used most of them? Issue a fresh set.</p>
          <SmallButton
            tone="secondary"
            icon="refresh"
            iconSize={16}
            onClick={() => setPhase('confirm')}
            testId="profile-regenerate-codes"
          >
            Regenerate recovery codes
          </SmallButton>
        </>
      )}
      {error ? (
        <Alert testId="profile-error">
          <span data-testid="profile-error-message">{error}</span>
        </Alert>
      ) : null}
    </div>
  );
}

function DisableMfa({
  user,
  requiredByPolicy,
  onDisabled,
}: {
  user: AuthUser;
  requiredByPolicy: boolean;
  onDisabled: () => Promise<void>;
}) {
  const [open, setOpen] = useState(false);
  const { code, setCode, recovery: useRecovery, toggleRecovery, normalized, ready } = useMfaCodeEntry();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [smsNote, setSmsNote] = useState<string | null>(null);
  const sms = user.mfaMethod === 'sms';

  const sendSms = async () => {
    setError(null);
    try {
      const res = await profileApi.sendMfaSms();
      setSmsNote(`Code sent to ${res.sentTo ?? 'your phone'}. It is valid for 10 minutes.`);
    } catch (err) {
      setError(err);
    }
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || !ready) return;
    setBusy(true);
    setError(null);
    try {
      await profileApi.disableMfa(normalized);
      setOpen(false);
      setCode('');
      await onDisabled();
    } catch (err) {
      setError(err);
      setCode('');
    } finally {
      setBusy(false);
    }
  };

  if (!open) {
    return (
      <div className="card-foot">
        <h3 className="subhead">Turn off</h3>
        {requiredByPolicy ? (
          <p className="muted small" data-testid="profile-disable-mfa-blocked">
            Your organization requires multi-factor authentication, so it cannot be turned off.
          </p>
        ) : (
          <>
            <p className="muted small">
              Without a second factor, you cannot approve privileged access or change keys, roles and
              providers.
            </p>
            <SmallButton tone="danger" onClick={() => setOpen(true)} testId="profile-disable-mfa">
              Turn off two-step verification
            </SmallButton>
          </>
        )}
        <ActionError error={error} testId="profile-disable-mfa-error" />
      </div>
    );
  }

  return (
    <div className="card-foot">
      <h3 className="subhead">Turn off two-step verification</h3>
      <p className="small">
        Confirm with a current{' '}
        {useRecovery ? 'recovery code' : sms ? 'code sent by text' : 'code from your app'}. Your recovery
        codes{sms ? ' and verified phone' : ''} are removed.
      </p>
      <form className="form pf-inline-form" onSubmit={(e) => void onSubmit(e)} noValidate>
        {sms && !useRecovery ? (
          <div className="row gap-sm">
            <SmallButton
              tone="secondary"
              icon="phone"
              iconSize={16}
              onClick={() => void sendSms()}
              testId="profile-disable-send-sms"
            >
              {smsNote ? 'Text me another code' : 'Send code by text'}
            </SmallButton>
            {smsNote ? <span className="small muted">{smsNote}</span> : null}
          </div>
        ) : null}
        <MfaCodeField
          id="profile-disable-code"
          label={sms ? 'Code from the text message' : 'Code from your app'}
          recovery={useRecovery}
          value={code}
          onChange={setCode}
          autoFocus={!sms}
        />
        <ActionError error={error} testId="profile-disable-mfa-error" />
        <div className="row gap-sm">
          <SmallButton tone="danger" submit disabled={busy || !ready} testId="profile-disable-mfa-confirm">
            {busy ? 'Turning off…' : 'Turn off'}
          </SmallButton>
          <SmallButton
            tone="ghost"
            onClick={() => {
              setOpen(false);
              setCode('');
              setError(null);
            }}
            disabled={busy}
          >
            Cancel
          </SmallButton>
          <Button tone="link" className="small" onClick={toggleRecovery}>
            {useRecovery ? 'Use a current code' : 'Use a recovery code'}
          </Button>
        </div>
      </form>
    </div>
  );
}
