import type { FormEvent, ReactNode } from 'react';
import { ActionError } from './ActionError';
import { Dialog, type DialogFrameProps } from './Dialog';
import { DialogButtons } from './DialogButtons';

/**
 * A dialog that is one form: the fields, the action's error under them, and Cancel + submit in the footer (tied
 * to the form by `formId`, so Enter in a field submits too).
 */
export function FormDialog({
  open = true,
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
  errorTestId,
  children,
  ...frame
}: Omit<DialogFrameProps, 'open' | 'testId'> & {
  open?: boolean;
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
  errorTestId?: string;
  children: ReactNode;
}) {
  return (
    <Dialog
      {...frame}
      open={open}
      footer={
        <DialogButtons
          onCancel={frame.onClose}
          form={formId}
          busy={busy}
          label={submitLabel}
          busyLabel={busyLabel}
          disabled={submitDisabled}
          testId={submitTestId}
        />
      }
    >
      <form id={formId} className={formClassName} onSubmit={onSubmit} noValidate={noValidate}>
        {children}
        <ActionError error={error} testId={errorTestId} />
      </form>
    </Dialog>
  );
}
