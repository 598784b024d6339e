import { useState, type FormEvent } from 'react';
import type { EnrollmentKey, EnrollmentKeyCreated } from '../../../../server/contract';
import { useAsyncAction } from '../../lib/action';
import { useSites } from '../../lib/directory';
import { errorMessage } from '../../lib/errors';
import { formatCount, formatDateTime, relativeTo } from '../../lib/format';
import { parseWhole } from '../../lib/forms';
import { useNow } from '../../lib/hooks';
import { Alert, Dialog, Field, Segmented, SelectField, TextField, TextFilter } from '../../ui';
import { keysApi } from './api';
import { ExpiryPicker, useExpiry } from './expiry';
import {
  CreateKeyForm,
  KeyConfirm,
  KeyFormFoot,
  KeyNameField,
  KeyOrgField,
  useCreateSubmit,
  type CreateKeyProps,
  type OnKey,
} from './shared';

// The enrollment-key dialogs: create, rotate and delete.

export function CreateEnrollmentKeyForm({
  orgs,
  defaultOrg,
  onClose,
  onDone,
}: CreateKeyProps<EnrollmentKeyCreated>) {
  const [orgId, setOrgId] = useState(defaultOrg);
  const [siteId, setSiteId] = useState('');
  const siteQuery = useSites(orgId, orgId !== '');
  const sites = orgId && !siteQuery.isPending ? (siteQuery.data ?? []) : null;
  const sitesError = siteQuery.error ? errorMessage(siteQuery.error) : null;
  const [name, setName] = useState('');
  const [maxUsage, setMaxUsage] = useState('1');
  const expiry = useExpiry('1h');
  const usage = parseWhole(maxUsage, 1, 100_000, 'a maximum');
  const {
    action: create,
    show,
    submit,
  } = useCreateSubmit({
    orgId: orgId ? null : 'Choose the organization agents will join.',
    name: !name.trim() ? 'Enter a name.' : null,
    maxUsage: typeof usage === 'string' ? usage : null,
    expiry: expiry.problem,
  });

  const onSubmit = submit(async () => {
    if (typeof usage !== 'number') return;
    const created = await keysApi.createEnrollmentKey({
      orgId,
      ...(siteId ? { siteId } : {}),
      name: name.trim(),
      maxUsage: usage,
      expiresAt: expiry.resolve() ?? undefined,
    });
    onDone(created);
  });

  return (
    <CreateKeyForm create={create} testId="enrollment-key-create" onSubmit={onSubmit} onCancel={onClose}>
      <div className="form-row">
        <KeyOrgField
          idPrefix="enrollment-key"
          orgs={orgs}
          value={orgId}
          onChange={(id) => {
            setOrgId(id);
            setSiteId('');
          }}
          error={show('orgId')}
        />
        <SelectField
          id="enrollment-key-site"
          label="Site (optional)"
          error={sitesError ?? undefined}
          hint={siteId ? 'Enrolled agents are placed in this site.' : 'Not pinned to a site.'}
          value={siteId}
          onChange={setSiteId}
          disabled={!orgId || sites === null}
        >
          <option value="">{orgId && sites === null ? 'Loading sites…' : 'Any site'}</option>
          {(sites ?? []).map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </SelectField>
      </div>
      <div className="form-row">
        <KeyNameField
          idPrefix="enrollment-key"
          value={name}
          onChange={setName}
          error={show('name')}
          hint="e.g. “Branch office rollout”."
        />
        <TextField
          id="enrollment-key-max-usage"
          label="Maximum enrollments"
          error={show('maxUsage')}
          hint="1 to 100,000. The key stops working when it is used up."
          type="text"
          inputMode="numeric"
          value={maxUsage}
          onChange={setMaxUsage}
        />
      </div>
      <ExpiryPicker expiry={expiry} idPrefix="enrollment-key" error={show('expiry')} />
    </CreateKeyForm>
  );
}

export type MaxMode = 'keep' | 'limit' | 'unlimited';

export function RotateEnrollmentKeyDialog({
  k: enrollmentKey,
  onClose,
  onDone,
}: OnKey<EnrollmentKey, EnrollmentKeyCreated>) {
  const [maxMode, setMaxMode] = useState<MaxMode>('keep');
  const [maxUsage, setMaxUsage] = useState(String(enrollmentKey.maxUsage ?? 1));
  const expiry = useExpiry('keep');
  const rotate = useAsyncAction();
  const now = useNow(60_000);
  const currentExpiry = Date.parse(enrollmentKey.expiresAt);
  const usage = parseWhole(maxUsage, 1, 100_000, 'a maximum');
  const usageProblem = maxMode === 'limit' && typeof usage === 'string' ? usage : null;
  const keepsExpired = expiry.preset === 'keep' && currentExpiry <= now;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (rotate.busy || usageProblem || expiry.problem) return;
    const body: { maxUsage?: number | null; expiresAt?: string } = {};
    if (maxMode === 'unlimited') body.maxUsage = null;
    if (maxMode === 'limit' && typeof usage === 'number') body.maxUsage = usage;
    const exp = expiry.resolve();
    if (exp) body.expiresAt = exp;
    void rotate.run(async () => onDone(await keysApi.rotateEnrollmentKey(enrollmentKey.id, body)));
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
      <form className="form" onSubmit={onSubmit} noValidate>
        <p>
          A new key replaces the current one, which stops working at once. The usage count starts again at 0.
          Agents that already enrolled are not affected.
        </p>
        <Field
          label="Maximum enrollments"
          error={usageProblem}
          hint={maxMode === 'unlimited' ? 'Any number of agents can enroll until the key expires.' : null}
        >
          <div className="kx-expiry ui-compact-fields">
            <Segmented<MaxMode>
              label="Maximum enrollments"
              value={maxMode}
              onChange={setMaxMode}
              testId="enrollment-key-rotate-max"
              options={{ keep: `Keep (${currentMax})`, limit: 'Set a limit', unlimited: 'Unlimited' }}
            />
            {maxMode === 'limit' ? (
              <TextFilter
                size="narrow"
                numeric
                value={maxUsage}
                onChange={setMaxUsage}
                label="Maximum enrollments"
                testId="enrollment-key-rotate-max-usage"
              />
            ) : null}
          </div>
        </Field>
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
        <KeyFormFoot
          action={rotate}
          testId="enrollment-key-rotate"
          onCancel={onClose}
          label="Rotate key"
          busyLabel="Rotating…"
        />
      </form>
    </Dialog>
  );
}

export function DeleteEnrollmentKeyDialog(on: OnKey<EnrollmentKey>) {
  return (
    <KeyConfirm
      on={on}
      title={`Delete “${on.k.name}”?`}
      confirmLabel="Delete permanently"
      testId="enrollment-key-delete"
      write={() => keysApi.deleteEnrollmentKey(on.k.id).then(() => undefined)}
    >
      <p>
        The key is deleted permanently; new enrollments with it are refused. Agents that already enrolled keep
        working.
      </p>
    </KeyConfirm>
  );
}
