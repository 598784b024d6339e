import { useState, type FormEvent, type ReactNode } from 'react';
import type { Organization } from '../../../../server/contract';
import { useAsyncAction, type AsyncAction } from '../../lib/action';
import { useModal } from '../../lib/hooks';
import { ActionError, ConfirmAction, DialogButtons, Field, TextField, type DialogProps } from '../../ui';

// Pieces the key dialogs share: the organization picker, the form's foot, and which dialog a tab shows.

export function OrgSelect({
  id,
  orgs,
  value,
  onChange,
  testId,
  disabled,
}: {
  id: string;
  orgs: Organization[];
  value: string;
  onChange: (id: string) => void;
  testId: string;
  disabled?: boolean;
}) {
  return (
    <select
      id={id}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      data-testid={testId}
      disabled={disabled}
    >
      {value === '' ? <option value="">Choose an organization…</option> : null}
      {orgs.map((o) => (
        <option key={o.id} value={o.id}>
          {o.name}
        </option>
      ))}
    </select>
  );
}

/** The organization a new key belongs to (`<idPrefix>-org`, its select's test id the same). */
export function KeyOrgField({
  idPrefix,
  orgs,
  value,
  onChange,
  error,
}: {
  idPrefix: string;
  orgs: Organization[];
  value: string;
  onChange: (id: string) => void;
  error: string | null;
}) {
  return (
    <Field label="Organization" htmlFor={`${idPrefix}-org`} error={error}>
      <OrgSelect
        id={`${idPrefix}-org`}
        orgs={orgs}
        value={value}
        onChange={onChange}
        testId={`${idPrefix}-org`}
      />
    </Field>
  );
}

/** The org a new key defaults to: the filtered one, or the only one there is. */
export function defaultOrgOf(orgs: Organization[], orgFilter: string): string {
  return orgFilter || (orgs.length === 1 ? (orgs[0]?.id ?? '') : '');
}

/** The props of a form that creates a key (the body of the create dialog): done with the key created. */
export interface CreateKeyProps<C> extends DialogProps<C> {
  orgs: Organization[];
  defaultOrg: string;
}

/**
 * A create form's submit: each problem shows once a submit was tried (`show`), and `submit(write)` runs the write
 * only while there are none.
 */
export function useCreateSubmit<P extends Record<string, string | null>>(problems: P) {
  const [touched, setTouched] = useState(false);
  const action = useAsyncAction();
  const show = (k: keyof P) => (touched ? problems[k] : null);
  const submit = (write: () => Promise<void>) => (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (action.busy || Object.values(problems).some(Boolean)) return;
    void action.run(write);
  };
  return { action, show, submit };
}

/** The name of a new key (`<idPrefix>-name`), focused when the form opens. */
export function KeyNameField({
  idPrefix,
  value,
  onChange,
  error,
  hint,
}: {
  idPrefix: string;
  value: string;
  onChange: (name: string) => void;
  error: string | null;
  hint: string;
}) {
  return (
    <TextField
      id={`${idPrefix}-name`}
      label="Name"
      error={error}
      hint={hint}
      type="text"
      autoFocus
      maxLength={255}
      value={value}
      onChange={onChange}
    />
  );
}

/** The foot of a key form: the write's error (`<testId>-error`), then Cancel and the submit (`<testId>-submit`). */
export function KeyFormFoot({
  action,
  testId,
  onCancel,
  label,
  busyLabel,
  disabled,
}: {
  action: AsyncAction;
  testId: string;
  onCancel: () => void;
  label: string;
  busyLabel?: string;
  disabled?: boolean;
}) {
  return (
    <>
      <ActionError error={action.error} testId={`${testId}-error`} />
      <div className="kx-form-foot">
        <DialogButtons
          onCancel={onCancel}
          busy={action.busy}
          label={label}
          busyLabel={busyLabel}
          disabled={disabled}
          testId={`${testId}-submit`}
        />
      </div>
    </>
  );
}

/** A form that creates a key: its fields, then the foot with "Create key" (`<testId>-submit`, `<testId>-error`). */
export function CreateKeyForm({
  create,
  testId,
  onSubmit,
  onCancel,
  children,
}: {
  create: AsyncAction;
  testId: string;
  onSubmit: (event: FormEvent) => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      {children}
      <KeyFormFoot
        action={create}
        testId={testId}
        onCancel={onCancel}
        label="Create key"
        busyLabel="Creating…"
      />
    </form>
  );
}

