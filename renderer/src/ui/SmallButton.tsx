import type { ButtonHTMLAttributes } from 'react';
import { Icon, type IconName } from './Icon';

export type ButtonTone = 'primary' | 'secondary' | 'ghost' | 'danger';

/**
 * The small action button of toolbars, card feet and list rows (`btn btn-<tone> btn-sm`), with its leading icon.
 * A plain button unless `submit` (a small form's own submit); without children it is icon-only and then needs an
 * aria-label.
 */
export function SmallButton({
  tone,
  submit = false,
  icon,
  iconSize = 14,
  testId,
  className,
  children,
  ...button
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> & {
  tone: ButtonTone;
  submit?: boolean;
  icon?: IconName;
  iconSize?: number;
  testId?: string;
}) {
  return (
    <button
      type={submit ? 'submit' : 'button'}
      className={`btn btn-${tone} btn-sm${className ? ` ${className}` : ''}`}
      data-testid={testId}
      {...button}
    >
      {icon ? <Icon name={icon} size={iconSize} /> : null}
      {children}
    </button>
  );
}
