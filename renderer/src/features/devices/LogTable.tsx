import { useState, type ComponentProps, type ReactNode } from 'react';
import { EmptyState, LoadFailure, LoadingBlock, Pager } from '../../ui';
import type { QueryState } from '../../lib/query';

// The log-style tables of the device detail (stored logs, diagnostic logs, live event log, commands): a grid of
// rows under a header, the pager under it, and the load / failure / empty states in front of it.

/** Failure (when nothing was loaded), loading, empty, or the rows: the states in front of a loaded list. */
export function ResourceStates<T>({
  resource,
  isEmpty,
  loadingLabel,
  forbiddenTitle,
  forbiddenText,
  empty,
  children,
}: {
  resource: QueryState<T>;
  isEmpty: boolean;
  loadingLabel: string;
  forbiddenTitle: string;
  forbiddenText: string;
  /** The EmptyState to show when the answer has no rows. */
  empty: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (resource.error && !resource.data)
    return (
      <LoadFailure
        error={resource.error}
        onRetry={resource.reload}
        forbiddenTitle={forbiddenTitle}
        forbiddenText={forbiddenText}
      />
    );
  if (!resource.data) return <LoadingBlock label={loadingLabel} />;
  if (isEmpty) return empty;
  return children(resource.data);
}

/** The empty state of a log: one text when filters hide everything, another when there is nothing at all. */
export function LogEmpty({
  filtered,
  title,
  filteredTitle,
  filteredText = 'Nothing matches these filters.',
  testId,
  icon = 'audit',
  children,
}: {
  filtered: boolean;
  title: string;
  filteredTitle: string;
  filteredText?: ReactNode;
  testId: string;
  icon?: ComponentProps<typeof EmptyState>['icon'];
  children?: ReactNode;
}) {
  return (
    <EmptyState icon={icon} title={filtered ? filteredTitle : title} compact testId={testId}>
      {filtered ? filteredText : children}
    </EmptyState>
  );
}

/** Header row with `columns`, then the rows; `variant` (dv-diag, dv-ev…) sets the grid's columns. */
export function LogTable({
  variant,
  columns,
  pager,
  children,
}: {
  variant: string;
  columns: string[];
  pager?: ComponentProps<typeof Pager>;
  children: ReactNode;
}) {
  return (
    <div className="adm-table-card">
      <div className="dv-log">
        <div className={`dv-log-row dv-log-head ${variant}`}>
          {columns.map((c) => (
            <span key={c}>{c}</span>
          ))}
        </div>
        {children}
      </div>
      {pager ? <Pager {...pager} /> : null}
    </div>
  );
}

/** Which row of a log is unfolded (one at a time); toggling the open row folds it. */
export function useOpenRow(): { isOpen: (id: string) => boolean; toggle: (id: string) => void } {
  const [open, setOpen] = useState<string | null>(null);
  return {
    isOpen: (id) => open === id,
    toggle: (id) => setOpen(open === id ? null : id),
  };
}

/** A row that unfolds `detail` under itself when clicked. */
export function ExpandableLogRow({
  variant,
  open,
  onToggle,
  disabled,
  testId,
  detail,
  children,
}: {
  variant: string;
  open: boolean;
  onToggle: () => void;
  disabled?: boolean;
  testId: string;
  detail: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={`dv-log-entry${open ? ' open' : ''}`}>
      <button
        type="button"
        className={`dv-log-row ${variant}`}
        onClick={onToggle}
        aria-expanded={open}
        disabled={disabled}
        data-testid={testId}
      >
        {children}
      </button>
      {open ? <div className="dv-log-detail">{detail}</div> : null}
    </div>
  );
}
