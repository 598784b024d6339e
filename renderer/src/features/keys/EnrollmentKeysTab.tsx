import { useMemo, useState, type FormEvent } from 'react';
import type { EnrollmentKey, EnrollmentKeyCreated, Organization, Site } from '../../../../server/contract';
import { errorMessage } from '../../lib/errors';
import { ActionError } from '../../ui/ActionError';
import { Dialog } from '../../ui/Dialog';
import { ConfirmAction, FormButtons } from '../../ui/DialogActions';
import { Alert, Field, StatusPill } from '../../ui/basics';
import { keysApi, useEnrollmentKeys } from './api';
import { useSites } from '../../lib/directory';
import { useNow } from '../../lib/hooks';
import { CopySnippet, KeyListFrame, OrgSelect, RevealDialog, RowAction, defaultOrgOf } from './shared';
import { orgName } from '../../lib/directory';
import { Segmented } from '../../ui';
import { formatCount, formatDateTime, relativeTo } from '../../lib/format';
import { parseWhole } from '../../lib/forms';
import { toLocalInput } from '../../lib/dates';
import { useModal } from '../../lib/hooks';

type ExpiredFilter = 'all' | 'usable' | 'expired';
const PAGE_SIZE = 50;
const HOUR = 3_600_000;

type Modal =
  | { kind: 'create' }
  | { kind: 'rotate'; key: EnrollmentKey }
  | { kind: 'delete'; key: EnrollmentKey }
  | { kind: 'reveal'; key: EnrollmentKeyCreated; rotated: boolean };

/** Sites of the organizations in view, for names in the table and the site picker. */
function useSiteNames(orgId: string): Map<string, Site> {
  const sites = useSites(orgId || null);
  return useMemo(() => new Map((sites.data ?? []).map((s) => [s.id, s])), [sites.data]);
}

export function simulatorCommand(key: string): string {
  return `npm run agent-sim -- --server ${window.location.origin} --enrollment-key ${key}`;
}

