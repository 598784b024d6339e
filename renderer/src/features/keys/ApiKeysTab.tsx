import { useState, type FormEvent } from 'react';
import type { ApiKey, ApiKeyCreated, ApiKeyStatus, Organization } from '../../../../server/contract';
import { ActionError } from '../../ui/ActionError';
import { Dialog } from '../../ui/Dialog';
import { ConfirmAction, FormButtons } from '../../ui/DialogActions';
import { Field, StatusPill } from '../../ui/basics';
import { keysApi, useApiKeys } from './api';
import { useNow } from '../../lib/hooks';
import { ScopeEditor, WILDCARD } from './ScopeEditor';
import { CopySnippet, KeyListFrame, OrgSelect, RevealDialog, RowAction, defaultOrgOf } from './shared';
import { orgName } from '../../lib/directory';
import { Segmented } from '../../ui';
import { formatCount, formatDateTime, relativeTo } from '../../lib/format';
import { isoFromNow, toLocalInput } from '../../lib/dates';
import { parseWhole } from '../../lib/forms';
import { useModal } from '../../lib/hooks';

type StatusFilter = 'all' | ApiKeyStatus;
const PAGE_SIZE = 50;

const STATUS_TONE: Record<ApiKeyStatus, 'ok' | 'warn' | 'muted'> = {
  active: 'ok',
  expired: 'warn',
  revoked: 'muted',
};

type Modal =
  | { kind: 'create' }
  | { kind: 'edit'; key: ApiKey }
  | { kind: 'rotate'; key: ApiKey }
  | { kind: 'revoke'; key: ApiKey }
  | { kind: 'reveal'; key: ApiKeyCreated; rotated: boolean };

export function ApiKeysTab({ orgs, orgFilter }: { orgs: Organization[]; orgFilter: string }) {
  const [status, setStatus] = useState<StatusFilter>('all');
  const [page, setPage] = useState(1);
  const { modal, setModal, close, closeFor } = useModal<Modal>();
  const now = useNow(30_000);

  const {
    rows,
    pagination,
    error: loadError,
    reload,
  } = useApiKeys({
    page,
    limit: PAGE_SIZE,
    orgId: orgFilter || undefined,
    status: status === 'all' ? undefined : status,
  });

  const showOrg = !orgFilter && orgs.length > 1;
  const create = () => setModal({ kind: 'create' });

  return (
    <KeyListFrame
      noun="api-keys"
      filter={
        <Segmented<StatusFilter>
          label="Status"
          value={status}
          onChange={(v) => {
            setStatus(v);
            setPage(1);
          }}
          testId="api-key-filter"
          options={[
            { value: 'all', label: 'All' },
            { value: 'active', label: 'Active' },
            { value: 'expired', label: 'Expired' },
            { value: 'revoked', label: 'Revoked' },
          ]}
        />
      }
      createLabel="New API key"
      createTestId="create-api-key"
      canCreate={orgs.length > 0}
      onCreate={create}
      onReload={reload}
      loading={rows === null}
      loadingLabel="Loading API keys…"
      loadError={loadError}
      count={rows?.length ?? 0}
      empty={{
        icon: 'keys',
        title: status === 'all' ? 'No API keys yet' : `No ${status} API keys`,
        text: (
          <>
            API keys let integrations and scripts call Gatehouse with the{' '}
            <span className="mono">X-API-Key</span> header. Each key belongs to one organization, carries
            scopes and an hourly rate limit.
          </>
        ),
        offerCreate: status === 'all' && orgs.length > 0,
      }}
      head={
        <>
          <th>Name</th>
          <th>Prefix</th>
          <th>Scopes</th>
          <th>Status</th>
          <th className="num">Rate limit</th>
          <th className="num">Usage</th>
          <th>Last used</th>
          <th>Expires</th>
        </>
      }
      pagination={pagination}
      onPage={setPage}
      dialogs={
        <>
          <Dialog
            open={modal?.kind === 'create'}
            title="New API key"
            onClose={closeFor('create')}
            testId="api-key-create-dialog"
            wide
          >
            {modal?.kind === 'create' ? (
              <CreateApiKeyForm
                orgs={orgs}
                defaultOrg={defaultOrgOf(orgs, orgFilter)}
                onCancel={closeFor('create')}
                onCreated={(key) => {
                  setModal({ kind: 'reveal', key, rotated: false });
                  reload();
                }}
              />
            ) : null}
          </Dialog>
          {modal?.kind === 'edit' ? (
            <EditApiKeyDialog
              apiKey={modal.key}
              onClose={closeFor('edit')}
              onSaved={() => {
                close();
                reload();
              }}
            />
          ) : null}
          {modal?.kind === 'rotate' ? (
            <RotateApiKeyDialog
              apiKey={modal.key}
              onClose={closeFor('rotate')}
              onRotated={(key) => {
                setModal({ kind: 'reveal', key, rotated: true });
                reload();
              }}
            />
          ) : null}
          {modal?.kind === 'revoke' ? (
            <RevokeApiKeyDialog
              apiKey={modal.key}
              onClose={closeFor('revoke')}
              onRevoked={() => {
                close();
                reload();
              }}
            />
          ) : null}
          <RevealDialog
            reveal={modal?.kind === 'reveal' ? modal : null}
            noun="API key"
            testIdPrefix="api-key"
            onClose={closeFor('reveal')}
          >
            {(key, rotated) => (
              <>
                {rotated ? (
                  <p className="small muted">
                    The previous key stopped working the moment this one was issued.
                  </p>
                ) : null}
                <CopySnippet
                  label="Send it as a request header"
                  text={`X-API-Key: ${key.key}`}
                  copyLabel="Copy header"
                  testId="api-key-snippet"
                />
              </>
            )}
          </RevealDialog>
        </>
      }
    >
      {(rows ?? []).map((k) => (
        <ApiKeyRow
          key={k.id}
          k={k}
          now={now}
          org={showOrg ? orgName(orgs, k.orgId) : null}
          onEdit={() => setModal({ kind: 'edit', key: k })}
          onRotate={() => setModal({ kind: 'rotate', key: k })}
          onRevoke={() => setModal({ kind: 'revoke', key: k })}
        />
      ))}
    </KeyListFrame>
  );
}

