import type { ReactNode } from 'react';
import { Icon } from './Icon';
import './kit.css';
import './controls.css';

// The controls above a list: search box, filter bar and its compact filters (text, dates, chips), toolbar.

export function SearchBox({
  value,
  onChange,
  placeholder,
  testId,
}: {
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  testId: string;
}) {
  return (
    <div className="adm-search">
      <Icon name="search" size={14} />
      <input
        type="search"
        value={value}
        placeholder={placeholder}
        aria-label={placeholder}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      />
    </div>
  );
}

/** A row of compact filters above a list. */
export function FilterBar({ children }: { children: ReactNode }) {
  return <div className="ui-filters">{children}</div>;
}

/** A free-text filter; `size` widens or narrows it, `error` marks it invalid and explains on hover. */
export function TextFilter({
  value,
  onChange,
  label,
  placeholder,
  testId,
  type = 'text',
  size,
  numeric,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  label: string;
  placeholder?: string;
  testId: string;
  type?: 'text' | 'search';
  size?: 'wide' | 'narrow';
  numeric?: boolean;
  error?: string | null;
}) {
  return (
    <input
      type={type}
      inputMode={numeric ? 'numeric' : undefined}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      placeholder={placeholder}
      aria-label={label}
      className={`ui-filter-text${size ? ` ${size}` : ''}${error ? ' invalid' : ''}`}
      title={error ?? undefined}
      data-testid={testId}
    />
  );
}

/** One end of a time window, as a local date and time. */
export function DateFilter({
  label,
  value,
  onChange,
  testId,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId: string;
}) {
  return (
    <label className="ui-date">
      <span className="muted small">{label}</span>
      <input
        type="datetime-local"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      />
    </label>
  );
}

interface Bound {
  value: string;
  onChange: (value: string) => void;
}

/** A from/to pair of date filters (local date and time), each with its label and test id. */
export function DateRangeFilter({
  from,
  to,
  labels = ['From', 'To'],
  testIds,
}: {
  from: Bound;
  to: Bound;
  labels?: [string, string];
  testIds: [string, string];
}) {
  return (
    <>
      <DateFilter label={labels[0]} {...from} testId={testIds[0]} />
      <DateFilter label={labels[1]} {...to} testId={testIds[1]} />
    </>
  );
}

/** Several values of a fixed list, each a toggle chip; none chosen means no restriction. */
export function ToggleChips<V extends string>({
  label,
  options,
  values,
  onChange,
  testIdPrefix,
  chipLabel = (o) => o,
}: {
  label: string;
  options: readonly V[];
  values: V[];
  onChange: (values: V[]) => void;
  testIdPrefix: string;
  /** What a chip shows (its value, unless the feature has words or a mark for it). */
  chipLabel?: (option: V) => ReactNode;
}) {
  return (
    <div className="ui-chips" role="group" aria-label={label}>
      {options.map((o) => (
        <button
          key={o}
          type="button"
          aria-pressed={values.includes(o)}
          className={`ui-chip${values.includes(o) ? ' on' : ''}`}
          onClick={() => onChange(values.includes(o) ? values.filter((x) => x !== o) : [...values, o])}
          data-testid={`${testIdPrefix}-${o}`}
        >
          {chipLabel(o)}
        </button>
      ))}
    </div>
  );
}

/**
 * Above a list: the search, the list's own filters beside it, then (pushed right) how many there are and the
 * actions (add one, sort, open a builder). `className` adds a feature's own spacing.
 */
export interface ListToolbarProps {
  query: string;
  onQuery: (value: string) => void;
  placeholder: string;
  searchTestId: string;
  filters?: ReactNode;
  count?: ReactNode;
  action?: ReactNode;
  className?: string;
}

export function ListToolbar({
  query,
  onQuery,
  placeholder,
  searchTestId,
  filters,
  count,
  action,
  className,
}: ListToolbarProps) {
  return (
    <div className={className ? `adm-toolbar ${className}` : 'adm-toolbar'}>
      <SearchBox value={query} onChange={onQuery} placeholder={placeholder} testId={searchTestId} />
      {filters}
      <span className="grow" />
      {count}
      {action}
    </div>
  );
}

/** How many a list holds, as the muted line at the toolbar's right end. */
export function ListCount({ testId, children }: { testId?: string; children: ReactNode }) {
  return (
    <span className="muted small" data-testid={testId}>
      {children}
    </span>
  );
}
