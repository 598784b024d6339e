import { useState } from 'react';
import type { SsoPreset, SsoProvider } from '../../../../server/contract';
import { useAsyncAction } from '../../lib/action';
import { copyText } from '../../lib/clipboard';
import { queryClient } from '../../lib/query';
import { ActionError, Card, ConfirmDialog, CopyButton, Facts, SmallButton, StatusPill } from '../../ui';
import { ssoApi, ssoKeys } from './api';
import { EditProviderDialog } from './EditProviderDialog';
import { EnforcementControl } from './EnforcementControl';
import { STATUS_TEXT } from './model';
import type { OwnerChoice } from './owner';
import { ProviderChecks } from './ProviderChecks';

// One provider: what it is connected to (the secret only as "stored"), its checks and status, enforcement, and
// edit and delete.

export function ProviderCard({
  provider,
  owner,
  presets,
  canWrite,
}: {
  provider: SsoProvider;
  owner: OwnerChoice;
  presets: SsoPreset[];
  canWrite: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const remove = useAsyncAction();
  const preset = presets.find((p) => p.id === provider.preset);
  const domains = provider.allowedDomains.split(',').filter(Boolean);

  const confirmRemove = () =>
    void remove.run(async () => {
      await ssoApi.remove(provider.id);
      setRemoving(false);
      await queryClient.invalidateQueries({ queryKey: ssoKeys.all });
    });

  return (
    <Card
      title={provider.name}
      icon="lock"
      className="sso-card"
      testId="sso-provider"
      actions={
        <>
          <StatusPill
            tone={provider.status === 'active' ? 'ok' : provider.status === 'testing' ? 'warn' : 'muted'}
            testId="sso-provider-status"
          >
            {STATUS_TEXT[provider.status].label}
          </StatusPill>
          {canWrite ? (
            <>
              <SmallButton tone="secondary" icon="edit" onClick={() => setEditing(true)} testId="sso-edit">
                Edit
              </SmallButton>
              <SmallButton
                tone="ghost"
                icon="trash"
                aria-label={`Delete ${provider.name}`}
                onClick={() => setRemoving(true)}
                testId="sso-delete"
              />
            </>
          ) : null}
        </>
      }
    >
      <Facts
        rows={[
          ['Product', preset?.name ?? 'OpenID Connect provider'],
          ['Issuer', <span className="mono">{provider.issuer ?? 'Not set'}</span>, 'sso-fact-issuer'],
          ['Client ID', <span className="mono">{provider.clientId ?? 'Not set'}</span>],
          [
            'Client secret',
            provider.hasClientSecret ? (
              <StatusPill tone="ok">Stored</StatusPill>
            ) : (
              <StatusPill tone="bad">Missing</StatusPill>
            ),
            'sso-fact-secret',
          ],
          [
            'Redirect URI',
            <span className="sso-copy-line">
              <span className="mono">{provider.redirectUri}</span>
              <CopyButton onCopy={() => copyText(provider.redirectUri)} className="btn btn-ghost btn-sm" />
            </span>,
          ],
          ['Email domains', domains.length ? domains.join(', ') : 'Any domain'],
          [
            'New people',
            provider.autoProvision
              ? 'Get an account on first sign-in'
              : 'Only people already invited can sign in',
          ],
          ['IdP MFA', provider.trustsIdpMfa ? 'Trusted' : 'Gatehouse asks for its own second factor'],
        ]}
      />
      <ProviderChecks provider={provider} disabled={!canWrite} />
      <EnforcementControl provider={provider} owner={owner} canWrite={canWrite} />
      {editing ? (
        <EditProviderDialog
          provider={provider}
          owner={owner}
          issuerTemplate={preset?.issuerTemplate ?? null}
          onClose={() => setEditing(false)}
        />
      ) : null}
      <ConfirmDialog
        open={removing}
        title={`Delete ${provider.name}?`}
        confirmLabel="Delete provider"
        busy={remove.busy}
        onCancel={() => setRemoving(false)}
        onConfirm={confirmRemove}
        testId="sso-delete-dialog"
      >
        <p>
          Nobody will be able to sign in with {provider.name} any more, and every identity linked to it is
          removed. People with a Gatehouse password keep signing in with it.
        </p>
        <ActionError error={remove.error} />
      </ConfirmDialog>
    </Card>
  );
}
