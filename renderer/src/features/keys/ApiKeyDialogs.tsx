import { useState, type FormEvent } from 'react';
import type { ApiKey, ApiKeyCreated, Organization } from '../../../../server/contract';
import { ActionError } from '../../ui/ActionError';
import { Dialog } from '../../ui/Dialog';
import { ConfirmAction, FormButtons } from '../../ui/DialogActions';
import { Field } from '../../ui/basics';
import { keysApi } from './api';
import { useNow } from '../../lib/hooks';
import { ScopeEditor } from './ScopeEditor';
import { OrgSelect } from './shared';
import { isoFromNow, toLocalInput } from '../../lib/dates';
import { parseWhole } from '../../lib/forms';

// The API-key dialogs: create, edit, rotate and revoke.

export type ExpiryChoice = 'never' | '30d' | '90d' | '365d' | 'custom';

export const EXPIRY_DAYS: Record<Exclude<ExpiryChoice, 'never' | 'custom'>, number> = {
  '30d': 30,
  '90d': 90,
  '365d': 365,
};

export function CreateApiKeyForm({
  orgs,
  defaultOrg,
  onCancel,
  onCreated,
}: {
  orgs: Organization[];
  defaultOrg: string;
  onCancel: () => void;
  onCreated: (key: ApiKeyCreated) => void;
}) {
  const [orgId, setOrgId] = useState(defaultOrg);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const [rateLimit, setRateLimit] = useState('1000');
  const [expiry, setExpiry] = useState<ExpiryChoice>('never');
  const [customExpiry, setCustomExpiry] = useState('');
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const now = useNow(60_000);

  const rate = parseWhole(rateLimit, 1, 100_000, 'a rate limit');
  const customMs = customExpiry ? new Date(customExpiry).getTime() : NaN;
  const problems = {
    orgId: orgId ? null : 'Choose the organization this key belongs to.',
    name: !name.trim() ? 'Enter a name.' : name.trim().length > 255 ? 'At most 255 characters.' : null,
    rateLimit: typeof rate === 'string' ? rate : null,
    expiry:
      expiry !== 'custom'
        ? null
        : Number.isNaN(customMs)
          ? 'Pick a date and time.'
          : customMs <= now
            ? 'The expiry must be in the future.'
            : null,
  };
  const show = (k: keyof typeof problems) => (touched ? problems[k] : null);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (busy || Object.values(problems).some(Boolean) || typeof rate !== 'number') return;
    setBusy(true);
    setError(null);
    try {
      const exp =
        expiry === 'never'
          ? undefined
          : expiry === 'custom'
            ? new Date(customMs).toISOString()
            : isoFromNow(EXPIRY_DAYS[expiry] * 86_400_000);
      const created = await keysApi.createApiKey({
        orgId,
        name: name.trim(),
        scopes,
        rateLimit: rate,
        ...(exp ? { expiresAt: exp } : {}),
      });
      onCreated(created);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
      <div className="form-row">
        <Field label="Organization" htmlFor="api-key-org" error={show('orgId')}>
          <OrgSelect id="api-key-org" orgs={orgs} value={orgId} onChange={setOrgId} testId="api-key-org" />
        </Field>
        <Field
          label="Name"
          htmlFor="api-key-name"
          error={show('name')}
          hint="Say who uses it, e.g. “PSA sync”."
        >
          <input
            id="api-key-name"
            type="text"
            autoFocus
            maxLength={255}
            value={name}
            onChange={(e) => setName(e.target.value)}
            data-testid="api-key-name"
          />
        </Field>
      </div>
      <Field label="Scopes" htmlFor="api-key-scopes">
        <ScopeEditor id="api-key-scopes" scopes={scopes} onChange={setScopes} />
      </Field>
      <div className="form-row">
        <Field
          label="Rate limit (requests per hour)"
          htmlFor="api-key-rate-limit"
          error={show('rateLimit')}
          hint="1 to 100,000. Sliding one-hour window."
        >
          <input
            id="api-key-rate-limit"
            type="text"
            inputMode="numeric"
            value={rateLimit}
            onChange={(e) => setRateLimit(e.target.value)}
            data-testid="api-key-rate-limit"
          />
        </Field>
        <Field label="Expires" htmlFor="api-key-expiry" error={show('expiry')}>
          <div className="kx-expiry">
            <select
              id="api-key-expiry"
              className="kx-select"
              value={expiry}
              onChange={(e) => {
                const v = e.target.value as ExpiryChoice;
                setExpiry(v);
                if (v === 'custom' && !customExpiry)
                  setCustomExpiry(toLocalInput(Date.now() + 30 * 86_400_000));
              }}
              data-testid="api-key-expiry"
            >
              <option value="never">Never</option>
              <option value="30d">In 30 days</option>
              <option value="90d">In 90 days</option>
              <option value="365d">In 1 year</option>
              <option value="custom">On a date…</option>
            </select>
            {expiry === 'custom' ? (
              <input
                type="datetime-local"
                className="kx-input"
                value={customExpiry}
                onChange={(e) => setCustomExpiry(e.target.value)}
                aria-label="Expiry date and time"
                data-testid="api-key-expiry-custom"
              />
            ) : null}
          </div>
        </Field>
      </div>
      <ActionError error={error} testId="api-key-create-error" />
      <div className="kx-form-foot">
        <FormButtons
          onCancel={onCancel}
          busy={busy}
          label="Create key"
          busyLabel="Creating…"
          testId="api-key-create-submit"
        />
      </div>
    </form>
  );
}

