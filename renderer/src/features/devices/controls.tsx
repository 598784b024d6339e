import { useState, type ReactNode } from 'react';
import { ChoiceSelect, DateRangeFilter, TextFilter } from '../../ui';

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

/** The filters an event-log bar binds (stored and live logs alike), each a string. */
type EventLogFilter = 'level' | 'source' | 'start' | 'end';

/**
 * The controls of an event-log filter bar (stored and live logs alike): the level, the source text, what else
 * that log filters by (`children`), then the time window. Test ids are `<testIdPrefix>-level`, `-source`,
 * `-start` and `-end`.
 */
export function EventLogFilters({
  filters,
  levels,
  sourcePlaceholder,
  testIdPrefix,
  children,
}: {
  filters: { bind: (key: EventLogFilter) => { value: string; onChange: (value: string) => void } };
  levels: readonly string[];
  sourcePlaceholder: string;
  testIdPrefix: string;
  children?: ReactNode;
}) {
  return (
    <>
      <ChoiceSelect
        {...filters.bind('level')}
        ariaLabel="Level"
        emptyLabel="All levels"
        options={levels}
        testId={`${testIdPrefix}-level`}
      />
      <TextFilter
        {...filters.bind('source')}
        placeholder={sourcePlaceholder}
        label="Source"
        testId={`${testIdPrefix}-source`}
      />
      {children}
      <DateRangeFilter
        from={filters.bind('start')}
        to={filters.bind('end')}
        testIds={[`${testIdPrefix}-start`, `${testIdPrefix}-end`]}
      />
    </>
  );
}
