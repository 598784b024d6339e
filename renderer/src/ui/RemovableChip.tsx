import type { ReactNode } from 'react';
import { Icon } from './Icon';
import './kit.css';

/**
 * A value shown as a chip with its own remove button (the values of a filter, the scopes of a key). A click on
 * the button is the chip's own: a box that focuses its input when clicked does not get it.
 */
export function RemovableChip({
  label,
  onRemove,
  className,
  testId,
  removeTestId,
  iconSize = 11,
  children,
}: {
  /** What the value is called in "Remove <label>". */
  label: string;
  onRemove: () => void;
  className?: string;
  testId?: string;
  removeTestId?: string;
  iconSize?: number;
  children: ReactNode;
}) {
  return (
    <span className={`ui-value-chip ui-removable${className ? ` ${className}` : ''}`} data-testid={testId}>
      {children}
      <button
        type="button"
        aria-label={`Remove ${label}`}
        onClick={(e) => {
          e.stopPropagation();
          onRemove();
        }}
        data-testid={removeTestId}
      >
        <Icon name="close" size={iconSize} />
      </button>
    </span>
  );
}
