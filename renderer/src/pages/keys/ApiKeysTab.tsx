import { useState, type FormEvent } from 'react';
import type { ApiKey, ApiKeyCreated, ApiKeyStatus, Organization } from '../../../../server/contract';
import { api } from '../../api/client';
import { ActionError } from '../../components/ActionError';
import { ConfirmDialog, Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { Alert, CopyButton, Field, Spinner, StatusPill } from '../../components/ui';
import { copyText } from '../../lib/clipboard';
import { usePagedList } from '../../lib/paged';
import { useNow } from '../../lib/hooks';
import { ScopeEditor, WILDCARD } from './ScopeEditor';
import {
  OrgSelect,
  Pager,
  SecretReveal,
  Segmented,
  formatCount,
  formatDate,
  isoFromNow,
  orgName,
  parseWhole,
  relativeTo,
  toLocalInput,
} from './shared';

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
  const [modal, setModal] = useState<Modal | null>(null);
  const now = useNow(30_000);

  const params = new URLSearchParams({ page: String(page), limit: String(PAGE_SIZE) });
  if (orgFilter) params.set('orgId', orgFilter);
  if (status !== 'all') params.set('status', status);
  const {
    rows,
    pagination,
    error: loadError,
    reload,
  } = usePagedList<ApiKey>(`/api-keys?${params.toString()}`);

  const close = () => setModal(null);
  // A native <dialog> fires `close` when React closes it too (e.g. create -> reveal): only clear the modal
  // that asked, or the reveal that replaced it would vanish with its key.
  const closeFor = (kind: Modal['kind']) => () => setModal((m) => (m?.kind === kind ? null : m));
  const showOrg = !orgFilter && orgs.length > 1;

  return (
    <div className="kx-tab" data-testid="api-keys-tab">
      <div className="kx-toolbar">
        <Segmented<StatusFilter>
          label="Status"
          value={status}
          onChange={(v) => {
            setStatus(v);
            setPage(1);
          }}
          testIdPrefix="api-key-filter"
          options={[
            { value: 'all', label: 'All' },
            { value: 'active', label: 'Active' },
            { value: 'expired', label: 'Expired' },
            { value: 'revoked', label: 'Revoked' },
          ]}
        />
        <div className="row gap-sm">
          <button type="button" className="btn btn-ghost btn-sm" onClick={reload} title="Reload">
            <Icon name="refresh" />
          </button>
          <button
            type="button"
            className="btn btn-primary btn-sm"
            onClick={() => setModal({ kind: 'create' })}
            disabled={orgs.length === 0}
            data-testid="create-api-key"
          >
            <Icon name="plus" />
            New API key
          </button>
        </div>
      </div>

      {loadError ? <Alert testId="api-keys-error">{loadError}</Alert> : null}

      {rows === null ? (
        <div className="kx-loading">
          <Spinner label="Loading API keys…" />
        </div>
      ) : rows.length === 0 && !loadError ? (
        <div className="empty" data-testid="api-keys-empty">
          <div className="empty-icon">
            <Icon name="keys" size={24} />
          </div>
          <h2>{status === 'all' ? 'No API keys yet' : `No ${status} API keys`}</h2>
          <p>
            API keys let integrations and scripts call Gatehouse with the{' '}
            <span className="mono">X-API-Key</span> header. Each key belongs to one organization, carries
            scopes and an hourly rate limit.
          </p>
          {status === 'all' && orgs.length > 0 ? (
            <button
              type="button"
              className="btn btn-primary btn-sm"
              onClick={() => setModal({ kind: 'create' })}
            >
              <Icon name="plus" />
              New API key
            </button>
          ) : null}
        </div>
      ) : rows.length > 0 ? (
        <div className="kx-table-wrap">
          <table className="kx-table" data-testid="api-keys-table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Prefix</th>
                <th>Scopes</th>
                <th>Status</th>
                <th className="num">Rate limit</th>
                <th className="num">Usage</th>
                <th>Last used</th>
                <th>Expires</th>
                <th aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {rows.map((k) => (
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
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager pagination={pagination} onPage={setPage} noun="api-keys" />

      <CreateApiKeyDialog
        open={modal?.kind === 'create'}
        orgs={orgs}
        defaultOrg={orgFilter || (orgs.length === 1 ? (orgs[0]?.id ?? '') : '')}
        onClose={closeFor('create')}
        onCreated={(key) => {
          setModal({ kind: 'reveal', key, rotated: false });
          reload();
        }}
      />
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
      <Dialog
        open={modal?.kind === 'reveal'}
        title={
          modal?.kind === 'reveal'
            ? modal.rotated
              ? `New key for “${modal.key.name}”`
              : `API key “${modal.key.name}” created`
            : ''
        }
        onClose={closeFor('reveal')}
        testId="api-key-reveal-dialog"
        wide
      >
        {modal?.kind === 'reveal' ? (
          <SecretReveal
            title="API key"
            secret={modal.key.key}
            testIdPrefix="api-key"
            onDone={closeFor('reveal')}
          >
            {modal.rotated ? (
              <p className="small muted">The previous key stopped working the moment this one was issued.</p>
            ) : null}
            <div className="field">
              <span className="label kx-label">Send it as a request header</span>
              <div className="secret">
                <code className="kx-snippet mono" data-testid="api-key-snippet">
                  X-API-Key: {modal.key.key}
                </code>
                <CopyButton
                  onCopy={() => copyText(`X-API-Key: ${modal.key.key}`)}
                  label="Copy header"
                  testId="api-key-snippet-copy"
                />
              </div>
            </div>
          </SecretReveal>
        ) : null}
      </Dialog>
    </div>
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
      <td title={k.lastUsedAt ? formatDate(k.lastUsedAt) : undefined}>
        {k.lastUsedAt ? relativeTo(Date.parse(k.lastUsedAt), now) : <span className="muted">Never</span>}
      </td>
      <td title={k.expiresAt ? formatDate(k.expiresAt) : undefined}>
        {expires === null ? (
          <span className="muted">Never</span>
        ) : (
          <span className={expires < now ? 'tone-warn' : undefined}>{relativeTo(expires, now)}</span>
        )}
      </td>
      <td className="kx-actions">
        {active ? (
          <>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={onEdit}
              title="Edit"
              aria-label={`Edit ${k.name}`}
              data-testid="api-key-edit"
            >
              <Icon name="edit" />
            </button>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={onRotate}
              title="Rotate"
              aria-label={`Rotate ${k.name}`}
              data-testid="api-key-rotate"
            >
              <Icon name="refresh" />
            </button>
            <button
              type="button"
              className="btn btn-ghost btn-sm kx-danger"
              onClick={onRevoke}
              title="Revoke"
              aria-label={`Revoke ${k.name}`}
              data-testid="api-key-revoke"
            >
              <Icon name="trash" />
            </button>
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

function CreateApiKeyDialog({
  open,
  orgs,
  defaultOrg,
  onClose,
  onCreated,
}: {
  open: boolean;
  orgs: Organization[];
  defaultOrg: string;
  onClose: () => void;
  onCreated: (key: ApiKeyCreated) => void;
}) {
  return (
    <Dialog open={open} title="New API key" onClose={onClose} testId="api-key-create-dialog" wide>
      {open ? (
        <CreateApiKeyForm orgs={orgs} defaultOrg={defaultOrg} onCancel={onClose} onCreated={onCreated} />
      ) : null}
    </Dialog>
  );
}

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
      const created = await api<ApiKeyCreated>('/api-keys', {
        method: 'POST',
        body: { orgId, name: name.trim(), scopes, rateLimit: rate, ...(exp ? { expiresAt: exp } : {}) },
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
        <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy} data-testid="api-key-create-submit">
          {busy ? 'Creating…' : 'Create key'}
        </button>
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
      await api<ApiKey>(`/api-keys/${apiKey.id}`, { method: 'PATCH', body: changes });
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
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button
            type="submit"
            className="btn btn-primary"
            disabled={busy || !dirty || !valid}
            data-testid="api-key-edit-submit"
          >
            {busy ? 'Saving…' : 'Save changes'}
          </button>
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
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const rotate = async () => {
    setBusy(true);
    setError(null);
    try {
      const res = await api<ApiKeyCreated>(`/api-keys/${apiKey.id}/rotate`, { method: 'POST', body: {} });
      onRotated(res);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  return (
    <ConfirmDialog
      open
      title={`Rotate “${apiKey.name}”?`}
      confirmLabel="Rotate key"
      busy={busy}
      onConfirm={() => void rotate()}
      onCancel={onClose}
      testId="api-key-rotate-dialog"
    >
      <div className="form">
        <p>
          A new key is issued and the current key (<span className="mono">{apiKey.keyPrefix}…</span>) stops
          working <strong>immediately</strong>. Update every integration that uses it.
        </p>
        <p className="muted small">
          Name, scopes, rate limit and expiry stay the same. Usage count and last-used time start over.
        </p>
        <ActionError error={error} testId="api-key-rotate-error" />
      </div>
    </ConfirmDialog>
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
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const revoke = async () => {
    setBusy(true);
    setError(null);
    try {
      await api(`/api-keys/${apiKey.id}`, { method: 'DELETE' });
      onRevoked();
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  return (
    <ConfirmDialog
      open
      title={`Revoke “${apiKey.name}”?`}
      confirmLabel="Revoke key"
      busy={busy}
      onConfirm={() => void revoke()}
      onCancel={onClose}
      testId="api-key-revoke-dialog"
    >
      <div className="form">
        <p>
          Requests with <span className="mono">{apiKey.keyPrefix}…</span> are refused from now on. Revoking is
          permanent: the key cannot be restored or rotated, only replaced by a new one.
        </p>
        <p className="muted small">The record stays in the list as revoked, for the audit trail.</p>
        <ActionError error={error} testId="api-key-revoke-error" />
      </div>
    </ConfirmDialog>
  );
}
