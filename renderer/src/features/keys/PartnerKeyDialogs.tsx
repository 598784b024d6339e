import { useState } from 'react';
import type { PartnerKeyCreated, PartnerKeyScope } from '../../../../server/contract';
import { formatCount } from '../../lib/format';
import { Checklist, Field, type DialogProps } from '../../ui';
import { keysApi } from './api';
import type { IssuedKeyKind } from './IssuedKeyDialogs';
import { PARTNER_SCOPE_LABELS, PARTNER_SCOPES, PARTNER_WRITE_CAP } from './partner-scopes';
import { CreateKeyForm, useCreateSubmit } from './shared';
import { IssuedKeyLimits, IssuedKeyNameField, useIssuedKeyFields } from './issued-key-fields';

// The partner provisioning key dialogs: create (name, scopes from the five, write limit, expiry), rotate and
// revoke. The raw key is shown once by the tab's reveal dialog.

export function CreatePartnerKeyForm({ onClose, onDone }: DialogProps<PartnerKeyCreated>) {
  const [scopes, setScopes] = useState<PartnerKeyScope[]>(['organizations:read', 'sites:read']);
  const fields = useIssuedKeyFields(String(PARTNER_WRITE_CAP), 'a write limit');
  const { action, show, submit } = useCreateSubmit({
    ...fields.problems,
    scopes: scopes.length === 0 ? 'Choose at least one scope.' : null,
  });

  const onSubmit = submit(async () => {
    const body = fields.body();
    if (body) onDone(await keysApi.createPartnerKey({ scopes, ...body }));
  });

  return (
    <CreateKeyForm create={action} testId="partner-key-create" onSubmit={onSubmit} onCancel={onClose}>
      <IssuedKeyNameField
        idPrefix="partner-key"
        fields={fields}
        show={show}
        hint="Say which automation uses it, e.g. “Onboarding runbook”."
      />
      <Field label="Scopes" htmlFor="partner-key-scopes" error={show('scopes')}>
        <Checklist
          id="partner-key-scopes"
          testId="partner-key-scopes"
          optionTestId="partner-key-scope"
          items={PARTNER_SCOPES.map((s) => ({ id: s, name: PARTNER_SCOPE_LABELS[s], meta: s }))}
          selected={scopes}
          onChange={(next) => setScopes(PARTNER_SCOPES.filter((s) => next.includes(s)))}
          metaMono
        />
      </Field>
      <IssuedKeyLimits
        idPrefix="partner-key"
        label="Write limit (per hour)"
        hint={`Writes are capped at ${formatCount(PARTNER_WRITE_CAP)} an hour whatever you set; lower it to slow a script down.`}
        fields={fields}
        show={show}
      />
    </CreateKeyForm>
  );
}

/** The partner key in the shared rotate, revoke and reveal dialogs. */
export const PARTNER_KEY_KIND: IssuedKeyKind<PartnerKeyCreated> = {
  noun: 'Partner key',
  testIdPrefix: 'partner-key',
  rotate: keysApi.rotatePartnerKey,
  revoke: keysApi.revokePartnerKey,
  usedBy: 'the automation',
  keeps: 'Name, scopes, write limit and expiry stay the same.',
  refused: (
    <>
      Calls to <span className="mono">/partner-api</span>
    </>
  ),
  snippet: (key) => ({
    label: 'Try it: list your organizations',
    text: `curl -H "X-API-Key: ${key.key}" ${window.location.origin}/api/v1/partner-api/organizations`,
    copyLabel: 'Copy command',
  }),
};
