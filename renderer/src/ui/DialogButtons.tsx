// The foot of a dialog that is not a form: Cancel, and the one button that acts (primary, or danger when the
// action takes something away). FormButtons is the same pair for a <form>.

export function DialogButtons({
  onCancel,
  onAction,
  busy,
  label,
  busyLabel = 'Saving…',
  disabled,
  danger = false,
  testId,
}: {
  onCancel: () => void;
  onAction: () => void;
  busy: boolean;
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
        type="button"
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
