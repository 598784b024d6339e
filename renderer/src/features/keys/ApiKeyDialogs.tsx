import { useState, type FormEvent } from 'react';
import type { ApiKey, ApiKeyCreated, ApiKeyRotated, UpdateApiKeyBody } from '../../../../server/contract';
import { useAsyncAction } from '../../lib/action';
import { parseWhole } from '../../lib/forms';
import { Dialog, Field, TextField } from '../../ui';
import { keysApi } from './api';
import type { IssuedKeyKind } from './IssuedKeyDialogs';
import { ScopeEditor } from './ScopeEditor';
import {
  CreateKeyForm,
  KeyFormFoot,
  KeyOrgField,
  useCreateSubmit,
  type CreateKeyProps,
  type OnKey,
} from './shared';
import { IssuedKeyLimits, IssuedKeyNameField, useIssuedKeyFields } from './issued-key-fields';

// The API-key dialogs: create, edit, rotate and revoke.

export function CreateApiKeyForm({ orgs, defaultOrg, onClose, onDone }: CreateKeyProps<ApiKeyCreated>) {
  const [orgId, setOrgId] = useState(defaultOrg);
  const [scopes, setScopes] = useState<string[]>([]);
  const fields = useIssuedKeyFields('1000', 'a rate limit');
  const {
    action: create,
    show,
    submit,
  } = useCreateSubmit({
    orgId: orgId ? null : 'Choose the organization this key belongs to.',
    ...fields.problems,
  });

  const onSubmit = submit(async () => {
    const body = fields.body();
    if (body) onDone(await keysApi.createApiKey({ orgId, scopes, ...body }));
  });

  return (
    <CreateKeyForm create={create} testId="api-key-create" onSubmit={onSubmit} onCancel={onClose}>
      <div className="form-row">
        <KeyOrgField idPrefix="api-key" orgs={orgs} value={orgId} onChange={setOrgId} error={show('orgId')} />
        <IssuedKeyNameField
          idPrefix="api-key"
          fields={fields}
          show={show}
          hint="Say who uses it, e.g. “PSA sync”."
        />
      </div>
      <Field label="Scopes" htmlFor="api-key-scopes">
        <ScopeEditor id="api-key-scopes" scopes={scopes} onChange={setScopes} />
      </Field>
      <IssuedKeyLimits
        idPrefix="api-key"
        label="Rate limit (requests per hour)"
        hint="1 to 100,000. Sliding one-hour window."
        fields={fields}
        show={show}
      />
    </CreateKeyForm>
  );
}

export function sameScopes(a: string[], b: string[]): boolean {
  return a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
}

export function EditApiKeyDialog({ k: apiKey, onClose, onDone }: OnKey<ApiKey>) {
  const [name, setName] = useState(apiKey.name);
  const [scopes, setScopes] = useState<string[]>(apiKey.scopes);
  const [rateLimit, setRateLimit] = useState(String(apiKey.rateLimit));
  const save = useAsyncAction();

  const rate = parseWhole(rateLimit, 1, 100_000, 'a rate limit');
  const nameProblem = !name.trim() ? 'Enter a name.' : null;
  const changes: UpdateApiKeyBody = {};
  if (name.trim() !== apiKey.name) changes.name = name.trim();
  if (!sameScopes(scopes, apiKey.scopes)) changes.scopes = scopes;
  if (typeof rate === 'number' && rate !== apiKey.rateLimit) changes.rateLimit = rate;
  const dirty = Object.keys(changes).length > 0;
  const valid = !nameProblem && typeof rate === 'number';

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (save.busy || !dirty || !valid) return;
    void save.run(async () => {
      await keysApi.updateApiKey(apiKey.id, changes);
      onDone();
    });
  };

  return (
    <Dialog open title={`Edit “${apiKey.name}”`} onClose={onClose} testId="api-key-edit-dialog" wide>
      <form className="form" onSubmit={onSubmit} noValidate>
        <div className="form-row">
          <TextField
            id="api-key-edit-name"
            label="Name"
            error={nameProblem}
            type="text"
            maxLength={255}
            value={name}
            onChange={setName}
          />
          <TextField
            id="api-key-edit-rate-limit"
            label="Rate limit (requests per hour)"
            error={typeof rate === 'string' ? rate : null}
            type="text"
            inputMode="numeric"
            value={rateLimit}
            onChange={setRateLimit}
          />
        </div>
        <Field label="Scopes (replace the current set)" htmlFor="api-key-edit-scopes">
          <ScopeEditor id="api-key-edit-scopes" scopes={scopes} onChange={setScopes} />
        </Field>
        <p className="small muted">
          The key itself does not change. Expiry cannot be edited; create a new key for a different lifetime.
        </p>
        <KeyFormFoot
          action={save}
          testId="api-key-edit"
          onCancel={onClose}
          label="Save changes"
          disabled={!dirty || !valid}
        />
      </form>
    </Dialog>
  );
}

/** The API key in the shared rotate, revoke and reveal dialogs. */
export const API_KEY_KIND: IssuedKeyKind<ApiKeyRotated> = {
  noun: 'API key',
  testIdPrefix: 'api-key',
  rotate: keysApi.rotateApiKey,
  revoke: keysApi.deleteApiKey,
  usedBy: 'every integration',
  keeps: 'Name, scopes, rate limit and expiry stay the same. Usage count and last-used time start over.',
  refused: 'Requests',
  snippet: (key) => ({
    label: 'Send it as a request header',
    text: `X-API-Key: ${key.key}`,
    copyLabel: 'Copy header',
  }),
};
