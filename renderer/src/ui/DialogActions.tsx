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
