import { useEffect, useRef, type ReactNode } from 'react';
import { DialogButtons } from './DialogButtons';
import { SmallButton } from './SmallButton';

// Modal dialogs on the native <dialog> element: focus trapping, Escape and the backdrop come from the browser.

/** A feature's dialog: it always closes (Cancel, Escape, ×) and may finish with what it made or saved. */
export interface DialogProps<Result = void> {
  onClose: () => void;
  onDone: (result: Result) => void;
}

/** What a dialog built on Dialog (a confirmation, a form) passes through to it untouched. */
export interface DialogFrameProps {
  open: boolean;
  title: string;
  onClose: () => void;
  testId?: string;
  wide?: boolean;
}

export function Dialog({
  open,
  title,
  onClose,
  children,
  footer,
  testId,
  wide,
}: DialogFrameProps & { children: ReactNode; footer?: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={`dialog${wide ? ' dialog-wide' : ''}`}
      data-testid={testId}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      {open ? (
        <>
          <header className="dialog-head">
            <h2>{title}</h2>
            <SmallButton tone="ghost" icon="close" iconSize={16} aria-label="Close" onClick={onClose} />
          </header>
          <div className="dialog-body">{children}</div>
          {footer ? <footer className="dialog-foot">{footer}</footer> : null}
        </>
      ) : null}
    </dialog>
  );
}

/** Every destructive action asks first, says what will happen, and names the thing it acts on. */
export function ConfirmDialog({
  onCancel,
  confirmLabel,
  busy,
  onConfirm,
  testId = 'confirm-dialog',
  children,
  ...frame
}: Omit<DialogFrameProps, 'onClose' | 'testId'> & {
  onCancel: () => void;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Dialog
      {...frame}
      onClose={onCancel}
      testId={testId}
      footer={
        <DialogButtons
          onCancel={onCancel}
          onAction={onConfirm}
          busy={busy}
          label={confirmLabel}
          busyLabel="Working…"
          danger
          testId="confirm-action"
        />
      }
    >
      {children}
    </Dialog>
  );
}
