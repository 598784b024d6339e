import { Fragment, useState, type ChangeEvent, type KeyboardEvent } from 'react';
import { nameChoices, RemovableChip } from '../../ui';
import { TIME_UNITS } from '../../../../server/contract';
import type { FieldDef, Option, ValueShape } from './fields';
import type { Draft, Duration, Range } from './model';
import type { Lookups } from '../../lib/directory';

// One editor per value shape of spec 2: text, number, yes/no, date, enum, lists as chips, {from,to} ranges and
// {amount,unit} durations. The primary input of each carries data-testid="filter-value".

/** Free-text values as chips: Enter, comma or Tab adds; Backspace on an empty input takes the last one back. */
export function ChipInput({
  values,
  onChange,
  placeholder,
  testId,
  invalid,
  ariaLabel,
}: {
  values: string[];
  onChange: (values: string[]) => void;
  placeholder?: string;
  testId?: string;
  invalid?: boolean;
  ariaLabel: string;
}) {
  const [text, setText] = useState('');
  const commit = (raw: string) => {
    const parts = raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const next = [...values];
    for (const p of parts) if (!next.includes(p)) next.push(p);
    if (next.length !== values.length) onChange(next);
    setText('');
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if ((e.key === 'Enter' || e.key === ',' || (e.key === 'Tab' && text.trim())) && text.trim()) {
      e.preventDefault();
      commit(text);
    } else if (e.key === 'Enter') {
      e.preventDefault();
    } else if (e.key === 'Backspace' && !text && values.length) {
      onChange(values.slice(0, -1));
    }
  };
  return (
    <div className={`ui-chipbox fb-chips${invalid ? ' invalid' : ''}`}>
      {values.map((v) => (
        <RemovableChip key={v} label={v} onRemove={() => onChange(values.filter((x) => x !== v))}>
          {v}
        </RemovableChip>
      ))}
      <input
        type="text"
        value={text}
        aria-label={ariaLabel}
        placeholder={values.length ? '' : placeholder}
        onChange={(e) => {
          if (e.target.value.includes(',')) commit(e.target.value);
          else setText(e.target.value);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => {
          if (text.trim()) commit(text);
        }}
        data-testid={testId}
      />
    </div>
  );
}

/** Several choices from a fixed list, as toggle chips. */
function ChoiceChips({
  options,
  values,
  onChange,
  testId,
}: {
  options: Option[];
  values: string[];
  onChange: (values: string[]) => void;
  testId: string;
}) {
  return (
    <div className="fb-choices" role="group" data-testid={testId}>
      {options.map((o) => {
        const on = values.includes(o.value);
        return (
          <button
            key={o.value}
            type="button"
            className={`fb-choice${on ? ' on' : ''}`}
            aria-pressed={on}
            onClick={() => onChange(on ? values.filter((v) => v !== o.value) : [...values, o.value])}
            data-testid={`${testId}-${o.value}`}
          >
            {o.label}
          </button>
        );
      })}
      {options.length === 0 ? <span className="muted small">Nothing to choose from.</span> : null}
    </div>
  );
}

function pickOptions(def: FieldDef, lookups: Lookups): Option[] | null {
  if (def.pick === 'org') return nameChoices(lookups.orgs);
  const orgName = new Map(lookups.orgs.map((o) => [o.id, o.name]));
  if (def.pick === 'site') {
    return lookups.sites.map((s) => ({
      value: s.id,
      label: `${s.name} · ${orgName.get(s.orgId) ?? 'organization'}`,
    }));
  }
  // Without any group to list (none yet, or the list failed), the id is typed.
  if (lookups.groups.length === 0) return null;
  return lookups.groups.map((g) => ({
    value: g.id,
    label: `${g.name} · ${orgName.get(g.orgId) ?? 'organization'}`,
  }));
}

export function ValueEditor({
  def,
  shape,
  value,
  onChange,
  lookups,
  invalid,
  label,
}: {
  def: FieldDef;
  shape: ValueShape;
  value: Draft;
  onChange: (value: Draft) => void;
  lookups: Lookups;
  invalid: boolean;
  /** Accessible name, e.g. "Hostname value". */
  label: string;
}) {
  const cls = invalid ? 'invalid' : undefined;
  const str = typeof value === 'string' ? value : '';
  const list = Array.isArray(value) ? value : [];
  // The props of every single-value control (the primary one of its editor).
  const single = {
    className: cls,
    value: str,
    'aria-label': label,
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => onChange(e.target.value),
    'data-testid': 'filter-value',
  };
  switch (shape) {
    case 'none':
      return <span className="fb-novalue muted small">no value needed</span>;
    case 'text':
      return <input type="text" {...single} placeholder={def.type === 'array' ? 'tag' : 'value'} />;
    case 'number':
      return (
        <span className="fb-unit">
          <input type="text" inputMode="decimal" {...single} placeholder="0" />
          {def.unit ? <span className="fb-unit-label">{def.unit}</span> : null}
        </span>
      );
    case 'boolean':
      return (
        <select {...single} value={str || 'true'}>
          <option value="true">Yes</option>
          <option value="false">No</option>
        </select>
      );
    case 'date':
      return <input type="datetime-local" {...single} />;
    case 'enum':
      return (
        <select {...single}>
          {str === '' ? <option value="">Choose…</option> : null}
          {(def.options ?? []).map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
    case 'enumList':
      return (
        <ChoiceChips options={def.options ?? []} values={list} onChange={onChange} testId="filter-value" />
      );
    case 'list':
      return (
        <ChipInput
          values={list}
          onChange={onChange}
          placeholder={def.type === 'array' ? 'Type a tag, press Enter' : 'Type a value, press Enter'}
          testId="filter-value"
          invalid={invalid}
          ariaLabel={label}
        />
      );
    case 'pick':
    case 'pickList': {
      const options = pickOptions(def, lookups);
      if (!options) {
        return shape === 'pick' ? (
          <input type="text" {...single} className={`mono ${cls ?? ''}`} placeholder="group id" />
        ) : (
          <ChipInput
            values={list}
            onChange={onChange}
            placeholder="group id, Enter"
            testId="filter-value"
            ariaLabel={label}
            invalid={invalid}
          />
        );
      }
      if (shape === 'pickList')
        return <ChoiceChips options={options} values={list} onChange={onChange} testId="filter-value" />;
      return (
        <select {...single}>
          <option value="">Choose…</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
          {str && !options.some((o) => o.value === str) ? <option value={str}>{str}</option> : null}
        </select>
      );
    }
    case 'numberRange':
    case 'dateRange': {
      const r = (value ?? { from: '', to: '' }) as Range;
      const type = shape === 'dateRange' ? 'datetime-local' : 'text';
      return (
        <span className="fb-range">
          {(['from', 'to'] as const).map((end) => (
            <Fragment key={end}>
              {end === 'to' ? <span className="muted small">and</span> : null}
              <input
                type={type}
                inputMode={shape === 'numberRange' ? 'decimal' : undefined}
                className={cls}
                value={r[end]}
                aria-label={`${label} ${end}`}
                placeholder={end}
                onChange={(e) => onChange({ ...r, [end]: e.target.value })}
                data-testid={end === 'from' ? 'filter-value' : 'filter-value-to'}
              />
            </Fragment>
          ))}
          {def.unit && shape === 'numberRange' ? <span className="fb-unit-label">{def.unit}</span> : null}
        </span>
      );
    }
    case 'duration': {
      const d = (value ?? { amount: '', unit: 'days' }) as Duration;
      return (
        <span className="fb-range">
          <input
            type="text"
            inputMode="numeric"
            className={`fb-amount ${cls ?? ''}`}
            value={d.amount}
            aria-label={`${label} amount`}
            onChange={(e) => onChange({ ...d, amount: e.target.value })}
            data-testid="filter-value"
          />
          <select
            value={d.unit}
            aria-label={`${label} unit`}
            onChange={(e) => onChange({ ...d, unit: e.target.value as Duration['unit'] })}
            data-testid="filter-value-unit"
          >
            {TIME_UNITS.map((u) => (
              <option key={u} value={u}>
                {u}
              </option>
            ))}
          </select>
        </span>
      );
    }
  }
}
