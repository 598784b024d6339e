import type { FormEvent, ReactNode } from 'react';
import { ActionError } from './ActionError';
import { Dialog } from './Dialog';
import { FormButtons } from './DialogActions';

/**
 * A dialog that is one form: the fields, the action's error under them, and Cancel + submit in the footer (tied
 * to the form by `formId`, so Enter in a field submits too).
 */
export function FormDialog({
  open = true,
  wide,
  title,
  onClose,
  testId,
  formId,
  formClassName = 'form',
  noValidate,
  onSubmit,
  busy,
  error,
  submitLabel,
  busyLabel,
  submitTestId,
  submitDisabled,
  children,
}: {
  open?: boolean;
  wide?: boolean;
  title: string;
  onClose: () => void;
  testId: string;
  formId: string;
  formClassName?: string;
  noValidate?: boolean;
  onSubmit: (e: FormEvent) => void;
  busy: boolean;
  /** Shown under the fields (pass null when the fields show it themselves). */
  error: unknown;
  submitLabel: string;
  busyLabel?: string;
  submitTestId: string;
  submitDisabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Dialog
      open={open}
      wide={wide}
      title={title}
      onClose={onClose}
      testId={testId}
      footer={
        <FormButtons
          onCancel={onClose}
          busy={busy}
          label={submitLabel}
          busyLabel={busyLabel}
          testId={submitTestId}
          form={formId}
          disabled={submitDisabled}
        />
      }
    >
      <form id={formId} className={formClassName} onSubmit={onSubmit} noValidate={noValidate}>
        {children}
        <ActionError error={error} />
      </form>
    </Dialog>
  );
}
