import { capitalize } from '../../lib/format';
import { useState, type ComponentProps, type ReactNode } from 'react';
import { FilterBar, ListEmpty, LoadFailure, LoadingBlock, Pager, type EmptyState } from '../../ui';
import { paginationOf, type QueryState } from '../../lib/query';

// The log-style tables of the device detail (stored logs, diagnostic logs, live event log, commands): a grid of
// rows under a header, the pager under it, and the load / failure / empty states in front of it.

/** One row of a LogTab: its cells, what unfolds under it, and whether there is anything to unfold. */
export interface LogRow {
  cells: ReactNode;
  detail: ReactNode;
  disabled?: boolean;
}

/** What a stored-log tab lists and how: the tab's names, test ids, grid and empty state, as data. */
export interface LogKind {
  testId: string;
  /**
   * What the tab lists ("event logs") and what a refusal says the account cannot read ("logs"; the name itself
   * when omitted).
   */
  subject: { name: string; reads?: string };
  /** The grid's class (dv-diag, dv-ev…), which sets its columns, and the columns' titles. */
  variant: string;
  columns: string[];
  rowTestId: string;
  /** Paged lists: the pager's test id. */
  pagerTestId?: string;
  /** The empty state when nothing is stored; `filteredTitle` when filters hide everything there is. */
  empty: {
    title: string;
    filteredTitle?: string;
    text: ReactNode;
    testId: string;
    icon?: ComponentProps<typeof EmptyState>['icon'];
  };
}

/**
 * One stored-log tab of the device detail (event logs, diagnostic logs, commands) as `kind` describes it: its
 * filter bar, then the failure (when nothing was loaded), loading or empty state, or the log table with its rows
 * and pager.
 */
export function LogTab<T, R extends { id: string }>({
  kind,
  filters,
  filtered = false,
  of,
  rows,
  row,
  onPage,
}: {
  kind: LogKind;
  filters: ReactNode;
  /** Whether filters are set (the empty state then says nothing matches). */
  filtered?: boolean;
  of: QueryState<T>;
  rows: readonly R[];
  /** What one row shows; it unfolds its detail when clicked (one row open at a time). */
  row: (item: R) => LogRow;
  /** Paged lists: where a page change goes. */
  onPage?: (page: number) => void;
}) {
  const { testId, subject, variant, columns, rowTestId, pagerTestId, empty } = kind;
  const open = useOpenRow();
  return (
    <div className="dv-tab" data-testid={testId}>
      <FilterBar>{filters}</FilterBar>
      {of.error && !of.data ? (
        <LoadFailure
          error={of.error}
          onRetry={of.reload}
          forbiddenTitle={`${capitalize(subject.name)} are not available to you`}
          forbiddenText={`Your account cannot read this device's ${subject.reads ?? subject.name}.`}
        />
      ) : !of.data ? (
        <LoadingBlock label={`Loading ${subject.name}…`} />
      ) : rows.length === 0 ? (
        <LogEmpty
          filtered={filtered}
          title={empty.title}
          filteredTitle={empty.filteredTitle ?? empty.title}
          testId={empty.testId}
          icon={empty.icon}
        >
          {empty.text}
        </LogEmpty>
      ) : (
        <LogTable
          variant={variant}
          columns={columns}
          pager={
            onPage && pagerTestId
              ? { onPage, testId: pagerTestId, pagination: paginationOf(of.data) }
              : undefined
          }
        >
          {rows.map((item) => {
            const { cells, detail, disabled } = row(item);
            return (
              <ExpandableLogRow
                key={item.id}
                variant={variant}
                open={open.isOpen(item.id)}
                onToggle={() => open.toggle(item.id)}
                disabled={disabled}
                testId={rowTestId}
                detail={detail}
              >
                {cells}
              </ExpandableLogRow>
            );
          })}
        </LogTable>
      )}
    </div>
  );
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
    <ListEmpty
      filtered={filtered}
      noMatch={{ title: filteredTitle, text: filteredText }}
      icon={icon}
      title={title}
      testId={testId}
      compact
    >
      {children}
    </ListEmpty>
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
        {/* Headed like the kit's virtual tables, so every grid of rows in the console reads the same. */}
        <div className={`dv-log-row ui-grid-head ${variant}`}>
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
function useOpenRow(): { isOpen: (id: string) => boolean; toggle: (id: string) => void } {
  const [open, setOpen] = useState<string | null>(null);
  return {
    isOpen: (id) => open === id,
    toggle: (id) => setOpen(open === id ? null : id),
  };
}

/** A row that unfolds `detail` under itself when clicked. */
function ExpandableLogRow({
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
