import { useId, type FormEvent, type ReactNode } from 'react';
import { ActionError } from './ActionError';
import { Dialog, type DialogFrameProps } from './Dialog';
import { DialogButtons } from './DialogButtons';

/** The submit button of a form dialog, described once: what it says, what it says while busy, its test id. */
export interface FormSubmit {
  label: string;
  busyLabel?: string;
  testId: string;
  /** Extra reasons to refuse submitting; `busy` always does. */
  disabled?: boolean;
}

/** The action a form dialog submits to, as `useAsyncAction` gives it (or its busy flag with the form's own error). */
export interface FormAction {
  busy: boolean;
  /** Shown under the fields (null when the fields show it themselves). */
  error: unknown;
}

/**
 * A dialog that is one form: the fields, the action's error under them, and Cancel + submit in the footer (tied
 * to the form by an id of its own, so Enter in a field submits too). The fields are checked in code and their
 * errors shown inline, so the browser's own validation bubbles stay off.
 */
export function FormDialog({
  open = true,
  formClassName = 'form',
  onSubmit,
  action,
  submit,
  errorTestId,
  children,
  ...frame
}: Omit<DialogFrameProps, 'open' | 'testId'> & {
  open?: boolean;
  testId: string;
  formClassName?: string;
  onSubmit: (e: FormEvent) => void;
  action: FormAction;
  submit: FormSubmit;
  errorTestId?: string;
  children: ReactNode;
}) {
  const formId = `${useId()}-form`;
  return (
    <Dialog
      {...frame}
      open={open}
      footer={<DialogButtons {...submit} onCancel={frame.onClose} form={formId} busy={action.busy} />}
    >
      <form id={formId} className={formClassName} onSubmit={onSubmit} noValidate>
        {children}
        <ActionError error={action.error} testId={errorTestId} />
      </form>
    </Dialog>
  );
}
