import {
  AUDIT_CATEGORIES,
  AUDIT_RESULTS,
  type AuditCategory,
  type AuditChanges,
  type AuditChainProblem,
  type AuditFilterQuery,
  type AuditResult,
  type AuditRowRef,
} from '../../../../server/contract';
import { localToIso } from '../../lib/dates';

// The audit screens without their React (and without the kit, so node tests can load it): labels of categories
// and results, the log's filters as the API's query, the words for what a chain verification found, and the
// field-by-field diff of a change.

export const CATEGORY_LABEL: Record<AuditCategory, string> = {
  authentication: 'Authentication',
  device: 'Device',
  automation: 'Automation',
  policy: 'Policy',
  alert: 'Alert',
  compliance: 'Compliance',
  organization: 'Organization',
  system: 'System',
};
export const CATEGORIES: readonly AuditCategory[] = AUDIT_CATEGORIES;

export const RESULT_LABEL: Record<AuditResult, string> = {
  success: 'Success',
  failure: 'Failure',
  denied: 'Denied',
};
export const RESULTS: readonly AuditResult[] = AUDIT_RESULTS;

/**
 * What the technician typed and picked above the log, as the controls hold it (date bounds as `datetime-local`
 * values, '' for "any"); queryOf turns it into the API's query.
 */
export interface LogFilters {
  text: string;
  user: string;
  action: string;
  resource: string;
  result: string;
  category: string;
  from: string;
  to: string;
  orgId: string;
}

/** `value` when it is one of `options` (the pickers offer nothing else), else undefined. */
function oneOf<V extends string>(options: readonly V[], value: string): V | undefined {
  return (options as readonly string[]).includes(value) ? (value as V) : undefined;
}

export const NO_FILTERS: LogFilters = {
  text: '',
  user: '',
  action: '',
  resource: '',
  result: '',
  category: '',
  from: '',
  to: '',
  orgId: '',
};

/** The filters as the API reads them, and the free text (`q`: the search endpoint) apart; unset fields left out. */
export function queryOf(f: LogFilters): { filters: AuditFilterQuery; q: string } {
  const filters: AuditFilterQuery = {};
  const set = <K extends keyof AuditFilterQuery>(key: K, value: AuditFilterQuery[K] | '' | undefined) => {
    if (value) filters[key] = value;
  };
  set('user', f.user.trim());
  set('action', f.action.trim());
  set('resource', f.resource.trim());
  set('result', oneOf(RESULTS, f.result));
  set('category', oneOf(CATEGORIES, f.category));
  set('from', localToIso(f.from));
  set('to', localToIso(f.to));
  set('orgId', f.orgId);
  return { filters, q: f.text.trim() };
}

/** True when any filter narrows the log. */
export function filtered(f: LogFilters): boolean {
  return (Object.keys(NO_FILTERS) as Array<keyof LogFilters>).some((k) => f[k] !== NO_FILTERS[k]);
}

/** A row as a verification names it: "#42 role.update". */
export function rowName(row: AuditRowRef): string {
  return `#${row.seq} ${row.action}`;
}

/** One sentence for a problem a verification found: what happened to which row. */
export function problemText(p: AuditChainProblem): string {
  switch (p.reason) {
    case 'checksum_mismatch':
      return 'A row was edited after it was written: its content no longer matches its checksum.';
    case 'chain_broken':
      return 'Rows were removed (or a row was rewritten with a new checksum): a row no longer links to the one before it.';
    case 'head_mismatch':
      return 'The newest rows were removed, or the chain head was changed: the head names a row that is not there.';
    case 'anchor_mismatch':
      return 'Rows were removed at the start: the first kept row does not link to the retention anchor.';
  }
}

/** How a field of `changes` moved: it appeared, it went, or its value changed. */
export type ChangeKind = 'added' | 'removed' | 'changed';

export interface FieldChange {
  field: string;
  kind: ChangeKind;
  before: unknown;
  after: unknown;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The fields of an entry's before/after that differ, sorted by name, and how many were recorded unchanged. */
export function diffFields(changes: AuditChanges): { rows: FieldChange[]; unchanged: number } {
  const before = changes.before ?? {};
  const after = changes.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const rows: FieldChange[] = [];
  let unchanged = 0;
  for (const field of fields) {
    const had = Object.hasOwn(before, field);
    const has = Object.hasOwn(after, field);
    const b = before[field];
    const a = after[field];
    if (had && has && same(b, a)) unchanged += 1;
    else rows.push({ field, kind: !had ? 'added' : !has ? 'removed' : 'changed', before: b, after: a });
  }
  return { rows, unchanged };
}
