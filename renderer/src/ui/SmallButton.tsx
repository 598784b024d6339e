import type { ButtonHTMLAttributes } from 'react';
import { Icon, type IconName } from './Icon';

export type ButtonTone = 'primary' | 'secondary' | 'ghost' | 'danger';

type ButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> & {
  tone: ButtonTone;
  submit?: boolean;
  icon?: IconName;
  iconSize?: number;
  testId?: string;
};

/**
 * A button of the console (`btn btn-<tone>`) with its leading icon: page-header actions and the like. A plain
 * button unless `submit` (a small form's own submit); without children it is icon-only and then needs an
 * aria-label.
 */
export function Button({
  tone,
  small = false,
  submit = false,
  icon,
  iconSize,
  testId,
  className,
  children,
  ...button
}: ButtonProps & { small?: boolean }) {
  return (
    <button
      type={submit ? 'submit' : 'button'}
      className={`btn btn-${tone}${small ? ' btn-sm' : ''}${className ? ` ${className}` : ''}`}
      data-testid={testId}
      {...button}
    >
      {icon ? <Icon name={icon} size={iconSize} /> : null}
      {children}
    </button>
  );
}

/** The small action button of toolbars, card feet and list rows (`btn-sm`, a 14px icon unless told). */
export function SmallButton({ iconSize = 14, ...props }: ButtonProps) {
  return <Button small iconSize={iconSize} {...props} />;
}
