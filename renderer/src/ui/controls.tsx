import { useState, type ReactNode } from 'react';
import { timeZones } from '../lib/dates';
import { Field } from './basics';
import './kit.css';
import './controls.css';

// Form controls: switches, radio cards, segmented choices, selects (the list filters are in filters.tsx).

/** A checkbox with its sentence, boxed (`.check`): an acknowledgement or an option of one action. */
export function Check({
  checked,
  onChange,
  testId,
  children,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  testId: string;
  children: ReactNode;
}) {
  return (
    <label className="check">
      <input
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        data-testid={testId}
      />
      <span>{children}</span>
    </label>
  );
}

/** An on/off switch that is a real checkbox underneath (keyboard, forms and screen readers work as usual). */
export function Toggle({
  id,
  checked,
  onChange,
  label,
  hint,
  disabled,
}: {
  id: string;
  checked: boolean;
  onChange: (value: boolean) => void;
  label: ReactNode;
  hint?: ReactNode;
  disabled?: boolean;
}) {
  return (
    <label className={`adm-toggle${disabled ? ' disabled' : ''}`} htmlFor={id}>
      <input
        id={id}
        type="checkbox"
        role="switch"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
        data-testid={id}
      />
      <span className="adm-switch" aria-hidden="true" />
      <span className="adm-toggle-text">
        <span className="adm-toggle-label">{label}</span>
        {hint ? <span className="adm-toggle-hint">{hint}</span> : null}
      </span>
    </label>
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
    <label className={`adm-toggle ui-row-switch${disabled ? ' disabled' : ''}`} title={label}>
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

export interface Choice<V extends string = string> {
  value: V;
  label: string;
}

/** Named things (organizations, sites) as choices: the id is the value. */
export function nameChoices(items: ReadonlyArray<{ id: string; name: string }>): Choice[] {
  return items.map((item) => ({ value: item.id, label: item.name }));
}

/**
 * One choice of a few, as a row of buttons (a radio group underneath). `testId` is a prefix (`<prefix>-<value>`)
 * or a function of the value; options are {value, label} or [value, label], or each value's label in order.
 */
export function Segmented<V extends string>({
  label,
  options,
  value,
  onChange,
  testId,
  small,
}: {
  label: string;
  options: ReadonlyArray<Choice<V> | readonly [V, string]> | LabelRecord<V>;
  value: V;
  onChange: (value: V) => void;
  testId: string | ((value: V) => string);
  small?: boolean;
}) {
  return (
    <div className={`ui-seg${small ? ' small' : ''}`} role="radiogroup" aria-label={label}>
      {choicesOf(options).map(([option, text]) => {
        return (
          <button
            key={option}
            type="button"
            role="radio"
            aria-checked={value === option}
            className={value === option ? 'on' : undefined}
            onClick={() => onChange(option)}
            data-testid={typeof testId === 'string' ? `${testId}-${option}` : testId(option)}
          >
            {text}
          </button>
        );
      })}
    </div>
  );
}

/** Each value's label, in the order offered; a value left out is not offered. */
export type LabelRecord<V extends string> = Readonly<Partial<Record<V, string>>>;

/** Segmented's options as [value, label] pairs, whichever way they were given. */
function choicesOf<V extends string>(
  options: ReadonlyArray<Choice<V> | readonly [V, string]> | LabelRecord<V>,
): Array<readonly [V, string]> {
  if (!Array.isArray(options))
    return (Object.entries(options) as Array<[V, string | undefined]>).filter(
      (entry): entry is [V, string] => entry[1] !== undefined,
    );
  return (options as ReadonlyArray<Choice<V> | readonly [V, string]>).map((o) =>
    Array.isArray(o) ? (o as readonly [V, string]) : [(o as Choice<V>).value, (o as Choice<V>).label],
  );
}

/**
 * The <option>s of a label list (types, plans, statuses, numeric levels), as a list or each value's label in
 * order.
 */
export function LabelOptions<V extends string | number>({
  options,
}: {
  options: ReadonlyArray<{ value: V; label: string }> | LabelRecord<Extract<V, string>>;
}) {
  const pairs: ReadonlyArray<readonly [string | number, string]> = Array.isArray(options)
    ? (options as ReadonlyArray<{ value: V; label: string }>).map((o) => [o.value, o.label] as const)
    : choicesOf(options as LabelRecord<string>);
  return (
    <>
      {pairs.map(([value, label]) => (
        <option key={value} value={value}>
          {label}
        </option>
      ))}
    </>
  );
}

/** The time zones the browser knows, as options; `current` first when the list lacks it (a zone saved elsewhere). */
export function TimeZoneOptions({ current }: { current: string }) {
  const [zones] = useState(timeZones);
  const shown = current && !zones.includes(current) ? [current, ...zones] : zones;
  return (
    <>
      {shown.map((z) => (
        <option key={z} value={z}>
          {z.replaceAll('_', ' ')}
        </option>
      ))}
    </>
  );
}

/** Radio buttons drawn as cards: a title (marked “· current” when `current` is given and matches) and a line. */
export function RadioCards<V extends string>({
  name,
  options,
  value,
  current,
  onChange,
  testId,
  className,
}: {
  name: string;
  options: Array<{ value: V; title: string; desc: string }>;
  value: V;
  current?: V;
  onChange: (value: V) => void;
  testId: (value: V) => string;
  /** Extra class on every card. */
  className?: string;
}) {
  return (
    <>
      {options.map((o) => (
        <label key={o.value} className={`adm-radio-card${className ? ` ${className}` : ''}`}>
          <input
            type="radio"
            name={name}
            value={o.value}
            checked={value === o.value}
            onChange={() => onChange(o.value)}
            data-testid={testId(o.value)}
          />
          <span>
            <span className="adm-radio-title">
              {o.title}
              {current !== undefined && current === o.value ? (
                <span className="muted small"> · current</span>
              ) : null}
            </span>
            <span className="adm-radio-desc">{o.desc}</span>
          </span>
        </label>
      ))}
    </>
  );
}

/** A labelled select whose id is its test id too. */
export function SelectField({
  id,
  label,
  value,
  onChange,
  onBlur,
  hint,
  error,
  disabled,
  children,
}: {
  id: string;
  label: string;
  value: string | number;
  onChange: (value: string) => void;
  onBlur?: () => void;
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
        onBlur={onBlur}
        disabled={disabled}
        data-testid={id}
      >
        {children}
      </select>
    </Field>
  );
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
  className,
  disabled,
}: {
  id?: string;
  value: string;
  onChange: (value: string) => void;
  ariaLabel?: string;
  emptyLabel: string | null;
  options: ReadonlyArray<string | Choice>;
  testId: string;
  className?: string;
  disabled?: boolean;
}) {
  return (
    <select
      id={id}
      className={className}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      aria-label={ariaLabel}
      data-testid={testId}
      disabled={disabled}
    >
      {emptyLabel !== null ? <option value="">{emptyLabel}</option> : null}
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
