import type { ReactNode } from 'react';
import type { PamVerdict } from '../../../../server/contract';
import { Field, StatusPill } from '../../components/ui';
import { SearchBox, type useTarget } from '../tenants/admin-kit';
import { VERDICT_LABEL, VERDICT_TONE } from './model';

// Small pieces the policy screens share.

export function VerdictPill({ verdict, testId }: { verdict: PamVerdict; testId?: string }) {
  return (
    <StatusPill tone={VERDICT_TONE[verdict]} testId={testId}>
      {VERDICT_LABEL[verdict]}
    </StatusPill>
  );
}

/** A bare on/off switch for table rows (the label is for screen readers and the hover title). */
export function RowSwitch({
  checked,
  onChange,
  label,
  disabled,
  testId,
}: {
  checked: boolean;
  onChange: (value: boolean) => void;
  label: string;
  disabled?: boolean;
  testId: string;
}) {
  return (
    <label className={`adm-toggle ep-switch${disabled ? ' disabled' : ''}`} title={label}>
      <input
        type="checkbox"
        role="switch"
        checked={checked}
        disabled={disabled}
        aria-label={label}
        onChange={(e) => onChange(e.target.checked)}
        data-testid={testId}
      />
      <span className="adm-switch" aria-hidden="true" />
    </label>
  );
}

/** One choice of a few, as a row of buttons (a radio group underneath); the test id of each is `testId(value)`. */
export function Segmented<V extends string>({
  label,
  options,
  value,
  onChange,
  testId,
  small,
}: {
  label: string;
  options: ReadonlyArray<readonly [V, string]>;
  value: V;
  onChange: (value: V) => void;
  testId: (value: V) => string;
  small?: boolean;
}) {
  return (
    <div className={`ep-segmented${small ? ' small' : ''}`} role="radiogroup" aria-label={label}>
      {options.map(([option, text]) => (
        <button
          key={option}
          type="button"
          role="radio"
          aria-checked={value === option}
          className={value === option ? 'on' : undefined}
          onClick={() => onChange(option)}
          data-testid={testId(option)}
        >
          {text}
        </button>
      ))}
    </div>
  );
}

/** A labelled select whose id is its test id too. */
export function SelectField({
  id,
  label,
  value,
  onChange,
  hint,
  error,
  disabled,
  children,
}: {
  id: string;
  label: string;
  value: string | number;
  onChange: (value: string) => void;
  hint?: ReactNode;
  error?: string;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Field label={label} htmlFor={id} hint={hint} error={error}>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        disabled={disabled}
        data-testid={id}
      >
        {children}
      </select>
    </Field>
  );
}

/** Named things (organizations, sites) as options of a select: the id is the value. */
export function nameOptions(
  items: ReadonlyArray<{ id: string; name: string }>,
): Array<{ value: string; label: string }> {
  return items.map((item) => ({ value: item.id, label: item.name }));
}

/** A card's header: its title, and whatever stands beside it. */
export function CardHead({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="ep-card-head">
      <h2>{title}</h2>
      {children}
    </header>
  );
}

/** Above a list: the search, how many there are, and the button that adds one. */
export function ListToolbar({
  query,
  onQuery,
  placeholder,
  searchTestId,
  count,
  action,
}: {
  query: string;
  onQuery: (value: string) => void;
  placeholder: string;
  searchTestId: string;
  count: ReactNode;
  action: ReactNode;
}) {
  return (
    <div className="adm-toolbar">
      <SearchBox value={query} onChange={onQuery} placeholder={placeholder} testId={searchTestId} />
      <span className="grow" />
      {count}
      {action}
    </div>
  );
}

/** The rows whose texts contain the search (ignoring case); all of them for an empty search. */
export function searchRows<T>(rows: T[], query: string, texts: (row: T) => Array<string | null>): T[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return rows;
  return rows.filter((row) => texts(row).some((text) => (text ?? '').toLowerCase().includes(needle)));
}

/** The table row that says a search left no rows. */
export function NoMatchRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className="muted ep-norow">
        {children}
      </td>
    </tr>
  );
}

/** A confirmed write to the row a dialog acts on: then the dialog closes and the list is read again. */
export function writeTarget<T>(
  dialog: ReturnType<typeof useTarget<T>>,
  write: (row: T) => Promise<unknown>,
  reload: () => void,
): () => Promise<void> {
  return async () => {
    if (!dialog.target) return;
    await write(dialog.target);
    dialog.close();
    reload();
  };
}