/** The props of a dialog on one key row: the key, and done with what the write returned. */
export interface OnKey<K, R = void> extends DialogProps<R> {
  k: K;
}

/** A confirmation on one key (`<testId>-dialog`, its error `<testId>-error`): `write` runs on confirm. */
export function KeyConfirm<K, R>({
  on,
  title,
  confirmLabel,
  testId,
  write,
  children,
}: {
  on: OnKey<K, R>;
  title: string;
  confirmLabel: string;
  testId: string;
  write: () => Promise<R>;
  children: ReactNode;
}) {
  return (
    <ConfirmAction
      title={title}
      confirmLabel={confirmLabel}
      onConfirm={async () => on.onDone(await write())}
      onCancel={on.onClose}
      testId={`${testId}-dialog`}
      errorTestId={`${testId}-error`}
    >
      {children}
    </ConfirmAction>
  );
}

/** An issued key (API key, partner key) as its rotate and revoke confirmations name it. */
interface IssuedKey {
  id: string;
  name: string;
  keyPrefix: string;
}

/**
 * Rotating an issued key: "Rotate “name”?", test ids `<testIdPrefix>-rotate-dialog|error`. `usedBy` is what must be
 * given the new key, `keeps` what the new key carries over.
 */
export function RotateKeyConfirm<K extends IssuedKey, R>({
  on,
  testIdPrefix,
  write,
  usedBy,
  keeps,
}: {
  on: OnKey<K, R>;
  testIdPrefix: string;
  write: (id: string) => Promise<R>;
  usedBy: string;
  keeps: string;
}) {
  return (
    <KeyConfirm
      on={on}
      title={`Rotate “${on.k.name}”?`}
      confirmLabel="Rotate key"
      testId={`${testIdPrefix}-rotate`}
      write={() => write(on.k.id)}
    >
      <p>
        A new key is issued and the current key (<span className="mono">{on.k.keyPrefix}…</span>) stops
        working <strong>immediately</strong>. Update {usedBy} that uses it.
      </p>
      <p className="muted small">{keeps}</p>
    </KeyConfirm>
  );
}

/**
 * Revoking an issued key for good: "Revoke “name”?", test ids `<testIdPrefix>-revoke-dialog|error`. `refused` names
 * the calls the key no longer opens.
 */
export function RevokeKeyConfirm<K extends IssuedKey>({
  on,
  testIdPrefix,
  write,
  refused,
}: {
  on: OnKey<K>;
  testIdPrefix: string;
  write: (id: string) => Promise<unknown>;
  refused: ReactNode;
}) {
  return (
    <KeyConfirm
      on={on}
      title={`Revoke “${on.k.name}”?`}
      confirmLabel="Revoke key"
      testId={`${testIdPrefix}-revoke`}
      write={() => write(on.k.id).then(() => undefined)}
    >
      <p>
        {refused} with <span className="mono">{on.k.keyPrefix}…</span> are refused from now on. Revoking is
        permanent: the key cannot be restored or rotated, only replaced by a new one.
      </p>
      <p className="muted small">The record stays in the list as revoked, for the audit trail.</p>
    </KeyConfirm>
  );
}

/** The dialog a key tab shows: create, one on a row (`Kind`), or the secret of a key just created or rotated. */
export type KeyModal<Row, Created, Kind extends string> =
  { kind: 'create' } | { kind: Kind; key: Row } | { kind: 'reveal'; key: Created; rotated: boolean };

/**
 * Which dialog a key tab shows, and the two ways a write ends: a new secret to show once (`reveal`), or done
 * (`done`). Both read the list again.
 */
export function useKeyModals<Row, Created, Kind extends string>(reload: () => void) {
  const modals = useModal<KeyModal<Row, Created, Kind>>();
  const { setModal, close } = modals;
  return {
    ...modals,
    reveal: (key: Created, rotated: boolean) => {
      setModal({ kind: 'reveal', key, rotated });
      reload();
    },
    done: () => {
      close();
      reload();
    },
  };
}
