import { useState } from 'react';
import { ApiError, api, errorMessage } from '../api/client';
import { Link } from '../router';
import { useSession } from '../session/store';
import { Alert, Card, Facts } from '../components/ui';
import { MfaFacts } from '../components/MfaFacts';
import { RecoveryCodes } from '../components/RecoveryCodes';
import { Icon } from '../components/Icon';
import { desktopBridge } from '../lib/bridge';
import { formatDateTime, initials, scopeLabel } from '../lib/format';
import { useDocumentTitle } from '../lib/hooks';
import { useMe } from './HomePage';

export function ProfilePage() {
  useDocumentTitle('Profile');
  const meError = useMe();
  const user = useSession((s) => s.user);
  const mfa = useSession((s) => s.mfa);
  const bridge = desktopBridge();

  if (!user) return null;

  return (
    <div className="page">
      <div className="page-head">
        <div className="profile-head">
          <span className="avatar avatar-lg" aria-hidden="true">
            {initials(user.name, user.email)}
          </span>
          <div>
            <h1 data-testid="profile-name">{user.name}</h1>
            <p className="page-sub">
              {user.email} · {scopeLabel(user.scope)} scope
            </p>
          </div>
        </div>
      </div>
      {meError ? <Alert tone="warning">Could not refresh your profile: {meError}</Alert> : null}

      <div className="columns">
        <div className="col">
          <Card title="Account" icon="profile" testId="profile-account">
            <Facts
              rows={[
                ['Name', user.name],
                ['Email', user.email, 'profile-email'],
                ['Scope', scopeLabel(user.scope)],
                ['Role', user.roleName ?? (user.scope === 'system' ? 'System administrator' : '—')],
                ['Status', <span className="cap">{user.status}</span>],
                [
                  'Phone',
                  user.phoneNumber ? `${user.phoneNumber}${user.phoneVerified ? ' (verified)' : ''}` : '—',
                ],
                ['Previous sign-in', formatDateTime(user.lastLoginAt)],
              ]}
            />
            <div className="card-foot muted small">
              Name, email and password changes arrive with Users &amp; roles in a later release.
            </div>
          </Card>

          <Card title="This console" icon="server" testId="profile-console">
            <Facts
              rows={[
                ['Running in', bridge ? 'Gatehouse desktop app' : 'Web browser'],
                ['Desktop version', bridge ? bridge.appVersion : '—'],
                ['Platform', bridge ? bridge.platform : navigator.platform || '—'],
                ['Server address', <span className="mono small">{window.location.origin}</span>],
              ]}
            />
          </Card>
        </div>

        <div className="col">
          <Card title="Two-step verification" icon="lock" testId="profile-mfa">
            <MfaFacts user={user} mfa={mfa} testIdPrefix="profile" />
            {user.mfaEnabled ? (
              <RegenerateCodes email={user.email} />
            ) : (
              <div className="card-foot">
                <p className="muted small">
                  Protect your account with an authenticator app. Approvals and administrative changes require
                  it.
                </p>
                <Link to="/mfa/enroll" className="btn btn-primary btn-sm" data-testid="profile-enroll-mfa">
                  <Icon name="lock" />
                  Set up two-step verification
                </Link>
              </div>
            )}
          </Card>
        </div>
      </div>
    </div>
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
      const res = await api<{ recoveryCodes: string[] }>('/auth/mfa/recovery-codes', {
        method: 'POST',
        body: {},
        retryOnUnauthorized: true,
      });
      setCodes(res.recoveryCodes);
      setPhase('shown');
    } catch (err) {
      if (err instanceof ApiError && err.code === 'MFA_REQUIRED') {
        setError(
          `${err.message.replace(/\.$/, '')}. This session was not verified with two-step verification: sign out, sign in again with your authenticator code, then regenerate.`,
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
            <button
              type="button"
              className="btn btn-danger btn-sm"
              onClick={() => void regenerate()}
              disabled={phase === 'busy'}
              data-testid="profile-regenerate-confirm"
            >
              {phase === 'busy' ? 'Issuing…' : 'Issue new codes'}
            </button>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={() => setPhase('idle')}
              disabled={phase === 'busy'}
            >
              Cancel
            </button>
          </div>
        </>
      ) : (
        <>
          <p className="muted small">Lost your codes, or used most of them? Issue a fresh set.</p>
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() => setPhase('confirm')}
            data-testid="profile-regenerate-codes"
          >
            <Icon name="refresh" />
            Regenerate recovery codes
          </button>
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
