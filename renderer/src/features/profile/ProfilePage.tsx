import { useState, type ReactNode } from 'react';
import { useSession } from '../../lib/session';
import { Alert, Card, Facts, Spinner } from '../../ui/basics';
import { desktopBridge } from '../../lib/bridge';
import { formatDateTime, initials, scopeLabel } from '../../lib/format';
import { useDocumentTitle } from '../../lib/hooks';
import { useAccount } from './api';
import { DetailsCard } from './DetailsCard';
import { PasswordCard } from './PasswordCard';
import { MfaCard } from './MfaCard';
import { PhoneCard } from './PhoneCard';
import './profile.css';

export function ProfilePage() {
  useDocumentTitle('Profile');
  const account = useAccount();
  const user = useSession((s) => s.user);
  const mfa = useSession((s) => s.mfa);
  const bridge = desktopBridge();

  if (!user) return null;
  const { profile } = account;

  return (
    <div className="page">
      <div className="page-head">
        <div className="profile-head">
          <Avatar name={user.name} email={user.email} url={profile?.avatarUrl ?? null} />
          <div>
            <h1 data-testid="profile-name">{user.name}</h1>
            <p className="page-sub">
              {user.email} · {scopeLabel(user.scope)} scope
            </p>
          </div>
        </div>
      </div>
      {account.error ? <Alert tone="warning">Could not refresh your profile: {account.error}</Alert> : null}

      <div className="columns">
        <div className="col">
          <Card title="Account" icon="profile" testId="profile-account">
            <Facts
              rows={[
                ['Email', user.email, 'profile-email'],
                ['Scope', scopeLabel(user.scope)],
                ['Role', user.roleName ?? (user.scope === 'system' ? 'System administrator' : '—')],
                ['Status', <span className="cap">{user.status}</span>],
                // The sign-in before this session: user.lastLoginAt is this one (or a later one elsewhere).
                ...(account.previousSignInAt ? [previousSignIn(account.previousSignInAt)] : []),
                ['Member since', formatDateTime(profile?.createdAt)],
              ]}
            />
          </Card>
          {profile ? (
            <DetailsCard profile={profile} onSaved={account.setProfile} />
          ) : (
            <Card title="Your details" icon="edit">
              <Spinner label="Loading…" />
            </Card>
          )}
          <PasswordCard email={user.email} passwordChangedAt={profile?.passwordChangedAt ?? null} />
        </div>

        <div className="col">
          <MfaCard
            user={user}
            mfa={mfa}
            signIn={account.signIn}
            requiredByPolicy={account.mfaRequiredByPolicy}
            smsAllowed={account.smsAllowed}
            onChanged={account.reload}
          />
          <PhoneCard
            user={user}
            smsAllowed={account.smsAllowed}
            onSmsRefused={account.markSmsRefused}
            onChanged={account.reload}
          />
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
      </div>
    </div>
  );
}

/** The avatar image when one is set and loads (the console's CSP allows same-origin images only), else initials. */
function Avatar({ name, email, url }: { name: string; email: string; url: string | null }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (url && failed !== url) {
    return (
      <img
        className="avatar avatar-lg pf-avatar-img"
        src={url}
        alt=""
        onError={() => setFailed(url)}
        data-testid="profile-avatar"
      />
    );
  }
  return (
    <span className="avatar avatar-lg" aria-hidden="true" data-testid="profile-avatar">
      {initials(name, email)}
    </span>
  );
}

/** The Account card's row for the sign-in before this session. */
function previousSignIn(at: string): [string, ReactNode, string] {
  return ['Previous sign-in', formatDateTime(at), 'profile-previous-sign-in'];
}