export function EnrollmentKeysTab({ orgs, orgFilter }: { orgs: Organization[]; orgFilter: string }) {
  const [filter, setFilter] = useState<ExpiredFilter>('all');
  const [page, setPage] = useState(1);
  const { modal, setModal, close, closeFor } = useModal<Modal>();
  const now = useNow(30_000);

  const {
    rows,
    pagination,
    error: loadError,
    reload,
  } = useEnrollmentKeys({
    page,
    limit: PAGE_SIZE,
    orgId: orgFilter || undefined,
    expired: filter === 'all' ? undefined : filter === 'expired' ? 'true' : 'false',
  });
  const sites = useSiteNames(orgFilter);

  const showOrg = !orgFilter && orgs.length > 1;

  return (
    <KeyListFrame
      noun="enrollment-keys"
      filter={
        <Segmented<ExpiredFilter>
          label="Expiry"
          value={filter}
          onChange={(v) => {
            setFilter(v);
            setPage(1);
          }}
          testId="enrollment-key-filter"
          options={[
            { value: 'all', label: 'All' },
            { value: 'usable', label: 'Not expired' },
            { value: 'expired', label: 'Expired' },
          ]}
        />
      }
      createLabel="New enrollment key"
      createTestId="create-enrollment-key"
      canCreate={orgs.length > 0}
      onCreate={() => setModal({ kind: 'create' })}
      onReload={reload}
      loading={rows === null}
      loadingLabel="Loading enrollment keys…"
      loadError={loadError}
      count={rows?.length ?? 0}
      empty={{
        icon: 'devices',
        title: filter === 'all' ? 'No enrollment keys' : 'Nothing matches this filter',
        text: (
          <>
            Agents enroll with a short-lived enrollment key. Create one for an organization (optionally pinned
            to a site), hand it to the installer, and let it expire.
          </>
        ),
        offerCreate: filter === 'all' && orgs.length > 0,
      }}
      head={
        <>
          <th>Name</th>
          <th>Site</th>
          <th>Usage</th>
          <th>Expires</th>
          <th>Status</th>
          <th>Created</th>
        </>
      }
      pagination={pagination}
      onPage={setPage}
      dialogs={
        <>
          <Dialog
            open={modal?.kind === 'create'}
            title="New enrollment key"
            onClose={closeFor('create')}
            testId="enrollment-key-create-dialog"
            wide
          >
            {modal?.kind === 'create' ? (
              <CreateEnrollmentKeyForm
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
          {modal?.kind === 'rotate' ? (
            <RotateEnrollmentKeyDialog
              enrollmentKey={modal.key}
              onClose={closeFor('rotate')}
              onRotated={(key) => {
                setModal({ kind: 'reveal', key, rotated: true });
                reload();
              }}
            />
          ) : null}
          {modal?.kind === 'delete' ? (
            <DeleteEnrollmentKeyDialog
              enrollmentKey={modal.key}
              onClose={closeFor('delete')}
              onDeleted={() => {
                close();
                reload();
              }}
            />
          ) : null}
          <RevealDialog
            reveal={modal?.kind === 'reveal' ? modal : null}
            noun="Enrollment key"
            testIdPrefix="enrollment-key"
            onClose={closeFor('reveal')}
          >
            {(key, rotated) => (
              <>
                <p className="small muted">
                  Works {key.maxUsage === null ? 'for any number of' : `for ${formatCount(key.maxUsage)}`}{' '}
                  enrollment{key.maxUsage === 1 ? '' : 's'} until{' '}
                  {formatDateTime(key.expiresAt, { seconds: false })}.
                  {rotated ? ' The previous key stopped working when this one was issued.' : ''}
                </p>
                <CopySnippet
                  label="Try it with the agent simulator"
                  text={simulatorCommand(key.key)}
                  copyLabel="Copy command"
                  testId="enrollment-key-command"
                />
              </>
            )}
          </RevealDialog>
        </>
      }
    >
      {(rows ?? []).map((k) => (
        <EnrollmentKeyRow
          key={k.id}
          k={k}
          now={now}
          org={showOrg ? orgName(orgs, k.orgId) : null}
          site={k.siteId ? (sites.get(k.siteId)?.name ?? `Site ${k.siteId.slice(0, 8)}`) : null}
          onRotate={() => setModal({ kind: 'rotate', key: k })}
          onDelete={() => setModal({ kind: 'delete', key: k })}
        />
      ))}
    </KeyListFrame>
  );
}

function EnrollmentKeyRow({
  k,
  now,
  org,
  site,
  onRotate,
  onDelete,
}: {
  k: EnrollmentKey;
  now: number;
  org: string | null;
  site: string | null;
  onRotate: () => void;
  onDelete: () => void;
}) {
  const expires = Date.parse(k.expiresAt);
  const expired = k.expired || expires <= now;
  const ratio = k.maxUsage ? Math.min(1, k.usageCount / k.maxUsage) : 0;
  return (
    <tr
      className={expired || k.exhausted ? 'kx-dim' : undefined}
      data-testid="enrollment-key-row"
      data-key-id={k.id}
      data-name={k.name}
    >
      <td>
        <div className="kx-name">{k.name}</div>
        {org ? <div className="kx-sub">{org}</div> : null}
      </td>
      <td>{site ?? <span className="muted">Any site</span>}</td>
      <td data-testid="enrollment-key-usage">
        <div className="kx-usage">
          <span>
            {formatCount(k.usageCount)} / {k.maxUsage === null ? 'unlimited' : formatCount(k.maxUsage)}
          </span>
          {k.maxUsage !== null ? (
            <span className="kx-bar" aria-hidden="true">
              <span style={{ width: `${Math.round(ratio * 100)}%` }} />
            </span>
          ) : null}
        </div>
      </td>
      <td title={formatDateTime(k.expiresAt, { seconds: false })}>
        <div>{relativeTo(expires, now)}</div>
        <div className="kx-sub">{formatDateTime(k.expiresAt, { seconds: false })}</div>
      </td>
      <td>
        <div className="kx-chips">
          {expired ? (
            <StatusPill tone="warn" testId="enrollment-key-status">
              Expired
            </StatusPill>
          ) : null}
          {k.exhausted ? (
            <StatusPill tone="bad" testId="enrollment-key-status">
              Exhausted
            </StatusPill>
          ) : null}
          {!expired && !k.exhausted ? (
            <StatusPill tone="ok" testId="enrollment-key-status">
              Usable
            </StatusPill>
          ) : null}
        </div>
      </td>
      <td title={formatDateTime(k.createdAt, { seconds: false })}>
        {relativeTo(Date.parse(k.createdAt), now)}
      </td>
      <td className="kx-actions">
        <RowAction
          icon="refresh"
          label="Rotate"
          name={k.name}
          onClick={onRotate}
          testId="enrollment-key-rotate"
        />
        <RowAction
          icon="trash"
          label="Delete"
          name={k.name}
          onClick={onDelete}
          testId="enrollment-key-delete"
          danger
        />
      </td>
    </tr>
  );
}

type ExpiryPreset = '1h' | '1d' | '7d' | '30d' | 'custom';
const PRESET_MS: Record<Exclude<ExpiryPreset, 'custom'>, number> = {
  '1h': HOUR,
  '1d': 24 * HOUR,
  '7d': 7 * 24 * HOUR,
  '30d': 30 * 24 * HOUR,
};
const PRESETS: Array<{ value: ExpiryPreset; label: string }> = [
  { value: '1h', label: '1 hour' },
  { value: '1d', label: '1 day' },
  { value: '7d', label: '7 days' },
  { value: '30d', label: '30 days' },
  { value: 'custom', label: 'Custom' },
];

/** Expiry picker: presets plus a custom moment. Returns the ISO time or an error message. */
function useExpiry(initial: ExpiryPreset | 'keep') {
  const [preset, setPreset] = useState<ExpiryPreset | 'keep'>(initial);
  const [custom, setCustom] = useState('');
  const now = useNow(60_000);
  const customMs = custom ? new Date(custom).getTime() : NaN;
  const problem =
    preset !== 'custom'
      ? null
      : Number.isNaN(customMs)
        ? 'Pick a date and time.'
        : customMs <= now
          ? 'The expiry must be in the future.'
          : null;
  const resolve = (): string | null => {
    if (preset === 'keep') return null;
    if (preset === 'custom') return new Date(customMs).toISOString();
    return new Date(Date.now() + PRESET_MS[preset]).toISOString();
  };
  const choose = (v: ExpiryPreset | 'keep') => {
    setPreset(v);
    if (v === 'custom' && !custom) setCustom(toLocalInput(Date.now() + 3 * 24 * HOUR));
  };
  return { preset, choose, custom, setCustom, problem, resolve };
}

function ExpiryPicker({
  expiry,
  idPrefix,
  withKeep,
  error,
}: {
  expiry: ReturnType<typeof useExpiry>;
  idPrefix: string;
  withKeep?: string;
  error: string | null;
}) {
  const options: Array<{ value: ExpiryPreset | 'keep'; label: string }> = withKeep
    ? [{ value: 'keep', label: 'Keep' }, ...PRESETS]
    : PRESETS;
  return (
    <div className="field">
      <div className="field-head">
        <span className="label">Expires</span>
      </div>
      <div className="kx-expiry">
        <Segmented<ExpiryPreset | 'keep'>
          label="Expiry"
          value={expiry.preset}
          onChange={expiry.choose}
          options={options}
          testId={`${idPrefix}-expiry`}
        />
        {expiry.preset === 'custom' ? (
          <input
            type="datetime-local"
            className="kx-input"
            value={expiry.custom}
            onChange={(e) => expiry.setCustom(e.target.value)}
            aria-label="Expiry date and time"
            data-testid={`${idPrefix}-expiry-input`}
          />
        ) : null}
      </div>
      {error ? (
        <div className="field-error">{error}</div>
      ) : (
        <div className="field-hint">
          {expiry.preset === 'keep' && withKeep
            ? `Currently ${withKeep}.`
            : 'Short lifetimes are safer: a leaked key is useless once it expires.'}
        </div>
      )}
    </div>
  );
}

function CreateEnrollmentKeyForm({
  orgs,
  defaultOrg,
  onCancel,
  onCreated,
}: {
  orgs: Organization[];
  defaultOrg: string;
  onCancel: () => void;
  onCreated: (key: EnrollmentKeyCreated) => void;
}) {
  const [orgId, setOrgId] = useState(defaultOrg);
  const [siteId, setSiteId] = useState('');
  const siteQuery = useSites(orgId, orgId !== '');
  const sites = orgId && !siteQuery.isPending ? (siteQuery.data ?? []) : null;
  const sitesError = siteQuery.error ? errorMessage(siteQuery.error) : null;
  const [name, setName] = useState('');
  const [maxUsage, setMaxUsage] = useState('1');
  const expiry = useExpiry('1h');
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const usage = parseWhole(maxUsage, 1, 100_000, 'a maximum');
  const problems = {
    orgId: orgId ? null : 'Choose the organization agents will join.',
    name: !name.trim() ? 'Enter a name.' : null,
    maxUsage: typeof usage === 'string' ? usage : null,
    expiry: expiry.problem,
  };
  const show = (k: keyof typeof problems) => (touched ? problems[k] : null);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (busy || Object.values(problems).some(Boolean) || typeof usage !== 'number') return;
    setBusy(true);
    setError(null);
    try {
      const created = await keysApi.createEnrollmentKey({
        orgId,
        ...(siteId ? { siteId } : {}),
        name: name.trim(),
        maxUsage: usage,
        expiresAt: expiry.resolve(),
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
        <Field label="Organization" htmlFor="enrollment-key-org" error={show('orgId')}>
          <OrgSelect
            id="enrollment-key-org"
            orgs={orgs}
            value={orgId}
            onChange={(id) => {
              setOrgId(id);
              setSiteId('');
            }}
            testId="enrollment-key-org"
          />
        </Field>
        <Field
          label="Site (optional)"
          htmlFor="enrollment-key-site"
          error={sitesError}
          hint={siteId ? 'Enrolled agents are placed in this site.' : 'Not pinned to a site.'}
        >
          <select
            id="enrollment-key-site"
            className="kx-select"
            value={siteId}
            onChange={(e) => setSiteId(e.target.value)}
            disabled={!orgId || sites === null}
            data-testid="enrollment-key-site"
          >
            <option value="">{orgId && sites === null ? 'Loading sites…' : 'Any site'}</option>
            {(sites ?? []).map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div className="form-row">
        <Field
          label="Name"
          htmlFor="enrollment-key-name"
          error={show('name')}
          hint="e.g. “Branch office rollout”."
        >
          <input
            id="enrollment-key-name"
            type="text"
            autoFocus
            maxLength={255}
            value={name}
            onChange={(e) => setName(e.target.value)}
            data-testid="enrollment-key-name"
          />
        </Field>
        <Field
          label="Maximum enrollments"
          htmlFor="enrollment-key-max-usage"
          error={show('maxUsage')}
          hint="1 to 100,000. The key stops working when it is used up."
        >
          <input
            id="enrollment-key-max-usage"
            type="text"
            inputMode="numeric"
            value={maxUsage}
            onChange={(e) => setMaxUsage(e.target.value)}
            data-testid="enrollment-key-max-usage"
          />
        </Field>
      </div>
      <ExpiryPicker expiry={expiry} idPrefix="enrollment-key" error={show('expiry')} />
      <ActionError error={error} testId="enrollment-key-create-error" />
      <div className="kx-form-foot">
        <FormButtons
          onCancel={onCancel}
          busy={busy}
          label="Create key"
          busyLabel="Creating…"
          testId="enrollment-key-create-submit"
        />
      </div>
    </form>
  );
}

type MaxMode = 'keep' | 'limit' | 'unlimited';

function RotateEnrollmentKeyDialog({
  enrollmentKey,
  onClose,
  onRotated,
}: {
  enrollmentKey: EnrollmentKey;
  onClose: () => void;
  onRotated: (key: EnrollmentKeyCreated) => void;
}) {
  const [maxMode, setMaxMode] = useState<MaxMode>('keep');
  const [maxUsage, setMaxUsage] = useState(String(enrollmentKey.maxUsage ?? 1));
  const expiry = useExpiry('keep');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const now = useNow(60_000);
  const currentExpiry = Date.parse(enrollmentKey.expiresAt);
  const usage = parseWhole(maxUsage, 1, 100_000, 'a maximum');
  const usageProblem = maxMode === 'limit' && typeof usage === 'string' ? usage : null;
  const keepsExpired = expiry.preset === 'keep' && currentExpiry <= now;

  const rotate = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || usageProblem || expiry.problem) return;
    setBusy(true);
    setError(null);
    const body: { maxUsage?: number | null; expiresAt?: string } = {};
    if (maxMode === 'unlimited') body.maxUsage = null;
    if (maxMode === 'limit' && typeof usage === 'number') body.maxUsage = usage;
    const exp = expiry.resolve();
    if (exp) body.expiresAt = exp;
    try {
      const res = await keysApi.rotateEnrollmentKey(enrollmentKey.id, body);
      onRotated(res);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  const currentMax = enrollmentKey.maxUsage === null ? 'unlimited' : formatCount(enrollmentKey.maxUsage);
  return (
    <Dialog
      open
      title={`Rotate “${enrollmentKey.name}”`}
      onClose={onClose}
      testId="enrollment-key-rotate-dialog"
      wide
    >
      <form className="form" onSubmit={(e) => void rotate(e)} noValidate>
        <p>
          A new key replaces the current one, which stops working at once. The usage count starts again at 0.
          Agents that already enrolled are not affected.
        </p>
        <div className="field">
          <div className="field-head">
            <span className="label">Maximum enrollments</span>
          </div>
          <div className="kx-expiry">
            <Segmented<MaxMode>
              label="Maximum enrollments"
              value={maxMode}
              onChange={setMaxMode}
              testId="enrollment-key-rotate-max"
              options={[
                { value: 'keep', label: `Keep (${currentMax})` },
                { value: 'limit', label: 'Set a limit' },
                { value: 'unlimited', label: 'Unlimited' },
              ]}
            />
            {maxMode === 'limit' ? (
              <input
                type="text"
                inputMode="numeric"
                className="kx-input kx-input-narrow"
                value={maxUsage}
                onChange={(e) => setMaxUsage(e.target.value)}
                aria-label="Maximum enrollments"
                data-testid="enrollment-key-rotate-max-usage"
              />
            ) : null}
          </div>
          {usageProblem ? <div className="field-error">{usageProblem}</div> : null}
          {maxMode === 'unlimited' ? (
            <div className="field-hint">Any number of agents can enroll until the key expires.</div>
          ) : null}
        </div>
        <ExpiryPicker
          expiry={expiry}
          idPrefix="enrollment-key-rotate"
          withKeep={`${formatDateTime(enrollmentKey.expiresAt, { seconds: false })} (${relativeTo(currentExpiry, now)})`}
          error={expiry.problem}
        />
        {keepsExpired ? (
          <Alert tone="warning">
            This key has already expired. Keeping the expiry issues a key that does not work; pick a new
            expiry.
          </Alert>
        ) : null}
        <ActionError error={error} testId="enrollment-key-rotate-error" />
        <div className="kx-form-foot">
          <FormButtons
            onCancel={onClose}
            busy={busy}
            label="Rotate key"
            busyLabel="Rotating…"
            testId="enrollment-key-rotate-submit"
          />
        </div>
      </form>
    </Dialog>
  );
}

function DeleteEnrollmentKeyDialog({
  enrollmentKey,
  onClose,
  onDeleted,
}: {
  enrollmentKey: EnrollmentKey;
  onClose: () => void;
  onDeleted: () => void;
}) {
  return (
    <ConfirmAction
      title={`Delete “${enrollmentKey.name}”?`}
      confirmLabel="Delete permanently"
      onConfirm={async () => {
        await keysApi.deleteEnrollmentKey(enrollmentKey.id);
        onDeleted();
      }}
      onCancel={onClose}
      testId="enrollment-key-delete-dialog"
      errorTestId="enrollment-key-delete-error"
    >
      <p>
        The key is deleted permanently; new enrollments with it are refused. Agents that already enrolled keep
        working.
      </p>
    </ConfirmAction>
  );
}
