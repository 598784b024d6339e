import { z } from 'zod';
import type {
  CustomFieldType,
  FilterCondition,
  FilterConditionGroup,
  FilterFieldType,
} from '../../contract/filters';
import { DEVICE_ROLES, DEVICE_STATUSES, OS_TYPES } from '../../contract/devices';
import type { Db } from '../../db/connection';
import { badRequest, type HttpError } from '../../http/errors';
import { escapeLike } from '../../db/like';

// The saved-filter condition language (spec 2, Saved filter) compiled to one SQL WHERE fragment over `devices d`.
// Values are always bound parameters; field keys only ever select SQL from the fixed table below, so nothing a
// caller sends becomes SQL text. The device list (GET /devices), the previews and the benchmark all run the same
// compiled SQL: a filter is never evaluated row by row in JavaScript.
//
// Semantics decided here where the spec is silent (the console's filter builder describes them the same way):
// - Negative operators (notEquals, notContains, notIn, notWithinLast, software.notInstalled) are the exact
//   complement of their positive operator: a device without a value matches them. "Hostname does not contain
//   web" then lists every device that is not in the "contains web" list, so a filter and its negation always
//   partition the fleet and no device silently disappears from both.
// - Positive operators never match a missing value (SQL NULL); isNull / isNotNull ask for it explicitly.
// - contains, notContains, startsWith and endsWith are case-insensitive (SQLite LIKE folds ASCII letters);
//   `%` and `_` in a value are literal. equals, notEquals, in and notIn on strings are exact, as the spec names
//   only the former as case-insensitive. Tags and software names compare case-insensitively throughout.
// - `matches` is a JavaScript regular expression, case-sensitive unless it starts with `(?i)`. Patterns that can
//   take exponential time (a repeated group that itself repeats or alternates, back-references) or high
//   polynomial time (more than two unbounded repetitions) are refused, and a request whose matching still runs
//   past REGEXP_BUDGET_MS is stopped with 400 FILTER_TOO_EXPENSIVE: the regex engine runs on the server's only
//   thread, so one slow pattern would stall every tenant.
// - Dates: a date-only value (`2026-03-01`) means that whole UTC day (equals = that day, before = before it
//   starts, after = after it ends, between = from the start of `from` to the end of `to`); a date-time value
//   means that instant. Stored timestamps are ISO 8601 UTC strings (toISOString), compared as text.
// - Computed day counts (daysSinceLastSeen, daysSinceEnrolled) are fractional days, (now - ts) / 86400 s;
//   equals N means N <= days < N + 1 (a whole number of elapsed days), the other operators compare the fraction.
// - tags `contains` means some tag contains the text (case-insensitive), like software.installed `contains`.

export const MAX_FILTER_DEPTH = 32;
export const MAX_FILTER_CONDITIONS = 500;
export const MAX_FILTER_GROUPS = 500;
const MAX_LIST_ITEMS = 1000;
const MAX_TEXT = 1000;
const MAX_PATTERN = 500;
const MAX_AMOUNT = 100_000;

export const STRING_OPERATORS = [
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'startsWith',
  'endsWith',
  'matches',
  'in',
  'notIn',
  'isNull',
  'isNotNull',
] as const;
export const ENUM_OPERATORS = ['equals', 'notEquals', 'in', 'notIn'] as const;
export const DATETIME_OPERATORS = [
  'equals',
  'notEquals',
  'before',
  'after',
  'between',
  'withinLast',
  'notWithinLast',
  'isNull',
  'isNotNull',
] as const;
export const ARRAY_OPERATORS = ['hasAny', 'hasAll', 'isEmpty', 'isNotEmpty', 'contains'] as const;
export const BOOLEAN_OPERATORS = ['equals', 'notEquals', 'isNull', 'isNotNull'] as const;
export const NUMBER_OPERATORS = [
  'equals',
  'notEquals',
  'greaterThan',
  'greaterThanOrEquals',
  'lessThan',
  'lessThanOrEquals',
  'between',
  'isNull',
  'isNotNull',
] as const;
const CAPABILITY_OPERATORS = ['equals', 'notEquals'] as const;
const SOFTWARE_INSTALLED_OPERATORS = ['contains', 'notContains', 'equals', 'in', 'hasAny', 'hasAll'] as const;
const SOFTWARE_NOT_INSTALLED_OPERATORS = ['contains'] as const;
const HIERARCHY_OPERATORS = ['equals', 'in'] as const;

export const TIME_UNITS = ['minutes', 'hours', 'days', 'weeks', 'months'] as const;
type TimeUnit = (typeof TIME_UNITS)[number];

export const WATCHDOG_STATUSES = ['connected', 'failover', 'offline'] as const;
export const ARCHITECTURES = ['x64', 'x86', 'arm64'] as const;

