import { useState } from 'react';
import type { SsoProvider } from '../../../../server/contract';
import { useAsyncAction } from '../../lib/action';
import { queryClient } from '../../lib/query';
import {
  ActionError,
  Alert,
  Check,
  Dialog,
  DialogButtons,
  LoadingBlock,
  Toggle,
  type FormAction,
} from '../../ui';
import { ssoApi, ssoKeys, useEnforcementPreview } from './api';
import type { OwnerChoice } from './owner';

// Enforcement (spec 1 rule 13): once on, the governed people can no longer sign in with a password. Switching it on
// first names who that is (the enforcement preview) and asks for a deliberate confirmation; switching it off is
// immediate.

export function EnforcementControl({
  provider,
  owner,
  canWrite,
}: {
  provider: SsoProvider;
  owner: OwnerChoice;
  canWrite: boolean;
}) {
  const [confirming, setConfirming] = useState(false);
  const save = useAsyncAction();

  const setEnforced = (enforceSSO: boolean) =>
    save.run(async () => {
      await ssoApi.update(provider.id, { enforceSSO });
      setConfirming(false);
      await queryClient.invalidateQueries({ queryKey: ssoKeys.all });
    });

  return (
    <div className="sso-enforce">
      <Toggle
        id={`sso-enforce-${provider.id}`}
        checked={provider.enforceSSO}
        disabled={!canWrite || save.busy}
        onChange={(on) => (on ? setConfirming(true) : void setEnforced(false))}
        label="Require single sign-on"
        hint={
          provider.enforceSSO
            ? provider.status === 'active'
              ? `Password sign-in is refused for ${owner.label}; they sign in with ${provider.name}.`
              : 'Takes effect when the provider is switched on.'
            : 'Password sign-in keeps working alongside single sign-on.'
        }
      />
      {!confirming ? <ActionError error={save.error} /> : null}
      {confirming ? (
        <EnforceDialog
          provider={provider}
          owner={owner}
          action={save}
          onCancel={() => {
            save.reset();
            setConfirming(false);
          }}
          onConfirm={() => void setEnforced(true)}
        />
      ) : null}
    </div>
  );
}

function EnforceDialog({
  provider,
  owner,
  action,
  onCancel,
  onConfirm,
}: {
  provider: SsoProvider;
  owner: OwnerChoice;
  action: FormAction;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const preview = useEnforcementPreview(provider.id);
  const [understood, setUnderstood] = useState(false);
  const total = preview.data?.total ?? 0;
  return (
    <Dialog
      open
      title={`Require ${provider.name} for ${owner.label}?`}
      onClose={onCancel}
      testId="sso-enforce-dialog"
      footer={
        <DialogButtons
          onCancel={onCancel}
          onAction={onConfirm}
          busy={action.busy}
          disabled={!understood || !preview.data}
          label="Require single sign-on"
          danger
          testId="sso-enforce-confirm"
        />
      }
    >
      {preview.loading ? <LoadingBlock label="Finding who signs in with a password…" /> : null}
      <ActionError error={preview.error} />
      {preview.data ? (
        total === 0 ? (
          <p data-testid="sso-enforce-nobody">
            Nobody here signs in with a password today, so nobody loses access.
          </p>
        ) : (
          <>
            <Alert tone="warning" testId="sso-enforce-warning">
              {total === 1 ? 'One person' : `${total} people`} will no longer be able to sign in with a
              password and must use {provider.name}:
            </Alert>
            <ul className="sso-enforce-list" data-testid="sso-enforce-users">
              {preview.data.users.map((u) => (
                <li key={u.id}>
                  <strong>{u.name}</strong> <span className="muted">{u.email}</span>
                </li>
              ))}
              {total > preview.data.users.length ? (
                <li className="muted">and {total - preview.data.users.length} more</li>
              ) : null}
            </ul>
          </>
        )
      ) : null}
      <Check checked={understood} onChange={setUnderstood} testId="sso-enforce-ack">
        I checked that these people can sign in with {provider.name} before I switch password sign-in off.
      </Check>
      <ActionError error={action.error} />
    </Dialog>
  );
}
