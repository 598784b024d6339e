import type { ComponentProps, ReactNode } from 'react';
import { useAsyncAction, type AsyncAction } from '../lib/action';
import { ActionError } from './ActionError';
import { ConfirmDialog } from './Dialog';

/**
 * A ConfirmDialog whose confirm runs `onConfirm` through an AsyncAction and shows its error under the text.
 * Pass `action` when the caller must reset the error itself (a dialog kept mounted for several rows).
 */
export function ConfirmAction({
  open = true,
  onConfirm,
  action,
  className = 'form',
  errorTestId,
  children,
  ...confirm
}: Omit<ComponentProps<typeof ConfirmDialog>, 'open' | 'busy' | 'onConfirm' | 'testId'> & {
  open?: boolean;
  testId: string;
  onConfirm: () => Promise<void>;
  action?: AsyncAction;
  className?: string;
  errorTestId?: string;
  children: ReactNode;
}) {
  const own = useAsyncAction();
  const { busy, error, run } = action ?? own;
  return (
    <ConfirmDialog {...confirm} open={open} busy={busy} onConfirm={() => void run(onConfirm)}>
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

/** The question before the row `of` holds is deleted: "Delete <what>" is its title and its button. */
export function DeleteTarget({
  what,
  ...confirm
}: Omit<ComponentProps<typeof ConfirmTarget>, 'title' | 'confirmLabel'> & { what: string }) {
  return <ConfirmTarget {...confirm} title={`Delete ${what}`} confirmLabel={`Delete ${what}`} />;
}
