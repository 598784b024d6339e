import type { ButtonHTMLAttributes } from 'react';
import { Icon, type IconName } from './Icon';

export type ButtonTone = 'primary' | 'secondary' | 'ghost' | 'danger';

/**
 * The small action button of toolbars, card feet and list rows (`btn btn-<tone> btn-sm`), with its leading icon.
 * Never a form submit; without children it is an icon-only button, which then needs an aria-label.
 */
export function SmallButton({
  tone,
  icon,
  iconSize = 14,
  testId,
  className,
  children,
  ...button
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> & {
  tone: ButtonTone;
  icon?: IconName;
  iconSize?: number;
  testId?: string;
}) {
  return (
    <button
      type="button"
      className={`btn btn-${tone} btn-sm${className ? ` ${className}` : ''}`}
      data-testid={testId}
      {...button}
    >
      {icon ? <Icon name={icon} size={iconSize} /> : null}
      {children}
    </button>
  );
}
