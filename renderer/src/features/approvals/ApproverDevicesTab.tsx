import { useEffect, useState, type FormEvent } from 'react';
import {
  browserSupportsWebAuthn,
  platformAuthenticatorIsAvailable,
  startRegistration,
} from '@simplewebauthn/browser';
import { APPROVER_DEVICE_NAME_MAX, type ApproverDevice } from '../../../../server/contract';
import { ActionError } from '../../ui/ActionError';
import { ConfirmAction } from '../../ui/DialogActions';
import { Icon } from '../../ui/Icon';
import { Alert, Field } from '../../ui/basics';
import { useAsyncAction } from '../../lib/action';
import { formatDateTime, relativeTime } from '../../lib/format';
import { useNow } from '../../lib/hooks';
import { AdminTable, LoadState } from '../../ui';
import { EmptyState } from '../../ui';
import { useApiQuery } from '../../lib/query';
import { ceremonyCancelled, webAuthnMessage } from './actions';
import { approvalsApi } from './api';
import { SmallButton } from '../../ui/SmallButton';

// The technician's approver devices: WebAuthn platform credentials (Windows Hello, Touch ID) that prove
// presence when approving an elevation. Registering needs a session verified with two-step verification and the
// password again.

const FORBIDDEN = {
  title: 'Approver devices are not available to you',
  text: 'Your account cannot manage approver devices.',
};

/** "Chrome on Windows", "Gatehouse app on macOS": a name the technician recognizes later. */
export function guessDeviceName(userAgent: string = navigator.userAgent): string {
  const os = /Windows/i.test(userAgent)
    ? 'Windows'
    : /Mac OS X|Macintosh/i.test(userAgent)
      ? 'macOS'
      : /Android/i.test(userAgent)
        ? 'Android'
        : /iPhone|iPad/i.test(userAgent)
          ? 'iOS'
          : /Linux|X11/i.test(userAgent)
            ? 'Linux'
            : 'this computer';
  const app = /Electron\//.test(userAgent)
    ? 'Gatehouse app'
    : /Edg\//.test(userAgent)
      ? 'Edge'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Chrome\/|Chromium\//.test(userAgent)
          ? 'Chrome'
          : /Safari\//.test(userAgent)
            ? 'Safari'
            : 'Browser';
  return `${app} on ${os}`;
}

function kindOf(d: ApproverDevice): { label: string; hint: string } {
  if (d.deviceType === 'multiDevice' || d.backedUp)
    return {
      label: 'Synced passkey',
      hint: 'Backed up by its platform (e.g. iCloud Keychain, Google Password Manager): usable on your other devices.',
    };
  return { label: 'Device-bound', hint: 'Lives on this one device only.' };
}

function RegisterForm({ onRegistered }: { onRegistered: () => void }) {
  const [name, setName] = useState(() => guessDeviceName());
  // A new approver device raises what this session can prove, so the server asks for the password again (or,
  // for accounts that sign in without one, a fresh authentication code).
  const [secret, setSecret] = useState('');
  const [useCode, setUseCode] = useState(false);
  const [tried, setTried] = useState(false);
  const [ceremonyError, setCeremonyError] = useState<{ text: string; cancelled: boolean } | null>(null);
  const [platform, setPlatform] = useState<boolean | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const action = useAsyncAction();
  const supported = browserSupportsWebAuthn();

  useEffect(() => {
    let cancelled = false;
    void platformAuthenticatorIsAvailable().then(
      (ok) => {
        if (!cancelled) setPlatform(ok);
      },
      () => {
        if (!cancelled) setPlatform(false);
      },
    );
    return () => {
      cancelled = true;
    };
  }, []);

  const trimmed = name.trim();
  const nameError = !trimmed
    ? 'Give the device a name you will recognize.'
    : trimmed.length > APPROVER_DEVICE_NAME_MAX
      ? `Keep the name under ${APPROVER_DEVICE_NAME_MAX} characters.`
      : null;

  const secretError = secret
    ? null
    : useCode
      ? 'Enter the code from your authenticator app.'
      : 'Enter your password.';

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    setCeremonyError(null);
    setDone(null);
    if (nameError || secretError) return;
    void action.run(async () => {
      const { options } = await approvalsApi.registrationOptions();
      let response;
      try {
        response = await startRegistration({ optionsJSON: options });
      } catch (err) {
        setCeremonyError({ text: webAuthnMessage(err), cancelled: ceremonyCancelled(err) });
        return;
      }
      const reauth = useCode ? { reauthMfaCode: secret.trim() } : { reauthPassword: secret };
      await approvalsApi.registerApproverDevice(trimmed, response, reauth);
      setSecret('');
      setTried(false);
      setDone(trimmed);
      onRegistered();
    });
  };

  return (
    <form className="card ap-register form adm" onSubmit={submit} noValidate data-testid="register-form">
      {!supported ? (
        <Alert tone="warning" testId="webauthn-unsupported">
          This browser cannot use platform authenticators. Open the console in the Gatehouse app or a current
          browser to register.
        </Alert>
      ) : platform === false ? (
        <Alert tone="info" testId="no-platform-authenticator">
          No platform authenticator was detected on this computer (Windows Hello, Touch ID). Registering may
          still work with a security key or a phone nearby.
        </Alert>
      ) : null}
      <div className="ap-register-row">
        <Field
          label="Name"
          htmlFor="approver-device-name"
          error={tried ? nameError : null}
          hint="Shown in this list and in the audit trail of your approvals."
        >
          <input
            id="approver-device-name"
            type="text"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={APPROVER_DEVICE_NAME_MAX + 20}
            disabled={action.busy}
            data-testid="approver-device-name"
          />
        </Field>
        <Field
          label={useCode ? 'Authentication code' : 'Your password'}
          htmlFor="approver-device-secret"
          error={tried ? secretError : null}
          hint={
            <button type="button" className="link" onClick={() => setUseCode((v) => !v)}>
              {useCode ? 'Use my password instead' : 'I sign in without a password'}
            </button>
          }
        >
          <input
            id="approver-device-secret"
            type={useCode ? 'text' : 'password'}
            inputMode={useCode ? 'numeric' : undefined}
            autoComplete={useCode ? 'one-time-code' : 'current-password'}
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
            disabled={action.busy}
            data-testid="approver-device-password"
          />
        </Field>
        <button
          type="submit"
          className="btn btn-primary"
          disabled={action.busy || !supported}
          data-testid="register-approver-device"
        >
          <Icon name="plus" size={15} />
          {action.busy ? 'Follow your computer’s prompt…' : 'Register this computer'}
        </button>
      </div>
      {ceremonyError ? (
        <Alert tone={ceremonyError.cancelled ? 'info' : 'danger'} testId="register-ceremony-error">
          {ceremonyError.text}
        </Alert>
      ) : null}
      {done ? (
        <Alert tone="success" testId="register-done">
          “{done}” is registered. Approvals from this computer now ask for your fingerprint, face or PIN.
        </Alert>
      ) : null}
      <ActionError error={action.error} testId="register-error" />
    </form>
  );
}

