// The one foot of every dialog: Cancel, and the one button that acts (primary, or danger when the action takes
// something away). With `onAction` it is a plain button; without, it submits its form (`form` ties it to a
// <form> rendered elsewhere, e.g. the body of a Dialog whose footer this is).

export function DialogButtons({
  onCancel,
  onAction,
  form,
  busy = false,
  label,
  busyLabel = 'Saving…',
  disabled,
  danger = false,
  testId,
}: {
  onCancel: () => void;
  onAction?: () => void;
  form?: string;
  busy?: boolean;
  label: string;
  busyLabel?: string;
  /** Extra reasons to refuse acting; `busy` always does. */
  disabled?: boolean;
  danger?: boolean;
  testId: string;
}) {
  return (
    <>
      <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
        Cancel
      </button>
      <button
        type={onAction ? 'button' : 'submit'}
        form={form}
        className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`}
        disabled={busy || disabled}
        onClick={onAction}
        data-testid={testId}
      >
        {busy ? busyLabel : label}
      </button>
    </>
  );
}