export function sameScopes(a: string[], b: string[]): boolean {
  return a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
}

export function EditApiKeyDialog({
  apiKey,
  onClose,
  onSaved,
}: {
  apiKey: ApiKey;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [name, setName] = useState(apiKey.name);
  const [scopes, setScopes] = useState<string[]>(apiKey.scopes);
  const [rateLimit, setRateLimit] = useState(String(apiKey.rateLimit));
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const rate = parseWhole(rateLimit, 1, 100_000, 'a rate limit');
  const nameProblem = !name.trim() ? 'Enter a name.' : null;
  const changes: Record<string, unknown> = {};
  if (name.trim() !== apiKey.name) changes.name = name.trim();
  if (!sameScopes(scopes, apiKey.scopes)) changes.scopes = scopes;
  if (typeof rate === 'number' && rate !== apiKey.rateLimit) changes.rateLimit = rate;
  const dirty = Object.keys(changes).length > 0;
  const valid = !nameProblem && typeof rate === 'number';

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || !dirty || !valid) return;
    setBusy(true);
    setError(null);
    try {
      await keysApi.updateApiKey(apiKey.id, changes);
      onSaved();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open title={`Edit “${apiKey.name}”`} onClose={onClose} testId="api-key-edit-dialog" wide>
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <div className="form-row">
          <Field label="Name" htmlFor="api-key-edit-name" error={nameProblem}>
            <input
              id="api-key-edit-name"
              type="text"
              maxLength={255}
              value={name}
              onChange={(e) => setName(e.target.value)}
              data-testid="api-key-edit-name"
            />
          </Field>
          <Field
            label="Rate limit (requests per hour)"
            htmlFor="api-key-edit-rate-limit"
            error={typeof rate === 'string' ? rate : null}
          >
            <input
              id="api-key-edit-rate-limit"
              type="text"
              inputMode="numeric"
              value={rateLimit}
              onChange={(e) => setRateLimit(e.target.value)}
              data-testid="api-key-edit-rate-limit"
            />
          </Field>
        </div>
        <Field label="Scopes (replace the current set)" htmlFor="api-key-edit-scopes">
          <ScopeEditor id="api-key-edit-scopes" scopes={scopes} onChange={setScopes} />
        </Field>
        <p className="small muted">
          The key itself does not change. Expiry cannot be edited; create a new key for a different lifetime.
        </p>
        <ActionError error={error} testId="api-key-edit-error" />
        <div className="kx-form-foot">
          <FormButtons
            onCancel={onClose}
            busy={busy}
            label="Save changes"
            disabled={!dirty || !valid}
            testId="api-key-edit-submit"
          />
        </div>
      </form>
    </Dialog>
  );
}

export function RotateApiKeyDialog({
  apiKey,
  onClose,
  onRotated,
}: {
  apiKey: ApiKey;
  onClose: () => void;
  onRotated: (key: ApiKeyCreated) => void;
}) {
  return (
    <ConfirmAction
      title={`Rotate “${apiKey.name}”?`}
      confirmLabel="Rotate key"
      onConfirm={async () => onRotated(await keysApi.rotateApiKey(apiKey.id))}
      onCancel={onClose}
      testId="api-key-rotate-dialog"
      errorTestId="api-key-rotate-error"
    >
      <p>
        A new key is issued and the current key (<span className="mono">{apiKey.keyPrefix}…</span>) stops
        working <strong>immediately</strong>. Update every integration that uses it.
      </p>
      <p className="muted small">
        Name, scopes, rate limit and expiry stay the same. Usage count and last-used time start over.
      </p>
    </ConfirmAction>
  );
}

export function RevokeApiKeyDialog({
  apiKey,
  onClose,
  onRevoked,
}: {
  apiKey: ApiKey;
  onClose: () => void;
  onRevoked: () => void;
}) {
  return (
    <ConfirmAction
      title={`Revoke “${apiKey.name}”?`}
      confirmLabel="Revoke key"
      onConfirm={async () => {
        await keysApi.deleteApiKey(apiKey.id);
        onRevoked();
      }}
      onCancel={onClose}
      testId="api-key-revoke-dialog"
      errorTestId="api-key-revoke-error"
    >
      <p>
        Requests with <span className="mono">{apiKey.keyPrefix}…</span> are refused from now on. Revoking is
        permanent: the key cannot be restored or rotated, only replaced by a new one.
      </p>
      <p className="muted small">The record stays in the list as revoked, for the audit trail.</p>
    </ConfirmAction>
  );
}