export function ApproverDevicesTab() {
  const read = approvalsApi.approverDevices();
  const devices = useApiQuery(read.key, read.fetch);
  const now = useNow(30_000);
  const [removing, setRemoving] = useState<ApproverDevice | null>(null);
  const rows = devices.data?.devices ?? [];

  return (
    <div className="ap-tab ap-devices" data-testid="approver-devices">
      <div className="ap-explain">
        <Icon name="lock" size={18} />
        <p>
          An approver device lets Windows Hello or Touch ID prove that you, in person, approved an elevation:
          each approval is signed on the device and bound to that one request, so a stolen session alone
          cannot approve.
        </p>
      </div>

      <RegisterForm onRegistered={devices.reload} />

      {!devices.data ? (
        <LoadState of={devices} loading="Loading approver devices…" forbidden={FORBIDDEN} />
      ) : rows.length === 0 ? (
        <EmptyState icon="lock" title="No approver device yet" compact testId="approver-devices-empty">
          Until you register one, your approvals rely on your signed-in session alone and may be flagged or
          refused for higher-risk requests.
        </EmptyState>
      ) : (
        <AdminTable testId="approver-device-list" columns={['Name', 'Kind', 'Registered', 'Last used']}>
          {rows.map((d) => {
            const kind = kindOf(d);
            return (
              <tr key={d.id} data-testid={`approver-device-${d.id}`}>
                <td>
                  <span className="adm-cell-title">{d.name}</span>
                </td>
                <td>
                  <span className="adm-tag" title={kind.hint}>
                    {kind.label}
                  </span>
                </td>
                <td title={formatDateTime(d.createdAt)}>{formatDateTime(d.createdAt)}</td>
                <td title={d.lastUsedAt ? formatDateTime(d.lastUsedAt) : undefined}>
                  {d.lastUsedAt ? (
                    relativeTime(Date.parse(d.lastUsedAt), now)
                  ) : (
                    <span className="muted">Never</span>
                  )}
                </td>
                <td className="actions">
                  <SmallButton
                    tone="ghost"
                    icon="trash"
                    onClick={() => setRemoving(d)}
                    aria-label={`Remove ${d.name}`}
                    testId="remove-approver-device"
                  >
                    Remove
                  </SmallButton>
                </td>
              </tr>
            );
          })}
        </AdminTable>
      )}

      {removing ? (
        <ConfirmAction
          title="Remove this approver device"
          confirmLabel="Remove device"
          testId="remove-approver-device-dialog"
          onCancel={() => setRemoving(null)}
          onConfirm={async () => {
            await approvalsApi.removeApproverDevice(removing.id);
            setRemoving(null);
            devices.reload();
          }}
        >
          <p>
            <strong>{removing.name}</strong> can no longer confirm your approvals.
            {rows.length === 1
              ? ' It is your only approver device: your approvals fall back to session approval, which your partner may flag or refuse for higher-risk requests.'
              : ''}
          </p>
        </ConfirmAction>
      ) : null}
    </div>
  );
}
