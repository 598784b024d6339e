import type { ReactNode } from 'react';
import { Link } from '../lib/router';
import type { ButtonTone } from './Button';
import { Icon, type IconName } from './Icon';

/**
 * A link to another page drawn as the console's button, with its leading icon (a page's "New role", a card's
 * "Import contacts"): it navigates, so it stays an <a> (middle-click, copy link) rather than a button. `small` is
 * the toolbar size.
 */
export function ButtonLink({
  to,
  tone,
  icon,
  iconSize,
  small = false,
  testId,
  children,
}: {
  to: string;
  tone: ButtonTone;
  icon?: IconName;
  iconSize?: number;
  small?: boolean;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Link to={to} className={`btn btn-${tone}${small ? ' btn-sm' : ''}`} data-testid={testId}>
      {icon ? <Icon name={icon} size={iconSize} /> : null}
      {children}
    </Link>
  );
}
