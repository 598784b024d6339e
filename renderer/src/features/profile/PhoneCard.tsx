import { useState, type FormEvent } from 'react';
import type { AuthUser } from '../../../../server/contract';
import { ApiError } from '../../lib/api/client';
import { ActionError } from '../../ui/ActionError';
import { RecoveryCodes } from '../../ui/RecoveryCodes';
import { ConfirmDialog } from '../../ui/Dialog';
import { Alert, Card, Facts, StatusPill } from '../../ui/basics';
import { MfaCodeField, TextField } from '../../ui/fields';
import { useSession } from '../../lib/session';
import { useAsyncAction } from '../../lib/action';
import { profileApi } from './api';
import { SmallButton } from '../../ui/SmallButton';

const E164 = /^\+[1-9]\d{6,14}$/;

/** "+1 (415) 555-0123" or "0044 20…" -> "+14155550123" / "+4420…": what people paste, in E.164. */
export function toE164(raw: string): string {
  const compact = raw.trim().replace(/[\s().-]/g, '');
  return compact.startsWith('00') ? `+${compact.slice(2)}` : compact;
}

type Step = { kind: 'idle' } | { kind: 'number' } | { kind: 'code'; sentTo: string };

export function PhoneCard({
  user,
  smsAllowed,
  onSmsRefused,
  onChanged,
}: {
  user: AuthUser;
  smsAllowed: boolean;
  onSmsRefused: () => void;
  onChanged: () => Promise<void>;
}) {
  const acceptTokens = useSession((s) => s.acceptTokens);
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [touched, setTouched] = useState(false);
  const action = useAsyncAction();
  const { busy, error } = action;
  const [notice, setNotice] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [confirmSwitch, setConfirmSwitch] = useState(false);

  const smsIsFactor = user.mfaEnabled && user.mfaMethod === 'sms';
  const normalized = toE164(phone);
  const phoneProblem = E164.test(normalized)
    ? null
    : 'Use the international format with the country code, for example +14155550123.';

  const sendCode = async (e?: FormEvent) => {
    e?.preventDefault();
    setTouched(true);
    if (busy || phoneProblem) return;
    setNotice(null);
    await action.run(async () => {
      const res = await profileApi.verifyPhone(normalized);
      setCode('');
      setStep({ kind: 'code', sentTo: res.sentTo ?? normalized });
    });
  };

  const confirm = async (e: FormEvent) => {
    e.preventDefault();
    const digits = code.replace(/\D/g, '');
    if (busy || digits.length !== 6) return;
    await action.run(async () => {
      try {
        await profileApi.confirmPhone(digits);
      } catch (err) {
        // A wrong or stale code is typed again from scratch.
        setCode('');
        throw err;
      }
      setStep({ kind: 'idle' });
      setPhone('');
      setCode('');
      setNotice('Phone number verified.');
      await onChanged();
    });
  };

  const enableSms = async () => {
    if (busy) return;
    setNotice(null);
    setConfirmSwitch(false);
    await action.run(async () => {
      try {
        const res = await profileApi.enableSmsMfa();
        // The answer is a fresh MFA-verified session, like TOTP enrollment.
        acceptTokens(res);
        setCodes(res.recoveryCodes);
      } catch (err) {
        // The organization's policy: the explanation below replaces the button, no red error on top of it.
        if (err instanceof ApiError && err.code === 'MFA_METHOD_NOT_ALLOWED') onSmsRefused();
        else throw err;
      }
    });
  };

  if (codes) {
    return (
      <Card title="Phone and text messages" icon="phone" testId="profile-phone">
        <Alert tone="success" testId="profile-sms-enabled">
          Text-message codes are now your second factor. Save these recovery codes: they are shown only once.
        </Alert>
        <RecoveryCodes
          codes={codes}
          email={user.email}
          continueLabel="Done"
          onContinue={() => {
            setCodes(null);
            void onChanged();
          }}
        />
      </Card>
    );
  }

  return (
    <Card title="Phone and text messages" icon="phone" testId="profile-phone">
      <Facts
        rows={[
          [
            'Phone',
            user.phoneNumber ? (
              <span className="pf-phone">
                <span className="mono">{user.phoneNumber}</span>
                {user.phoneVerified ? (
                  <StatusPill tone="ok">Verified</StatusPill>
                ) : (
                  <StatusPill tone="warn">Not verified</StatusPill>
                )}
              </span>
            ) : (
              <span className="muted">None</span>
            ),
            'profile-phone-number',
          ],
          [
            'Text-message codes',
            smsIsFactor ? (
              <StatusPill tone="ok">Second factor</StatusPill>
            ) : (
              <StatusPill tone="muted">Off</StatusPill>
            ),
            'profile-sms-status',
          ],
        ]}
      />

      {notice ? (
        <Alert tone="success" testId="profile-phone-notice">
          {notice}
        </Alert>
      ) : null}

      {step.kind === 'idle' ? (
        <div className="pf-actions">
          <span className="muted small">
            {user.phoneVerified
              ? 'A new number replaces this one once you confirm it.'
              : 'Add a mobile number to receive sign-in codes by text.'}
          </span>
          <SmallButton
            tone="secondary"
            icon={user.phoneVerified ? 'edit' : 'plus'}
            iconSize={16}
            onClick={() => {
              setStep({ kind: 'number' });
              setTouched(false);
              action.reset();
              setNotice(null);
            }}
            testId="profile-phone-add"
          >
            {user.phoneVerified ? 'Change number' : 'Add phone number'}
          </SmallButton>
        </div>
      ) : step.kind === 'number' ? (
        <form className="form pf-inline-form" onSubmit={(e) => void sendCode(e)} noValidate>
          <TextField
            id="profile-phone-input"
            label="Mobile number"
            type="text"
            inputMode="tel"
            autoComplete="tel"
            autoFocus
            placeholder="+14155550123"
            value={phone}
            onChange={setPhone}
            error={touched ? phoneProblem : null}
            hint="International format with the country code, e.g. +14155550123. We text a 6-digit code to it."
          />
          <div className="row gap-sm">
            <SmallButton tone="primary" submit disabled={busy} testId="profile-phone-send">
              {busy ? 'Sending…' : 'Send code'}
            </SmallButton>
            <SmallButton
              tone="ghost"
              onClick={() => {
                setStep({ kind: 'idle' });
                action.reset();
              }}
              disabled={busy}
            >
              Cancel
            </SmallButton>
          </div>
        </form>
      ) : (
        <form className="form pf-inline-form" onSubmit={(e) => void confirm(e)} noValidate>
          <p className="small">
            We texted a 6-digit code to <span className="mono">{step.sentTo}</span>. It is valid for 10
            minutes.
          </p>
          <MfaCodeField
            id="profile-phone-code"
            label="Code from the text message"
            value={code}
            onChange={setCode}
            autoFocus
          />
          <div className="row gap-sm">
            <SmallButton
              tone="primary"
              submit
              disabled={busy || code.replace(/\D/g, '').length !== 6}
              testId="profile-phone-confirm"
            >
              {busy ? 'Confirming…' : 'Confirm number'}
            </SmallButton>
            <SmallButton
              tone="ghost"
              onClick={() => void sendCode()}
              disabled={busy}
              testId="profile-phone-resend"
            >
              Send a new code
            </SmallButton>
            <button
              type="button"
              className="link small"
              onClick={() => {
                setStep({ kind: 'number' });
                action.reset();
              }}
              disabled={busy}
            >
              Change number
            </button>
          </div>
        </form>
      )}

      {!smsAllowed ? (
        <Alert tone="info" testId="profile-sms-not-allowed">
          Your organization does not allow text-message codes as a second factor. Use an authenticator app
          instead.
        </Alert>
      ) : smsIsFactor ? null : user.phoneVerified && step.kind === 'idle' ? (
        <div className="card-foot">
          <h3 className="subhead">Use text messages for two-step verification</h3>
          <p className="muted small">
            {user.mfaEnabled
              ? 'This replaces your authenticator app: sign-in codes come by text instead, and new recovery codes are issued.'
              : 'Sign-in codes come by text to your verified number. Authenticator apps are safer against SIM swapping; use one where you can.'}
          </p>
          <SmallButton
            tone="primary"
            icon="phone"
            iconSize={16}
            onClick={() => (user.mfaEnabled ? setConfirmSwitch(true) : void enableSms())}
            disabled={busy}
            testId="profile-sms-enable"
          >
            {user.mfaEnabled ? 'Switch to text messages' : 'Turn on text-message codes'}
          </SmallButton>
        </div>
      ) : null}

      <ActionError error={error} testId="profile-phone-error" />
      <ConfirmDialog
        open={confirmSwitch}
        title="Switch to text-message codes?"
        confirmLabel="Switch to text messages"
        busy={busy}
        onConfirm={() => void enableSms()}
        onCancel={() => setConfirmSwitch(false)}
        testId="profile-sms-switch-dialog"
      >
        <p>
          Your authenticator app stops working for Gatehouse and sign-in codes are texted to{' '}
          <span className="mono">{user.phoneNumber}</span>. Your current recovery codes are replaced by new
          ones.
        </p>
      </ConfirmDialog>
    </Card>
  );
}
