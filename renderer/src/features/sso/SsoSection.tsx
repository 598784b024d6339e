import { useState } from 'react';
import { useDocumentTitle } from '../../lib/hooks';
import { Link, useRouter } from '../../lib/router';
import { useSession } from '../../lib/session';
import { AdminPage, Alert, Button, EmptyState, LoadState, LoadingBlock } from '../../ui';
import { usePresets, useProviders } from './api';
import type { SsoOwner } from './model';
import { ownerKey, useSsoOwner, type OwnerPick } from './owner';
import { DomainsCard } from './DomainsCard';
import { ProviderCard } from './ProviderCard';
import { SetupWizard } from './SetupWizard';
import './sso.css';

// /sso: single sign-on of one owner at a time (an organization, or a partner's own technicians), picked at the top
// like the other per-tenant screens: its providers with their checks, status and enforcement, the guided setup,
// and (organizations) the email domains proven by DNS.

const FORBIDDEN = {
  title: 'Single sign-on is not available to you',
  text: 'Reading sign-in providers needs the users:read permission.',
};

export function SsoSection() {
  useDocumentTitle('Single sign-on');
  const pick = useSsoOwner();
  const { owner } = pick;
  const canWrite = useSession((s) => s.user?.permissions.includes('users:write') ?? false);
  const presets = usePresets();
  const providers = useProviders(owner);
  const [setup, setSetup] = useState(false);
  const rows = providers.data?.data;

  const setupButton =
    canWrite && owner ? (
      <Button
        tone={rows?.length ? 'secondary' : 'primary'}
        icon="plus"
        onClick={() => setSetup(true)}
        testId="sso-setup"
      >
        {rows?.length ? 'Add another provider' : 'Set up single sign-on'}
      </Button>
    ) : null;

  return (
    <AdminPage
      className="sso-page"
      testId="sso-page"
      head={{
        title: 'Single sign-on',
        sub: 'Let people sign in with the identity provider they already use (Entra ID, Google Workspace, Okta, Auth0 or any OpenID Connect IdP).',
        actions: <OwnerPicker pick={pick} />,
      }}
    >
      <MfaHint canWrite={canWrite} />
      {!pick.loaded && !owner ? (
        <LoadingBlock label="Loading organizations…" />
      ) : !owner ? (
        <EmptyState icon="tenants" title="Nothing to configure yet" testId="sso-no-owner">
          Single sign-on belongs to an organization or a partner, and none is within your access.
        </EmptyState>
      ) : !rows ? (
        <LoadState of={providers} loading="Loading providers…" forbidden={FORBIDDEN} />
      ) : (
        <div className="sso-body">
          {rows.length === 0 ? (
            <EmptyState
              icon="lock"
              title={`No single sign-on for ${owner.label} yet`}
              testId="sso-empty"
              action={setupButton}
            >
              {owner.kind === 'partner'
                ? 'Your technicians sign in with their Gatehouse password. Connect your identity provider to let them use their work account instead.'
                : 'People of this organization sign in with their Gatehouse password. Connect its identity provider to let them use their work account instead.'}
            </EmptyState>
          ) : (
            <>
              {rows.map((p) => (
                <ProviderCard
                  key={p.id}
                  provider={p}
                  owner={owner}
                  presets={presets.data?.data ?? []}
                  canWrite={canWrite}
                />
              ))}
              {rows.length > 1 ? (
                <Alert tone="info">
                  Only one provider signs people in: the oldest one that is switched on.
                </Alert>
              ) : null}
              <div className="sso-add">{setupButton}</div>
            </>
          )}
          {owner.kind === 'organization' ? <DomainsCard orgId={owner.id} canWrite={canWrite} /> : null}
        </div>
      )}
      {setup && owner && presets.data ? (
        <SetupWizard owner={owner} presets={presets.data.data} onClose={() => setSetup(false)} />
      ) : null}
    </AdminPage>
  );
}

/** The picker's groups in order: partner technicians first, and only where there are any to pick. */
const OWNER_GROUPS: ReadonlyArray<{ kind: SsoOwner['kind']; label: string; hiddenWhenEmpty: boolean }> = [
  { kind: 'partner', label: 'Partner technicians', hiddenWhenEmpty: true },
  { kind: 'organization', label: 'Organizations', hiddenWhenEmpty: false },
];

function OwnerPicker({ pick }: { pick: OwnerPick }) {
  const { owner, choices } = pick;
  if (!owner || choices.length < 2)
    return owner ? <span className="sso-owner-one">{owner.label}</span> : null;
  return (
    <label className="sso-owner">
      <span className="muted small">For</span>
      <select
        value={ownerKey(owner)}
        onChange={(e) => {
          const next = choices.find((c) => ownerKey(c) === e.target.value);
          if (next) pick.setOwner(next);
        }}
        data-testid="sso-owner"
        aria-label="Whose single sign-on"
      >
        {OWNER_GROUPS.map((group) => {
          const members = choices.filter((c) => c.kind === group.kind);
          if (group.hiddenWhenEmpty && members.length === 0) return null;
          return (
            <optgroup key={group.kind} label={group.label}>
              {members.map((c) => (
                <option key={ownerKey(c)} value={ownerKey(c)}>
                  {c.label}
                </option>
              ))}
            </optgroup>
          );
        })}
      </select>
    </label>
  );
}

/** Provider and domain changes need an MFA session (spec 1 rule 5): said before the administrator tries. */
function MfaHint({ canWrite }: { canWrite: boolean }) {
  const user = useSession((s) => s.user);
  const mfa = useSession((s) => s.mfa);
  const pathname = useRouter((s) => s.pathname);
  if (!user || !canWrite || mfa) return null;
  return (
    <Alert tone="info" testId="sso-mfa-hint">
      Changing single sign-on needs a session verified with two-step verification.{' '}
      {user.mfaEnabled ? (
        'Sign out and sign in again with your code to make changes.'
      ) : (
        <>
          <Link to={`/mfa/enroll?returnTo=${encodeURIComponent(pathname)}`}>Set it up now</Link>; you can look
          around without it.
        </>
      )}
    </Alert>
  );
}
