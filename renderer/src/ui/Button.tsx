import type { ButtonHTMLAttributes } from 'react';
import { Icon, type IconName } from './Icon';

export type ButtonTone = 'primary' | 'secondary' | 'ghost' | 'danger';

/**
 * The console's button (`btn btn-<tone>`, `block`: as wide as its form), with its leading icon. A plain button
 * unless `submit`. One that starts a request passes `busy`: disabled meanwhile, it then says `busyLabel`.
 * `tone="link"` is the same button drawn as a link (a secondary action under a sign-in form). SmallButton is
 * the toolbar size of it.
 */
export function Button({
  tone,
  busy = false,
  busyLabel,
  block = false,
  submit = false,
  icon,
  iconSize,
  testId,
  className,
  disabled,
  children,
  ...button
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> & {
  tone: ButtonTone | 'link';
  busy?: boolean;
  busyLabel?: string;
  block?: boolean;
  submit?: boolean;
  icon?: IconName;
  iconSize?: number;
  testId?: string;
}) {
  const base = tone === 'link' ? 'link' : `btn btn-${tone}${block ? ' btn-block' : ''}`;
  return (
    <button
      type={submit ? 'submit' : 'button'}
      className={className ? `${base} ${className}` : base}
      disabled={busy || disabled}
      data-testid={testId}
      {...button}
    >
      {icon ? <Icon name={icon} size={iconSize} /> : null}
      {busy && busyLabel ? busyLabel : children}
    </button>
  );
}
