import { useState, type FormEvent } from 'react';
import type { EnrollmentKey, EnrollmentKeyCreated, Organization } from '../../../../server/contract';
import { errorMessage } from '../../lib/errors';
import { ActionError } from '../../ui/ActionError';
import { Dialog } from '../../ui/Dialog';
import { ConfirmAction, FormButtons } from '../../ui/DialogActions';
import { Alert, Field } from '../../ui/basics';
import { keysApi } from './api';
import { useSites } from '../../lib/directory';
import { useNow } from '../../lib/hooks';
import { OrgSelect } from './shared';
import { Segmented } from '../../ui';
import { formatCount, formatDateTime, relativeTo } from '../../lib/format';
import { parseWhole } from '../../lib/forms';
import { toLocalInput } from '../../lib/dates';

export const HOUR = 3_600_000;

// The enrollment-key dialogs: create (with the expiry picker), rotate and delete.

export type ExpiryPreset = '1h' | '1d' | '7d' | '30d' | 'custom';

export const PRESET_MS: Record<Exclude<ExpiryPreset, 'custom'>, number> = {
  '1h': HOUR,
  '1d': 24 * HOUR,
  '7d': 7 * 24 * HOUR,
  '30d': 30 * 24 * HOUR,
};

export const PRESETS: Array<{ value: ExpiryPreset; label: string }> = [
  { value: '1h', label: '1 hour' },
  { value: '1d', label: '1 day' },
  { value: '7d', label: '7 days' },
  { value: '30d', label: '30 days' },
  { value: 'custom', label: 'Custom' },
];

/** Expiry picker: presets plus a custom moment. Returns the ISO time or an error message. */
export function useExpiry(initial: ExpiryPreset | 'keep') {
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

export function ExpiryPicker({
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

export function CreateEnrollmentKeyForm({
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

export type MaxMode = 'keep' | 'limit' | 'unlimited';

export function RotateEnrollmentKeyDialog({
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

export function DeleteEnrollmentKeyDialog({
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
