import { useState, type ReactNode } from 'react';

// The compact filter controls above the device logs (and the plain choice <select> the device and filter screens
// share), and the state behind a filtered, paged log: changing any filter goes back to page 1.

export interface Choice {
  value: string;
  label: string;
}

/**
 * A <select> whose first option is the empty choice (`emptyLabel`: "All levels", "Choose…"); `options` are
 * plain strings (value = label) or {value, label} pairs.
 */
export function ChoiceSelect({
  id,
  value,
  onChange,
  ariaLabel,
  emptyLabel,
  options,
  testId,
}: {
  id?: string;
  value: string;
  onChange: (value: string) => void;
  ariaLabel?: string;
  emptyLabel: string;
  options: ReadonlyArray<string | Choice>;
  testId: string;
}) {
  return (
    <select
      id={id}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      aria-label={ariaLabel}
      data-testid={testId}
    >
      <option value="">{emptyLabel}</option>
      {options.map((o) => {
        const choice = typeof o === 'string' ? { value: o, label: o } : o;
        return (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        );
      })}
    </select>
  );
}

/** Organizations as choices. */
export function orgChoices(orgs: ReadonlyArray<{ id: string; name: string }>): Choice[] {
  return orgs.map((o) => ({ value: o.id, label: o.name }));
}

export function FilterBar({ children }: { children: ReactNode }) {
  return <div className="dv-filters">{children}</div>;
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
  placeholder: string;
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
      className={`dv-filter-text${size ? ` ${size}` : ''}${error ? ' invalid' : ''}`}
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
    <label className="dv-date">
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

/** Several values of a fixed list, each a toggle chip; none chosen means no restriction. */
export function ToggleChips<V extends string>({
  label,
  options,
  values,
  onChange,
  testIdPrefix,
}: {
  label: string;
  options: readonly V[];
  values: V[];
  onChange: (values: V[]) => void;
  testIdPrefix: string;
}) {
  return (
    <div className="dv-chips" role="group" aria-label={label}>
      {options.map((o) => (
        <button
          key={o}
          type="button"
          aria-pressed={values.includes(o)}
          className={`dv-chip${values.includes(o) ? ' on' : ''}`}
          onClick={() => onChange(values.includes(o) ? values.filter((x) => x !== o) : [...values, o])}
          data-testid={`${testIdPrefix}-${o}`}
        >
          {o}
        </button>
      ))}
    </div>
  );
}

/**
 * Filter values and the page of a filtered, paged log. Every filter change and `clear()` go back to page 1;
 * `onChange` runs after any change of filters or page (e.g. to drop a selection that belongs to the old rows).
 */
export function useLogFilters<T extends object>(initial: T, onChange?: () => void) {
  const [values, setValues] = useState(initial);
  const [page, setPageNumber] = useState(1);
  const set = <K extends keyof T>(key: K, value: T[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setPageNumber(1);
    onChange?.();
  };
  const setPage = (next: number) => {
    setPageNumber(next);
    onChange?.();
  };
  const clear = () => {
    setValues(initial);
    setPageNumber(1);
    onChange?.();
  };
  /** `value` + `onChange` for a control bound to one filter. */
  const bind = <K extends keyof T>(key: K) => ({
    value: values[key],
    onChange: (value: T[K]) => set(key, value),
  });
  return { values, set, bind, page, setPage, clear };
}
