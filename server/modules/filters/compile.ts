import type { CustomFieldType, FilterConditionGroup } from '../../contract/filters';
import type { Db } from '../../db/connection';
import { fieldFor, type CustomFieldTypes } from './fields';
import { Binder, invalid, type ChildForm, type Leaf } from './leaf';
import { registerFilterFunctions, resetRegexpBudget } from './regexp';
import { customFieldDefinitions } from './store';

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
//
// The compiler's parts: the vocabulary (vocabulary.ts), shape checks (parse.ts), a condition's values (leaf.ts),
// `matches` (regexp.ts), each operator's SQL (operators.ts) and the field table (fields.ts).

export { parseConditionGroup } from './parse';
export { filterRegExp, registerFilterFunctions, REGEXP_BUDGET_MS } from './regexp';
export { FILTER_FIELD_KEYS, type CustomFieldTypes } from './fields';
export { MAX_FILTER_CONDITIONS, MAX_FILTER_DEPTH, MAX_FILTER_GROUPS } from './vocabulary';

export interface CompileOptions {
  /** Types of `custom.<key>` fields (customFieldTypesFor); a key without a definition is a string. */
  customFieldTypes?: CustomFieldTypes;
  /** The instant relative conditions (withinLast, daysSince...) are measured from. */
  now?: Date;
  /** Prefix of error paths, matching parseConditionGroup's. */
  path?: string;
  /** How tag, software and group conditions are written (ChildForm); 'set' unless told. */
  childForm?: ChildForm;
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
  const childForm = options.childForm ?? 'set';
  const customTypes = options.customFieldTypes ?? new Map<string, CustomFieldType>();
  const now = options.now ?? new Date();
  const compileNode = (node: FilterConditionGroup, at: string, b: Binder): string => {
    // Children are compiled in their order (so the first invalid one is the one reported), each with its own
    // parameters; an AND group then tests regular expressions last. SQLite stops at the first false term of an
    // AND, so the pattern only runs on devices the other conditions let through, and the result is the same.
    const parts = node.conditions.map((child, i) => {
      const childAt = `${at}.conditions.${i}`;
      const own = new Binder(childForm);
      if ('conditions' in child)
        return { sql: compileNode(child, childAt, own), own, slow: hasPattern(child) };
      const leaf: Leaf = { field: child.field, operator: child.operator, value: child.value, path: childAt };
      const spec = fieldFor(leaf, customTypes);
      if (!spec.operators.includes(leaf.operator))
        throw invalid(
          leaf,
          `Operator ${leaf.operator} is not supported for ${leaf.field} (${spec.type}); use one of: ${spec.operators.join(', ')}`,
        );
      return { sql: spec.compile(leaf, own, now), own, slow: leaf.operator === 'matches' };
    });
    const ordered =
      node.operator === 'AND' ? [...parts.filter((p) => !p.slow), ...parts.filter((p) => p.slow)] : parts;
    for (const p of ordered) b.params.push(...p.own.params);
    return `(${ordered.map((p) => p.sql).join(` ${node.operator} `)})`;
  };
  const b = new Binder(childForm);
  const sql = compileNode(group, options.path ?? 'conditions', b);
  return { sql, params: b.params };
}

/** Whether a group runs a regular expression anywhere inside it. */
function hasPattern(group: FilterConditionGroup): boolean {
  return group.conditions.some((c) => ('conditions' in c ? hasPattern(c) : c.operator === 'matches'));
}

/**
 * The `custom.<key>` types for filters over these organizations (or every organization with 'all'): definitions
 * of the organizations themselves, of their partners, and global ones. When definitions disagree about a key,
 * the organization's own beats its partner's beats a global one, and among equals the oldest wins, so the same
 * filter always compiles the same way.
 */
export function customFieldTypesFor(db: Db, orgIds: Iterable<string> | 'all'): Map<string, CustomFieldType> {
  registerFilterFunctions(db);
  const types = new Map<string, CustomFieldType>();
  for (const row of customFieldDefinitions(db, orgIds))
    if (!types.has(row.field_key)) types.set(row.field_key, row.type);
  return types;
}
