import type { ComponentProps, ReactNode } from 'react';
import { useAsyncAction, type AsyncAction } from '../lib/action';
import { ActionError } from './ActionError';
import { ConfirmDialog } from './Dialog';

// The two endings a form dialog has in the administration screens: Cancel next to a submit button, and a
// destructive confirmation that shows its own failure. Class names and test ids are the callers'.

/** Cancel + submit. `form` ties the submit button to a <form> rendered elsewhere (e.g. a Dialog footer). */
export function FormButtons({
  onCancel,
  busy,
  label,
  busyLabel = 'Saving…',
  testId,
  form,
  disabled,
}: {
  onCancel: () => void;
  busy: boolean;
  label: string;
  busyLabel?: string;
  testId: string;
  form?: string;
  /** Extra reasons to refuse submitting; `busy` always does. */
  disabled?: boolean;
}) {
  return (
    <>
      <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
        Cancel
      </button>
      <button
        type="submit"
        form={form}
        className="btn btn-primary"
        disabled={busy || disabled}
        data-testid={testId}
      >
        {busy ? busyLabel : label}
      </button>
    </>
  );
}

/**
 * A ConfirmDialog whose confirm runs `onConfirm` through an AsyncAction and shows its error under the text.
 * Pass `action` when the caller must reset the error itself (a dialog kept mounted for several rows).
 */
export function ConfirmAction({
  open = true,
  title,
  confirmLabel,
  testId,
  onCancel,
  onConfirm,
  action,
  className = 'form',
  errorTestId,
  children,
}: {
  open?: boolean;
  title: string;
  confirmLabel: string;
  testId: string;
  onCancel: () => void;
  onConfirm: () => Promise<void>;
  action?: AsyncAction;
  className?: string;
  errorTestId?: string;
  children: ReactNode;
}) {
  const own = useAsyncAction();
  const { busy, error, run } = action ?? own;
  return (
    <ConfirmDialog
      open={open}
      title={title}
      confirmLabel={confirmLabel}
      busy={busy}
      onConfirm={() => void run(onConfirm)}
      onCancel={onCancel}
      testId={testId}
    >
      <div className={className}>
        {children}
        <ActionError error={error} testId={errorTestId} />
      </div>
    </ConfirmDialog>
  );
}

/** The row a confirmation acts on (what `useTarget` holds): the dialog is open while there is one. */
export interface ConfirmTargetOf {
  target: unknown;
  action: AsyncAction;
  close: () => void;
}

/** A ConfirmAction for the row `of` holds: open while it holds one; Cancel lets go of it; errors are its action's. */
export function ConfirmTarget({
  of,
  ...confirm
}: Omit<ComponentProps<typeof ConfirmAction>, 'open' | 'action' | 'onCancel'> & { of: ConfirmTargetOf }) {
  return <ConfirmAction {...confirm} open={of.target !== null} action={of.action} onCancel={of.close} />;
}
