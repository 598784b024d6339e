import type { ComponentProps, ReactNode } from 'react';
import { Button, type ButtonTone } from './Button';

export type { ButtonTone };

/**
 * The small action button of toolbars, card feet and list rows (`btn btn-<tone> btn-sm`), with its leading icon
 * (14px unless told). Without children it is icon-only and then needs an aria-label.
 */
export function SmallButton({
  tone,
  iconSize = 14,
  className,
  ...button
}: Omit<ComponentProps<typeof Button>, 'tone' | 'block' | 'busy' | 'busyLabel'> & { tone: ButtonTone }) {
  return (
    <Button
      tone={tone}
      iconSize={iconSize}
      className={className ? `btn-sm ${className}` : 'btn-sm'}
      {...button}
    />
  );
}

/**
 * A page's "New …" or "Add …" action: small, primary, with the plus. Nothing for a caller who may not create, so
 * one element serves both the page header and the empty state.
 */
export function CreateButton({
  allowed = true,
  onClick,
  testId,
  children,
}: {
  allowed?: boolean;
  onClick: () => void;
  testId: string;
  children: ReactNode;
}) {
  if (!allowed) return null;
  return (
    <SmallButton tone="primary" icon="plus" iconSize={16} onClick={onClick} testId={testId}>
      {children}
    </SmallButton>
  );
}

/** The "Delete" of an editor page's header: small, red, with the bin; the page asks to confirm before deleting. */
export function DeleteButton({ onClick, testId }: { onClick: () => void; testId: string }) {
  return (
    <SmallButton tone="danger" icon="trash" onClick={onClick} testId={testId}>
      Delete
    </SmallButton>
  );
}

/**
 * The icon-only bin at the end of a row of an editable list (webhook headers, allowlist entries). `list` is the
 * rows and their setter, as useState gives them; the button sets the rows without this one, and is named
 * "Remove <what> <n>" for a screen reader.
 */
export function RemoveRowButton<T>({
  what,
  at,
  list: [rows, onChange],
  testId,
}: {
  what: string;
  at: number;
  list: readonly [T[], (rows: T[]) => void];
  testId?: string;
}) {
  return (
    <SmallButton
      tone="ghost"
      icon="trash"
      aria-label={`Remove ${what} ${at + 1}`}
      title="Remove"
      onClick={() => onChange(rows.filter((_, j) => j !== at))}
      testId={testId}
    />
  );
}