// ---------------------------------------------------------------------------------------------------------------
// SQL assembly

/** Collects bound parameters in the order their `?` appear in the text. */
class Binder {
  readonly params: unknown[] = [];
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
type Expr = (b: Binder) => string;
const column =
  (sql: string): Expr =>
  () =>
    sql;

/** True exactly where `positive` is not true: NULL (an absent value) counts as "not". */
const not = (positive: string) => `(${positive}) IS NOT 1`;

const LIKE_ESCAPE = "ESCAPE '\\'";

interface Leaf {
  field: string;
  operator: string;
  value: unknown;
  path: string;
}

function invalid(leaf: Leaf, message: string): HttpError {
  return badRequest(message, 'INVALID_FILTER', { path: leaf.path });
}

// ---------------------------------------------------------------------------------------------------------------
// Value shapes

function text(leaf: Leaf): string {
  const v = leaf.value;
  if (typeof v !== 'string') throw invalid(leaf, `${leaf.field} ${leaf.operator}: value must be a string`);
  if (v.length > MAX_TEXT)
    throw invalid(leaf, `${leaf.field} ${leaf.operator}: value must be at most ${MAX_TEXT} characters`);
  return v;
}

function textList(leaf: Leaf): string[] {
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

function oneOf(leaf: Leaf, values: readonly string[], v: string): string {
  if (!values.includes(v))
    throw invalid(leaf, `${leaf.field} ${leaf.operator}: value must be one of ${values.join(', ')}`);
  return v;
}

function num(leaf: Leaf, v: unknown = leaf.value, what = 'value'): number {
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw invalid(leaf, `${leaf.field} ${leaf.operator}: ${what} must be a number`);
  return v;
}

function bool(leaf: Leaf): 0 | 1 {
  if (typeof leaf.value !== 'boolean')
    throw invalid(leaf, `${leaf.field} ${leaf.operator}: value must be true or false`);
  return leaf.value ? 1 : 0;
}

function range<T>(leaf: Leaf, parse: (v: unknown, what: string) => T, le: (a: T, b: T) => boolean) {
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
interface DateValue {
  start: string;
  /** First instant after the value (exclusive) for a day; the instant itself for a date-time. */
  end: string;
  wholeDay: boolean;
}

function dateValue(leaf: Leaf, v: unknown = leaf.value, what = 'value'): DateValue {
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
function ago(leaf: Leaf, now: Date): string {
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

// ---------------------------------------------------------------------------------------------------------------
// Regular expressions (`matches`)

/** A quantifier at the start of the text: `*`, `+`, `?`, `{n}`, `{n,}` or `{n,m}`, optionally lazy. */
const QUANTIFIER = /^(?:([*+?])|\{(\d+)(?:(,)(\d*))?\})\??/;

/**
 * The longest value a filter matches against (a custom field's text). A repetition that can take more steps than
 * this is as good as unbounded.
 */
const LONGEST_VALUE = 1000;
/**
 * The worst-case backtracking of a pattern grows with the product of its repetitions' ranges: each unbounded one
 * multiplies the work per start position by the value's length. Two unbounded repetitions (LONGEST_VALUE²) are
 * the most a pattern may hold: a second or two on the longest value in the worst case, tens of milliseconds on a
 * 255-character hostname; REGEXP_BUDGET_MS bounds what many such values add up to.
 */
const MAX_PATTERN_COST = LONGEST_VALUE ** 2;

function quantifierAt(pattern: string, i: number): { length: number; min: number; max: number } | null {
  const m = QUANTIFIER.exec(pattern.slice(i));
  if (!m) return null;
  const [token, symbol, min, comma, max] = m;
  if (symbol === '*') return { length: token.length, min: 0, max: Infinity };
  if (symbol === '+') return { length: token.length, min: 1, max: Infinity };
  if (symbol === '?') return { length: token.length, min: 0, max: 1 };
  const lower = Number(min);
  const upper = comma === undefined ? lower : max === '' ? Infinity : Number(max);
  return { length: token.length, min: lower, max: upper };
}

/** Where the body of a group opening at `i` starts: after `(`, `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!` or `(?<name>`. */
function groupBodyAt(pattern: string, i: number): number {
  if (pattern[i + 1] !== '?') return i + 1;
  if (pattern[i + 2] === '<' && pattern[i + 3] !== '=' && pattern[i + 3] !== '!') {
    const close = pattern.indexOf('>', i + 3);
    return close === -1 ? pattern.length : close + 1;
  }
  return i + (pattern[i + 2] === '<' ? 4 : 3);
}

/**
 * Refuses patterns whose matching time can explode on a short input: a group repeated more than once that holds a
 * repetition or an alternation (`(a+)+`, `(a|ab)*`, `(a|a?){20}`: exponential), repetitions whose ranges multiply
 * beyond MAX_PATTERN_COST (`.*.*.*x`, `\w+\w+\w+!`: polynomial), and back-references. Hostname-style patterns
 * (`^web-\d+$`, `^[a-z]+-\d+$`, `^[0-9A-F]{2}(:[0-9A-F]{2}){5}$`) pass. The check runs on a pattern that already
 * compiled, so its syntax is valid.
 */
function riskyPattern(pattern: string): string | null {
  /** Open groups, outermost first; `variable` once anything inside can match in more than one way. */
  const stack: Array<{ variable: boolean }> = [];
  const markVariable = () => stack.forEach((g) => (g.variable = true));
  let cost = 1;
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    let closed: { variable: boolean } | undefined;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9]/.test(next) || next === 'k') return 'back-references are not supported in filters';
      i += 2;
    } else if (c === '[') {
      // A character class is one atom; `]` right after `[` or `[^` closes it (JavaScript has no literal `[]]`).
      i += pattern[i + 1] === '^' ? 2 : 1;
      while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === '(') {
      stack.push({ variable: false });
      i = groupBodyAt(pattern, i);
      continue;
    } else if (c === ')') {
      closed = stack.pop();
      i++;
    } else if (c === '|') {
      markVariable();
      i++;
      continue;
    } else {
      i++;
    }
    const q = quantifierAt(pattern, i);
    if (!q) continue;
    i += q.length;
    if (closed?.variable && q.max > 1)
      return 'a repeated group may not hold a repetition or an alternation (it can take exponential time)';
    if (q.max === q.min) continue;
    markVariable();
    cost *= Math.min(q.max - q.min + 1, LONGEST_VALUE);
    if (cost > MAX_PATTERN_COST)
      return 'too many repetitions (at most two unbounded ones, such as * or +): it can take too long to match';
  }
  return null;
}

const CASE_INSENSITIVE = '(?i)';
const regexCache = new Map<string, RegExp>();
const REGEX_CACHE_SIZE = 256;

/** Compiles (and caches) a filter pattern; `(?i)` at the start makes it case-insensitive. */
export function filterRegExp(pattern: string): RegExp {
  const cached = regexCache.get(pattern);
  if (cached) return cached;
  const insensitive = pattern.startsWith(CASE_INSENSITIVE);
  const re = new RegExp(
    insensitive ? pattern.slice(CASE_INSENSITIVE.length) : pattern,
    insensitive ? 'i' : '',
  );
  if (regexCache.size >= REGEX_CACHE_SIZE) regexCache.delete(regexCache.keys().next().value!);
  regexCache.set(pattern, re);
  return re;
}

function pattern(leaf: Leaf): string {
  const p = text(leaf);
  if (p.length > MAX_PATTERN)
    throw invalid(leaf, `${leaf.field} matches: the pattern must be at most ${MAX_PATTERN} characters`);
  try {
    filterRegExp(p);
  } catch (err) {
    throw invalid(leaf, `Invalid regular expression for ${leaf.field}: ${(err as Error).message}`);
  }
  const risk = riskyPattern(p);
  if (risk) throw invalid(leaf, `Invalid regular expression for ${leaf.field}: ${risk}`);
  return p;
}

/**
 * Matching time one request may spend. Statements run synchronously on the server's only thread, and a request
 * compiles its filter right before it runs the count and the page, so the budget starts anew with each compiled
 * filter (and with each turn of the event loop, for statements that did not compile one). A pattern that passed
 * riskyPattern is fast per value, but thousands of long values can still add up to seconds.
 */
export const REGEXP_BUDGET_MS = 1500;
let regexpSpentMs = 0;
let regexpTurnOpen = false;

function resetRegexpBudget(): void {
  regexpSpentMs = 0;
  if (regexpTurnOpen) return;
  regexpTurnOpen = true;
  setImmediate(() => (regexpTurnOpen = false));
}

function chargeRegexpTime(ms: number): void {
  if (!regexpTurnOpen) resetRegexpBudget();
  regexpSpentMs += ms;
  if (regexpSpentMs > REGEXP_BUDGET_MS)
    throw badRequest(
      'The regular expression takes too long to evaluate over these devices; narrow the filter or simplify the pattern',
      'FILTER_TOO_EXPENSIVE',
    );
}

const withFunctions = new WeakSet<Db>();

/**
 * Registers the SQL functions compiled filters call (`x REGEXP p` is `regexp(p, x)`). Idempotent; the server
 * registers them once on its connection at start, any other connection (tests, benchmark) calls this first.
 * An error thrown inside the function is rethrown by the statement (better-sqlite3), so a spent budget ends the
 * request as that 400.
 */
export function registerFilterFunctions(db: Db): void {
  if (withFunctions.has(db)) return;
  db.function('regexp', { deterministic: true }, (p: unknown, value: unknown) => {
    if (value === null || value === undefined || typeof p !== 'string') return null;
    const started = performance.now();
    const matched = filterRegExp(p).test(String(value));
    chargeRegexpTime(performance.now() - started);
    return matched ? 1 : 0;
  });
  withFunctions.add(db);
}

// ---------------------------------------------------------------------------------------------------------------
// Operators by type

function compileString(e: Expr, leaf: Leaf, b: Binder): string {
  const like = (value: string) => `${e(b)} LIKE ${b.bind(value)} ${LIKE_ESCAPE}`;
  switch (leaf.operator) {
    case 'equals':
      return `${e(b)} = ${b.bind(text(leaf))}`;
    case 'notEquals':
      return not(`${e(b)} = ${b.bind(text(leaf))}`);
    case 'contains':
      return like(`%${escapeLike(text(leaf))}%`);
    case 'notContains':
      return not(like(`%${escapeLike(text(leaf))}%`));
    case 'startsWith':
      return like(`${escapeLike(text(leaf))}%`);
    case 'endsWith':
      return like(`%${escapeLike(text(leaf))}`);
    case 'matches':
      return `${e(b)} REGEXP ${b.bind(pattern(leaf))}`;
    case 'in':
      return `${e(b)} IN ${b.list(textList(leaf))}`;
    case 'notIn':
      return not(`${e(b)} IN ${b.list(textList(leaf))}`);
    case 'isNull':
      return `${e(b)} IS NULL`;
    default: // isNotNull
      return `${e(b)} IS NOT NULL`;
  }
}

function compileEnum(e: Expr, values: readonly string[], leaf: Leaf, b: Binder): string {
  switch (leaf.operator) {
    case 'equals':
      return `${e(b)} = ${b.bind(oneOf(leaf, values, text(leaf)))}`;
    case 'notEquals':
      return not(`${e(b)} = ${b.bind(oneOf(leaf, values, text(leaf)))}`);
    case 'in':
      return `${e(b)} IN ${b.list(textList(leaf).map((v) => oneOf(leaf, values, v)))}`;
    default: // notIn
      return not(`${e(b)} IN ${b.list(textList(leaf).map((v) => oneOf(leaf, values, v)))}`);
  }
}

function compileDatetime(e: Expr, leaf: Leaf, b: Binder, now: Date): string {
  const equals = (d: DateValue) =>
    d.wholeDay
      ? `(${e(b)} >= ${b.bind(d.start)} AND ${e(b)} < ${b.bind(d.end)})`
      : `${e(b)} = ${b.bind(d.start)}`;
  switch (leaf.operator) {
    case 'equals':
      return equals(dateValue(leaf));
    case 'notEquals':
      return not(equals(dateValue(leaf)));
    case 'before':
      return `${e(b)} < ${b.bind(dateValue(leaf).start)}`;
    case 'after': {
      const d = dateValue(leaf);
      return d.wholeDay ? `${e(b)} >= ${b.bind(d.end)}` : `${e(b)} > ${b.bind(d.end)}`;
    }
    case 'between': {
      const { from, to } = range(
        leaf,
        (v, what) => dateValue(leaf, v, what),
        // `to` as a day runs to its end: 10:00 on 1 March is not after "1 March".
        (a, z) => (z.wholeDay ? a.start < z.end : a.start <= z.end),
      );
      // Built left to right: parameters are bound in the order their placeholders appear.
      const lower = `${e(b)} >= ${b.bind(from.start)}`;
      const upper = to.wholeDay ? `${e(b)} < ${b.bind(to.end)}` : `${e(b)} <= ${b.bind(to.end)}`;
      return `(${lower} AND ${upper})`;
    }
    case 'withinLast':
      return `${e(b)} >= ${b.bind(ago(leaf, now))}`;
    case 'notWithinLast':
      return not(`${e(b)} >= ${b.bind(ago(leaf, now))}`);
    case 'isNull':
      return `${e(b)} IS NULL`;
    default: // isNotNull
      return `${e(b)} IS NOT NULL`;
  }
}

function compileBoolean(e: Expr, leaf: Leaf, b: Binder): string {
  switch (leaf.operator) {
    case 'equals':
      return `${e(b)} = ${b.bind(bool(leaf))}`;
    case 'notEquals':
      return not(`${e(b)} = ${b.bind(bool(leaf))}`);
    case 'isNull':
      return `${e(b)} IS NULL`;
    default: // isNotNull
      return `${e(b)} IS NOT NULL`;
  }
}

function compileNumber(e: Expr, leaf: Leaf, b: Binder, wholeDays = false): string {
  const equals = (n: number) =>
    wholeDays ? `(${e(b)} >= ${b.bind(n)} AND ${e(b)} < ${b.bind(n + 1)})` : `${e(b)} = ${b.bind(n)}`;
  switch (leaf.operator) {
    case 'equals':
      return equals(num(leaf));
    case 'notEquals':
      return not(equals(num(leaf)));
    case 'greaterThan':
      return `${e(b)} > ${b.bind(num(leaf))}`;
    case 'greaterThanOrEquals':
      return `${e(b)} >= ${b.bind(num(leaf))}`;
    case 'lessThan':
      return `${e(b)} < ${b.bind(num(leaf))}`;
    case 'lessThanOrEquals':
      return `${e(b)} <= ${b.bind(num(leaf))}`;
    case 'between': {
      const { from, to } = range(
        leaf,
        (v, what) => num(leaf, v, what),
        (a, z) => a <= z,
      );
      return `(${e(b)} >= ${b.bind(from)} AND ${e(b)} <= ${b.bind(to)})`;
    }
    case 'isNull':
      return `${e(b)} IS NULL`;
    default: // isNotNull
      return `${e(b)} IS NOT NULL`;
  }
}

/** A device-owned child table and its alias in subqueries. */
interface Child {
  table: string;
  alias: string;
}
const TAGS: Child = { table: 'device_tags', alias: 't' };
const SOFTWARE: Child = { table: 'device_software', alias: 's' };
const MEMBERS: Child = { table: 'device_group_members', alias: 'm' };

// Child-table conditions are written as `d.id [NOT] IN (SELECT device_id ...)` rather than correlated EXISTS: the
// subquery does not depend on the device, so SQLite runs it once and probes the set per device. On 50,000
// devices this is two to five times faster than one correlated lookup per device. device_id is never NULL,
// so NOT IN is the exact complement.

/** Devices having at least one child row matching `where` (all child rows when `where` is omitted). */
const having = ({ table, alias }: Child, where?: string) =>
  `d.id IN (SELECT ${alias}.device_id FROM ${table} ${alias}${where ? ` WHERE ${where}` : ''})`;
const lacking = ({ table, alias }: Child, where?: string) =>
  `d.id NOT IN (SELECT ${alias}.device_id FROM ${table} ${alias}${where ? ` WHERE ${where}` : ''})`;

/** SQLite's NOCASE (and lower()) fold ASCII letters only; counting distinct values must fold the same way. */
const asciiFold = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** Devices with a child row for every listed value, compared case-insensitively. */
function hasAll(b: Binder, values: string[], { table, alias }: Child, col: string): string {
  const wanted = new Set(values.map(asciiFold)).size;
  return (
    `d.id IN (SELECT ${alias}.device_id FROM ${table} ${alias} WHERE ${col} COLLATE NOCASE IN ${b.list(values)} ` +
    `GROUP BY ${alias}.device_id HAVING count(DISTINCT lower(${col})) = ${b.bind(wanted)})`
  );
}

function compileTags(leaf: Leaf, b: Binder): string {
  switch (leaf.operator) {
    case 'hasAny':
      return having(TAGS, `t.tag COLLATE NOCASE IN ${b.list(textList(leaf))}`);
    case 'hasAll':
      return hasAll(b, textList(leaf), TAGS, 't.tag');
    case 'isEmpty':
      return lacking(TAGS);
    case 'isNotEmpty':
      return having(TAGS);
    default: // contains
      return having(TAGS, `t.tag LIKE ${b.bind(`%${escapeLike(text(leaf))}%`)} ${LIKE_ESCAPE}`);
  }
}

function compileSoftware(leaf: Leaf, b: Binder, installed: boolean): string {
  const nameLike = () => `s.name LIKE ${b.bind(`%${escapeLike(text(leaf))}%`)} ${LIKE_ESCAPE}`;
  if (!installed) return lacking(SOFTWARE, nameLike()); // software.notInstalled contains
  switch (leaf.operator) {
    case 'contains':
      return having(SOFTWARE, nameLike());
    case 'notContains':
      return lacking(SOFTWARE, nameLike());
    case 'equals':
      return having(SOFTWARE, `s.name = ${b.bind(text(leaf))} COLLATE NOCASE`);
    case 'hasAll':
      return hasAll(b, textList(leaf), SOFTWARE, 's.name');
    default: // in, hasAny: at least one of the names is installed
      return having(SOFTWARE, `s.name COLLATE NOCASE IN ${b.list(textList(leaf))}`);
  }
}

function compileHierarchy(e: Expr, leaf: Leaf, b: Binder): string {
  if (leaf.operator === 'equals') return `${e(b)} = ${b.bind(text(leaf))}`;
  return `${e(b)} IN ${b.list(textList(leaf))}`;
}

function compileGroup(leaf: Leaf, b: Binder): string {
  if (leaf.operator === 'equals') return having(MEMBERS, `m.group_id = ${b.bind(text(leaf))}`);
  return having(MEMBERS, `m.group_id IN ${b.list(textList(leaf))}`);
}

// ---------------------------------------------------------------------------------------------------------------
// The field table

interface FieldSpec {
  type: FilterFieldType;
  operators: readonly string[];
  compile: (leaf: Leaf, b: Binder, now: Date) => string;
}

const stringField = (sql: string): FieldSpec => ({
  type: 'string',
  operators: STRING_OPERATORS,
  compile: (leaf, b) => compileString(column(sql), leaf, b),
});
const enumField = (sql: string, values: readonly string[]): FieldSpec => ({
  type: 'enum',
  operators: ENUM_OPERATORS,
  compile: (leaf, b) => compileEnum(column(sql), values, leaf, b),
});
const datetimeField = (sql: string): FieldSpec => ({
  type: 'datetime',
  operators: DATETIME_OPERATORS,
  compile: (leaf, b, now) => compileDatetime(column(sql), leaf, b, now),
});
const booleanField = (sql: string, operators: readonly string[] = BOOLEAN_OPERATORS): FieldSpec => ({
  type: 'boolean',
  operators,
  compile: (leaf, b) => compileBoolean(column(sql), leaf, b),
});
const numberField = (sql: string): FieldSpec => ({
  type: 'number',
  operators: NUMBER_OPERATORS,
  compile: (leaf, b) => compileNumber(column(sql), leaf, b),
});
/** Fractional days between now and a timestamp, now bound as a parameter so the SQL stays deterministic. */
const daysSinceField = (sql: string): FieldSpec => ({
  type: 'number',
  operators: NUMBER_OPERATORS,
  compile: (leaf, b, now) =>
    compileNumber((bb) => `(julianday(${bb.bind(now.toISOString())}) - julianday(${sql}))`, leaf, b, true),
});

const FIELDS: Readonly<Record<string, FieldSpec>> = {
  // Core
  hostname: stringField('d.hostname'),
  displayName: stringField('d.display_name'),
  agentVersion: stringField('d.agent_version'),
  lastUser: stringField('d.last_user'),
  status: enumField('d.status', DEVICE_STATUSES),
  enrolledAt: datetimeField('d.enrolled_at'),
  lastSeenAt: datetimeField('d.last_seen_at'),
  quarantinedAt: datetimeField('d.quarantined_at'),
  tags: { type: 'array', operators: ARRAY_OPERATORS, compile: (leaf, b) => compileTags(leaf, b) },
  deviceRole: enumField('d.device_role', DEVICE_ROLES),
  isHeadless: booleanField('d.is_headless'),
  uptimeSeconds: numberField('d.uptime_seconds'),
  watchdogStatus: enumField('d.watchdog_status', WATCHDOG_STATUSES),
  // Capability checks
  'patches.pending': booleanField('d.patches_pending', CAPABILITY_OPERATORS),
  'alerts.critical': booleanField('d.alerts_critical', CAPABILITY_OPERATORS),
  'system.rebootRequired': booleanField('d.reboot_required', CAPABILITY_OPERATORS),
  // OS
  osType: enumField('d.os_type', OS_TYPES),
  osVersion: stringField('d.os_version'),
  osBuild: stringField('d.os_build'),
  architecture: enumField('d.architecture', ARCHITECTURES),
  // Hardware
  'hardware.manufacturer': stringField('d.hw_manufacturer'),
  'hardware.model': stringField('d.hw_model'),
  'hardware.serialNumber': stringField('d.hw_serial_number'),
  'hardware.cpuModel': stringField('d.hw_cpu_model'),
  'hardware.gpuModel': stringField('d.hw_gpu_model'),
  'hardware.cpuCores': numberField('d.hw_cpu_cores'),
  'hardware.ramTotalMb': numberField('d.hw_ram_total_mb'),
  'hardware.diskTotalGb': numberField('d.hw_disk_total_gb'),
  // Network
  'network.ipAddress': stringField('d.net_ip_address'),
  'network.publicIp': stringField('d.net_public_ip'),
  'network.macAddress': stringField('d.net_mac_address'),
  lastSeenIp: stringField('d.last_seen_ip'),
  // Metrics
  'metrics.cpuPercent': numberField('d.cpu_percent'),
  'metrics.ramPercent': numberField('d.ram_percent'),
  'metrics.diskPercent': numberField('d.disk_percent'),
  // Software
  'software.installed': {
    type: 'software',
    operators: SOFTWARE_INSTALLED_OPERATORS,
    compile: (leaf, b) => compileSoftware(leaf, b, true),
  },
  'software.notInstalled': {
    type: 'software',
    operators: SOFTWARE_NOT_INSTALLED_OPERATORS,
    compile: (leaf, b) => compileSoftware(leaf, b, false),
  },
  // Hierarchy
  orgId: {
    type: 'hierarchy',
    operators: HIERARCHY_OPERATORS,
    compile: (leaf, b) => compileHierarchy(column('d.org_id'), leaf, b),
  },
  siteId: {
    type: 'hierarchy',
    operators: HIERARCHY_OPERATORS,
    compile: (leaf, b) => compileHierarchy(column('d.site_id'), leaf, b),
  },
  groupId: { type: 'hierarchy', operators: HIERARCHY_OPERATORS, compile: (leaf, b) => compileGroup(leaf, b) },
  // Computed
  daysSinceLastSeen: daysSinceField('d.last_seen_at'),
  daysSinceEnrolled: daysSinceField('d.enrolled_at'),
};

/** The fixed (non-custom) field keys, for documentation and the console's builder. */
export const FILTER_FIELD_KEYS: readonly string[] = Object.keys(FIELDS);

const CUSTOM_PREFIX = 'custom.';
const CUSTOM_OPERATORS: Record<CustomFieldType, readonly string[]> = {
  string: STRING_OPERATORS,
  number: NUMBER_OPERATORS,
  boolean: BOOLEAN_OPERATORS,
  datetime: DATETIME_OPERATORS,
};

/** `custom.<fieldKey>`: the value at the key in the device's custom_fields JSON, the path bound as a parameter. */
function customField(key: string, type: CustomFieldType): FieldSpec {
  const e: Expr = (b) => `json_extract(d.custom_fields, ${b.bind(`$."${key}"`)})`;
  return {
    type,
    operators: CUSTOM_OPERATORS[type],
    compile: (leaf, b, now) => {
      switch (type) {
        case 'number':
          return compileNumber(e, leaf, b);
        case 'boolean':
          return compileBoolean(e, leaf, b);
        case 'datetime':
          return compileDatetime(e, leaf, b, now);
        default:
          return compileString(e, leaf, b);
      }
    },
  };
}

/** A JSON path label is double-quoted and has no escape for `"`; such keys cannot be addressed (or defined). */
const customKeyOk = (key: string) =>
  key.length >= 1 && key.length <= 100 && ![...key].some((c) => c === '"' || c === '\\' || c < ' ');

function fieldFor(leaf: Leaf, customTypes: CustomFieldTypes): FieldSpec {
  const fixed = Object.hasOwn(FIELDS, leaf.field) ? FIELDS[leaf.field] : undefined;
  if (fixed) return fixed;
  if (leaf.field.startsWith(CUSTOM_PREFIX)) {
    const key = leaf.field.slice(CUSTOM_PREFIX.length);
    if (customKeyOk(key)) return customField(key, customTypes.get(key) ?? 'string');
  }
  throw badRequest(`Unknown field: ${leaf.field}`, 'UNKNOWN_FIELD', { path: leaf.path });
}

// ---------------------------------------------------------------------------------------------------------------
// Parsing

const groupShape = z.object({
  operator: z.enum(['AND', 'OR'], { error: 'operator must be AND or OR' }),
  conditions: z
    .array(z.unknown(), { error: 'conditions must be an array' })
    .min(1, 'a group needs at least one condition'),
});
const conditionShape = z.object({
  field: z.string({ error: 'field is required' }).min(1, 'field is required').max(200, 'field is too long'),
  operator: z
    .string({ error: 'operator is required' })
    .min(1, 'operator is required')
    .max(50, 'operator is too long'),
  value: z.unknown().optional(),
});

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function shapeError(path: string, error: z.ZodError): HttpError {
  const issues = error.issues.map((i) => ({
    path: [path, ...i.path].filter((p) => p !== '').join('.'),
    message: i.message,
  }));
  const first = issues[0]!;
  return badRequest(`${first.path}: ${first.message}`, 'VALIDATION_ERROR', { issues });
}

/**
 * Validates a condition group's shape (not its fields: that needs the organizations' custom-field types, see
 * compileFilter). Depth and size are checked on the way down, so a hostile body never recurses further than
 * MAX_FILTER_DEPTH. `path` prefixes messages: `conditions.1.conditions.0.field: field is required`.
 */
export function parseConditionGroup(raw: unknown, path = 'conditions'): FilterConditionGroup {
  let conditions = 0;
  let groups = 0;
  const walk = (node: unknown, at: string, depth: number): FilterConditionGroup => {
    if (depth > MAX_FILTER_DEPTH)
      throw badRequest(
        `${at}: groups may be nested at most ${MAX_FILTER_DEPTH} levels deep`,
        'VALIDATION_ERROR',
      );
    if (++groups > MAX_FILTER_GROUPS)
      throw badRequest(`${path}: a filter may hold at most ${MAX_FILTER_GROUPS} groups`, 'VALIDATION_ERROR');
    if (!isObject(node))
      throw badRequest(`${at}: must be a condition group {operator, conditions}`, 'VALIDATION_ERROR');
    const group = groupShape.safeParse(node);
    if (!group.success) throw shapeError(at, group.error);
    const children = group.data.conditions.map((child, i): FilterCondition | FilterConditionGroup => {
      const childAt = `${at}.conditions.${i}`;
      if (isObject(child) && 'conditions' in child) return walk(child, childAt, depth + 1);
      if (++conditions > MAX_FILTER_CONDITIONS)
        throw badRequest(
          `${path}: a filter may hold at most ${MAX_FILTER_CONDITIONS} conditions`,
          'VALIDATION_ERROR',
        );
      if (!isObject(child))
        throw badRequest(
          `${childAt}: must be a condition {field, operator, value} or a group`,
          'VALIDATION_ERROR',
        );
      const condition = conditionShape.safeParse(child);
      if (!condition.success) throw shapeError(childAt, condition.error);
      const { field, operator, value } = condition.data;
      return value === undefined ? { field, operator } : { field, operator, value };
    });
    return { operator: group.data.operator, conditions: children };
  };
  return walk(raw, path, 1);
}

// ---------------------------------------------------------------------------------------------------------------
// Compiling

export type CustomFieldTypes = ReadonlyMap<string, CustomFieldType>;

export interface CompileOptions {
  /** Types of `custom.<key>` fields (customFieldTypesFor); a key without a definition is a string. */
  customFieldTypes?: CustomFieldTypes;
  /** The instant relative conditions (withinLast, daysSince...) are measured from. */
  now?: Date;
  /** Prefix of error paths, matching parseConditionGroup's. */
  path?: string;
}

export interface CompiledFilter {
  /** A parenthesised boolean SQL expression over `devices d`; AND it into a WHERE clause. */
  sql: string;
  /** Positional parameters for the `?` in `sql`, in order. */
  params: unknown[];
}

/**
 * Compiles a parsed condition group (parseConditionGroup) to SQL. Unknown fields, operators that the field's type
 * does not have, and values of the wrong shape are 400s naming the field. The fragment does not exclude
 * decommissioned devices or apply any scope: the caller adds both.
 */
export function compileFilter(group: FilterConditionGroup, options: CompileOptions = {}): CompiledFilter {
  resetRegexpBudget();
  const b = new Binder();
  const customTypes = options.customFieldTypes ?? new Map<string, CustomFieldType>();
  const now = options.now ?? new Date();
  const compileNode = (node: FilterConditionGroup, at: string): string => {
    const parts = node.conditions.map((child, i) => {
      const childAt = `${at}.conditions.${i}`;
      if ('conditions' in child) return compileNode(child, childAt);
      const leaf: Leaf = { field: child.field, operator: child.operator, value: child.value, path: childAt };
      const spec = fieldFor(leaf, customTypes);
      if (!spec.operators.includes(leaf.operator))
        throw invalid(
          leaf,
          `Operator ${leaf.operator} is not supported for ${leaf.field} (${spec.type}); use one of: ${spec.operators.join(', ')}`,
        );
      return spec.compile(leaf, b, now);
    });
    return `(${parts.join(` ${node.operator} `)})`;
  };
  const sql = compileNode(group, options.path ?? 'conditions');
  return { sql, params: b.params };
}

/**
 * The `custom.<key>` types for filters over these organizations (or every organization with 'all'): definitions
 * of the organizations themselves, of their partners, and global ones. When definitions disagree about a key,
 * the organization's own beats its partner's beats a global one, and among equals the oldest wins, so the same
 * filter always compiles the same way.
 */
export function customFieldTypesFor(db: Db, orgIds: Iterable<string> | 'all'): Map<string, CustomFieldType> {
  registerFilterFunctions(db);
  const ids = orgIds === 'all' ? '[]' : JSON.stringify([...orgIds]);
  const rows = (
    orgIds === 'all'
      ? db
          .prepare(
            `SELECT field_key, type FROM custom_fields
             ORDER BY (org_id IS NULL) + (org_id IS NULL AND partner_id IS NULL), created_at, id`,
          )
          .all()
      : db
          .prepare(
            `SELECT field_key, type FROM custom_fields
             WHERE org_id IN (SELECT value FROM json_each(?))
                OR partner_id IN (SELECT partner_id FROM organizations WHERE id IN (SELECT value FROM json_each(?)))
                OR (org_id IS NULL AND partner_id IS NULL)
             ORDER BY (org_id IS NULL) + (org_id IS NULL AND partner_id IS NULL), created_at, id`,
          )
          .all(ids, ids)
  ) as Array<{ field_key: string; type: CustomFieldType }>;
  const types = new Map<string, CustomFieldType>();
  for (const row of rows) if (!types.has(row.field_key)) types.set(row.field_key, row.type);
  return types;
}