function ApiKeyRow({
  k,
  now,
  org,
  onEdit,
  onRotate,
  onRevoke,
}: {
  k: ApiKey;
  now: number;
  org: string | null;
  onEdit: () => void;
  onRotate: () => void;
  onRevoke: () => void;
}) {
  const active = k.status === 'active';
  const shown = k.scopes.slice(0, 2);
  const more = k.scopes.length - shown.length;
  const expires = k.expiresAt ? Date.parse(k.expiresAt) : null;
  return (
    <tr
      className={active ? undefined : 'kx-dim'}
      data-testid="api-key-row"
      data-key-id={k.id}
      data-name={k.name}
    >
      <td>
        <div className="kx-name">{k.name}</div>
        {org ? <div className="kx-sub">{org}</div> : null}
      </td>
      <td>
        <span className="mono kx-prefix" data-testid="api-key-prefix">
          {k.keyPrefix}…
        </span>
      </td>
      <td>
        {k.scopes.length === 0 ? (
          <span className="muted small">none</span>
        ) : (
          <div className="kx-chips" title={k.scopes.join(', ')}>
            {shown.map((s) => (
              <span key={s} className={`kx-chip kx-chip-sm${s === WILDCARD ? ' kx-chip-warn' : ''}`}>
                <span className="mono">{s}</span>
              </span>
            ))}
            {more > 0 ? <span className="muted small">+{more}</span> : null}
          </div>
        )}
      </td>
      <td>
        <StatusPill tone={STATUS_TONE[k.status]} testId="api-key-status">
          <span className="cap">{k.status}</span>
        </StatusPill>
      </td>
      <td className="num">{formatCount(k.rateLimit)}/h</td>
      <td className="num" data-testid="api-key-usage">
        {formatCount(k.usageCount)}
      </td>
      <td title={k.lastUsedAt ? formatDateTime(k.lastUsedAt, { seconds: false }) : undefined}>
        {k.lastUsedAt ? relativeTo(Date.parse(k.lastUsedAt), now) : <span className="muted">Never</span>}
      </td>
      <td title={k.expiresAt ? formatDateTime(k.expiresAt, { seconds: false }) : undefined}>
        {expires === null ? (
          <span className="muted">Never</span>
        ) : (
          <span className={expires < now ? 'tone-warn' : undefined}>{relativeTo(expires, now)}</span>
        )}
      </td>
      <td className="kx-actions">
        {active ? (
          <>
            <RowAction icon="edit" label="Edit" name={k.name} onClick={onEdit} testId="api-key-edit" />
            <RowAction
              icon="refresh"
              label="Rotate"
              name={k.name}
              onClick={onRotate}
              testId="api-key-rotate"
            />
            <RowAction
              icon="trash"
              label="Revoke"
              name={k.name}
              onClick={onRevoke}
              testId="api-key-revoke"
              danger
            />
          </>
        ) : null}
      </td>
    </tr>
  );
}

type ExpiryChoice = 'never' | '30d' | '90d' | '365d' | 'custom';
const EXPIRY_DAYS: Record<Exclude<ExpiryChoice, 'never' | 'custom'>, number> = {
  '30d': 30,
  '90d': 90,
  '365d': 365,
};

function CreateApiKeyForm({
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

function sameScopes(a: string[], b: string[]): boolean {
  return a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
}

function EditApiKeyDialog({
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

function RotateApiKeyDialog({
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

function RevokeApiKeyDialog({
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
