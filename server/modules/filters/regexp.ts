import type { Db } from '../../db/connection';
import { badRequest } from '../../http/errors';
import { invalid, text, type Leaf } from './leaf';
import { MAX_PATTERN } from './vocabulary';

// `matches`: JavaScript regular expressions run inside SQLite (the `regexp` function) on the server's only
// thread, so a pattern that can take exponential or high polynomial time is refused up front, and the time one
// request spends matching is bounded (REGEXP_BUDGET_MS).

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

export function quantifierAt(
  pattern: string,
  i: number,
): { length: number; min: number; max: number } | null {
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

/** At the start of a filter pattern: match without case. */
export const CASE_INSENSITIVE = '(?i)';
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

export function pattern(leaf: Leaf): string {
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

export function resetRegexpBudget(): void {
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
