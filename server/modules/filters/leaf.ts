import { badRequest, type HttpError } from '../../http/errors';
import { TIME_UNITS, type TimeUnit } from '../../contract/filters';
import { MAX_AMOUNT, MAX_LIST_ITEMS, MAX_TEXT } from './vocabulary';

// One condition (a leaf of the filter tree) on its way to SQL: the binder that collects its parameters, and the
// readers that check its value has the shape its operator needs, failing with a 400 that names the condition.

/**
 * How a condition on a device's tags, software or groups is written (operators.ts):
 * - 'set': `d.filter_key IN (SELECT ...)`, the subquery run once per statement and probed per device. Right for
 *   a pass that visits every device (the count).
 * - 'probe': a correlated lookup of the one device being tested. Right for a pass that stops early (a page
 *   walked in hostname order over dense matches), where building the whole set would cost more than the devices
 *   it visits.
 */
export type ChildForm = 'set' | 'probe';

/** Collects bound parameters in the order their `?` appear in the text. */
export class Binder {
  readonly params: unknown[] = [];
  constructor(readonly childForm: ChildForm = 'set') {}
  bind(value: unknown): string {
    this.params.push(value);
    return '?';
  }
  /** One JSON array parameter for a list: the statement text stays the same whatever the list's length. */
  list(values: readonly unknown[]): string {
    return `(SELECT value FROM json_each(${this.bind(JSON.stringify(values))}))`;
  }
}

/** A value expression; called once per use so that any parameter it binds lands in the right position. */
export type Expr = (b: Binder) => string;
export const column =
  (sql: string): Expr =>
  () =>
    sql;

/** True exactly where `positive` is not true: NULL (an absent value) counts as "not". */
export const not = (positive: string) => `(${positive}) IS NOT 1`;

export const LIKE_ESCAPE = "ESCAPE '\\'";

export interface Leaf {
  field: string;
  operator: string;
  value: unknown;
  path: string;
}

export function invalid(leaf: Leaf, message: string): HttpError {
  return badRequest(message, 'INVALID_FILTER', { path: leaf.path });
}

export function text(leaf: Leaf): string {
  const v = leaf.value;
  if (typeof v !== 'string') throw invalid(leaf, `${leaf.field} ${leaf.operator}: value must be a string`);
  if (v.length > MAX_TEXT)
    throw invalid(leaf, `${leaf.field} ${leaf.operator}: value must be at most ${MAX_TEXT} characters`);
  return v;
}

export function textList(leaf: Leaf): string[] {
  const v = leaf.value;
  const message = `${leaf.field} ${leaf.operator}: value must be a non-empty array of strings`;
  if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === 'string'))
    throw invalid(leaf, message);
  if (v.length > MAX_LIST_ITEMS)
    throw invalid(leaf, `${leaf.field} ${leaf.operator}: at most ${MAX_LIST_ITEMS} values`);
  if (v.some((x: string) => x.length > MAX_TEXT))
    throw invalid(leaf, `${leaf.field} ${leaf.operator}: each value must be at most ${MAX_TEXT} characters`);
  return v as string[];
}

export function oneOf(leaf: Leaf, values: readonly string[], v: string): string {
  if (!values.includes(v))
    throw invalid(leaf, `${leaf.field} ${leaf.operator}: value must be one of ${values.join(', ')}`);
  return v;
}

export function num(leaf: Leaf, v: unknown = leaf.value, what = 'value'): number {
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw invalid(leaf, `${leaf.field} ${leaf.operator}: ${what} must be a number`);
  return v;
}

export function bool(leaf: Leaf): 0 | 1 {
  if (typeof leaf.value !== 'boolean')
    throw invalid(leaf, `${leaf.field} ${leaf.operator}: value must be true or false`);
  return leaf.value ? 1 : 0;
}

export function range<T>(leaf: Leaf, parse: (v: unknown, what: string) => T, le: (a: T, b: T) => boolean) {
  const v = leaf.value as { from?: unknown; to?: unknown } | null;
  if (typeof v !== 'object' || v === null || Array.isArray(v) || !('from' in v) || !('to' in v))
    throw invalid(leaf, `${leaf.field} between: value must be {from, to}`);
  const from = parse(v.from, 'from');
  const to = parse(v.to, 'to');
  if (!le(from, to)) throw invalid(leaf, `${leaf.field} between: from must not be after to`);
  return { from, to };
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;
const DAY_MS = 86_400_000;

/** A date value: the instant range it stands for, [start, end) for a day, [t, t] for an instant. */
export interface DateValue {
  start: string;
  /** First instant after the value (exclusive) for a day; the instant itself for a date-time. */
  end: string;
  wholeDay: boolean;
}

export function dateValue(leaf: Leaf, v: unknown = leaf.value, what = 'value'): DateValue {
  const message = `${leaf.field} ${leaf.operator}: ${what} must be an ISO 8601 date (YYYY-MM-DD) or date-time with a time zone`;
  if (typeof v !== 'string') throw invalid(leaf, message);
  if (DATE_ONLY.test(v)) {
    const ms = Date.parse(`${v}T00:00:00.000Z`);
    // Date.parse rolls 2026-02-31 over to March; a real calendar day prints back unchanged.
    if (!Number.isFinite(ms) || new Date(ms).toISOString().slice(0, 10) !== v) throw invalid(leaf, message);
    return { start: new Date(ms).toISOString(), end: new Date(ms + DAY_MS).toISOString(), wholeDay: true };
  }
  const ms = DATE_TIME.test(v) ? Date.parse(v) : NaN;
  if (!Number.isFinite(ms)) throw invalid(leaf, message);
  const iso = new Date(ms).toISOString();
  return { start: iso, end: iso, wholeDay: false };
}

/** The instant `amount` units before now; months are calendar months. */
export function ago(leaf: Leaf, now: Date): string {
  const v = leaf.value as { amount?: unknown; unit?: unknown } | null;
  const message = `${leaf.field} ${leaf.operator}: value must be {amount, unit} with a whole amount from 1 to ${MAX_AMOUNT} and unit ${TIME_UNITS.join(', ')}`;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalid(leaf, message);
  const { amount, unit } = v;
  if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 1 || amount > MAX_AMOUNT)
    throw invalid(leaf, message);
  if (typeof unit !== 'string' || !(TIME_UNITS as readonly string[]).includes(unit))
    throw invalid(leaf, message);
  const t = new Date(now.getTime());
  const minutes: Record<Exclude<TimeUnit, 'months'>, number> = {
    minutes: 1,
    hours: 60,
    days: 1440,
    weeks: 10080,
  };
  if (unit === 'months') t.setUTCMonth(t.getUTCMonth() - amount);
  else t.setTime(t.getTime() - amount * minutes[unit as Exclude<TimeUnit, 'months'>] * 60_000);
  return t.toISOString();
}
