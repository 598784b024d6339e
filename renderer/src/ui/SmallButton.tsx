import type { ComponentProps } from 'react';
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

/** The "Delete" of an editor page's header: small, red, with the bin; the page asks to confirm before deleting. */
export function DeleteButton({ onClick, testId }: { onClick: () => void; testId: string }) {
  return (
    <SmallButton tone="danger" icon="trash" onClick={onClick} testId={testId}>
      Delete
    </SmallButton>
  );
}
