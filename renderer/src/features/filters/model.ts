// Over 400 lines: one data structure (the condition tree) with its edits and its conversions to and from the API's conditions.
// The builder's working copy of a condition group: every node carries a stable id (React keys, focus) and values
// are kept as the technician typed them (a half-typed number stays a string); `toConditions` turns the tree into
// the wire shape of spec 2 and `problemsOf` says what still stops it from being sent.

import type { FilterCondition, FilterConditionGroup } from '../../../../server/contract';
import { ApiError } from '../../lib/api/client';
import {
  CUSTOM_PREFIX,
  DURATION_UNITS,
  fieldDef,
  operatorsFor,
  valueShape,
  type CustomType,
  type DurationUnit,
  type FieldDef,
  type ValueShape,
} from './fields';

export interface Range {
  from: string;
  to: string;
}

export interface Duration {
  amount: string;
  unit: DurationUnit;
}

export type Draft = null | string | string[] | Range | Duration;

export interface CondNode {
  kind: 'cond';
  id: string;
  field: string;
  operator: string;
  value: Draft;
  /** Only for `custom.*` fields: which operators and editor to offer. */
  customType: CustomType;
}

export interface GroupNode {
  kind: 'group';
  id: string;
  operator: 'AND' | 'OR';
  children: FilterNode[];
}

export type FilterNode = CondNode | GroupNode;

let nextId = 0;
function newId(): string {
  nextId += 1;
  return `n${nextId}`;
}

export function defOf(node: CondNode): FieldDef {
  return (
    fieldDef(node.field, node.customType) ?? {
      key: node.field,
      label: node.field,
      group: '?',
      type: 'string',
    }
  );
}

export function isKnownField(key: string): boolean {
  return fieldDef(key) !== null;
}

export function emptyDraft(shape: ValueShape): Draft {
  switch (shape) {
    case 'none':
      return null;
    case 'enumList':
    case 'list':
    case 'pickList':
      return [];
    case 'numberRange':
    case 'dateRange':
      return { from: '', to: '' };
    case 'duration':
      return { amount: '7', unit: 'days' };
    case 'boolean':
      return 'true';
    default:
      return '';
  }
}

export function newCondition(field = 'hostname'): CondNode {
  const def = fieldDef(field) ?? fieldDef('hostname')!;
  const operator = operatorsFor(def.type)[0] ?? 'equals';
  return {
    kind: 'cond',
    id: newId(),
    field,
    operator,
    value: emptyDraft(valueShape(def, operator)),
    customType: 'string',
  };
}

export function newGroup(operator: 'AND' | 'OR' = 'AND', children?: FilterNode[]): GroupNode {
  return { kind: 'group', id: newId(), operator, children: children ?? [newCondition()] };
}

/** Keeps the value when the new operator edits the same shape; otherwise starts from an empty one. */
export function withOperator(node: CondNode, operator: string): CondNode {
  const def = defOf(node);
  const before = valueShape(def, node.operator);
  const after = valueShape(def, operator);
  if (before === after) return { ...node, operator };
  if (after === 'list' || after === 'enumList' || after === 'pickList') {
    const single = typeof node.value === 'string' && node.value.trim() ? [node.value.trim()] : [];
    return { ...node, operator, value: single };
  }
  if ((after === 'text' || after === 'enum' || after === 'pick') && Array.isArray(node.value)) {
    return { ...node, operator, value: node.value[0] ?? '' };
  }
  return { ...node, operator, value: emptyDraft(after) };
}

export function withField(node: CondNode, field: string, customType: CustomType = node.customType): CondNode {
  const def = fieldDef(field, customType) ?? fieldDef('hostname')!;
  const ops = operatorsFor(def.type);
  const sameType = defOf(node).type === def.type;
  const operator = sameType && ops.includes(node.operator) ? node.operator : (ops[0] ?? 'equals');
  const keep = sameType && defOf(node).options === def.options;
  return {
    ...node,
    field,
    customType,
    operator,
    value: keep ? node.value : emptyDraft(valueShape(def, operator)),
  };
}

// ---- tree edits (immutable) ----------------------------------------------------------------------------------

export function mapNode(root: GroupNode, id: string, fn: (node: FilterNode) => FilterNode): GroupNode {
  if (root.id === id) return fn(root) as GroupNode;
  return {
    ...root,
    children: root.children.map((child) => {
      if (child.id === id) return fn(child);
      return child.kind === 'group' ? mapNode(child, id, fn) : child;
    }),
  };
}

export function removeNode(root: GroupNode, id: string): GroupNode {
  return {
    ...root,
    children: root.children
      .filter((child) => child.id !== id)
      .map((child) => (child.kind === 'group' ? removeNode(child, id) : child)),
  };
}

export function countConditions(node: FilterNode): number {
  return node.kind === 'cond' ? 1 : node.children.reduce((n, c) => n + countConditions(c), 0);
}

// ---- wire shape ------------------------------------------------------------------------------------------------

function localToIso(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

function isoToLocal(value: unknown): string {
  if (typeof value !== 'string' || !value) return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function wireValue(shape: ValueShape, draft: Draft): unknown {
  switch (shape) {
    case 'none':
      return undefined;
    case 'number':
      return Number(String(draft).trim());
    case 'boolean':
      return draft === 'true';
    case 'date':
      return localToIso(String(draft));
    case 'numberRange': {
      const r = draft as Range;
      return { from: Number(r.from), to: Number(r.to) };
    }
    case 'dateRange': {
      const r = draft as Range;
      return { from: localToIso(r.from), to: localToIso(r.to) };
    }
    case 'duration': {
      const d = draft as Duration;
      return { amount: Number(d.amount), unit: d.unit };
    }
    case 'list':
    case 'enumList':
    case 'pickList':
      return Array.isArray(draft) ? draft : [];
    default:
      return typeof draft === 'string' ? draft.trim() : draft;
  }
}

export function toConditions(group: GroupNode): FilterConditionGroup {
  return {
    operator: group.operator,
    conditions: group.children.map((child) => {
      if (child.kind === 'group') return toConditions(child);
      const value = wireValue(valueShape(defOf(child), child.operator), child.value);
      const condition: FilterCondition = { field: child.field, operator: child.operator };
      if (value !== undefined) condition.value = value;
      return condition;
    }),
  };
}

function draftFrom(shape: ValueShape, value: unknown): Draft {
  const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  switch (shape) {
    case 'none':
      return null;
    case 'boolean':
      return value === true || value === 'true' ? 'true' : 'false';
    case 'date':
      return isoToLocal(value);
    case 'numberRange':
    case 'dateRange': {
      const r = (value ?? {}) as { from?: unknown; to?: unknown };
      const conv = shape === 'dateRange' ? isoToLocal : text;
      return { from: conv(r.from), to: conv(r.to) };
    }
    case 'duration': {
      const d = (value ?? {}) as { amount?: unknown; unit?: unknown };
      const unit = DURATION_UNITS.find((u) => u === d.unit) ?? 'days';
      return { amount: text(d.amount), unit };
    }
    case 'list':
    case 'enumList':
    case 'pickList':
      return Array.isArray(value)
        ? value.map(text)
        : value === undefined || value === null
          ? []
          : [text(value)];
    default:
      return text(value);
  }
}

/** Guesses how a saved `custom.*` condition was meant from its operator and value. */
function inferCustomType(operator: string, value: unknown): CustomType {
  if (['greaterThan', 'greaterThanOrEquals', 'lessThan', 'lessThanOrEquals'].includes(operator))
    return 'number';
  if (['before', 'after', 'withinLast', 'notWithinLast'].includes(operator)) return 'datetime';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return 'number';
  if (operator === 'between') {
    const from = (value as { from?: unknown } | null)?.from;
    return typeof from === 'number' ? 'number' : 'datetime';
  }
  return 'string';
}

function isGroup(value: unknown): value is FilterConditionGroup {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as { conditions?: unknown }).conditions)
  );
}

export function fromConditions(group: FilterConditionGroup): GroupNode {
  return {
    kind: 'group',
    id: newId(),
    operator: group.operator === 'OR' ? 'OR' : 'AND',
    children: group.conditions.map((c): FilterNode => {
      if (isGroup(c)) return fromConditions(c);
      const customType = c.field.startsWith(CUSTOM_PREFIX) ? inferCustomType(c.operator, c.value) : 'string';
      const def = fieldDef(c.field, customType) ?? {
        key: c.field,
        label: c.field,
        group: '?',
        type: 'string',
      };
      return {
        kind: 'cond',
        id: newId(),
        field: c.field,
        operator: c.operator,
        customType,
        value: draftFrom(valueShape(def, c.operator), c.value),
      };
    }),
  };
}

// ---- problems -------------------------------------------------------------------------------------------------

const CUSTOM_KEY = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/;

export interface Problem {
  message: string;
  /** Nothing entered yet (shown only once the technician tries to use the filter), as opposed to wrong. */
  incomplete?: boolean;
}

const missing = (message: string): Problem => ({ message, incomplete: true });
const wrong = (message: string): Problem => ({ message });

function conditionProblem(node: CondNode): Problem | null {
  if (node.field.startsWith(CUSTOM_PREFIX)) {
    if (!CUSTOM_KEY.test(node.field.slice(CUSTOM_PREFIX.length)))
      return node.field === CUSTOM_PREFIX
        ? missing('Name the custom field.')
        : wrong('A custom field name uses letters, digits, _ . and -.');
  } else if (!isKnownField(node.field)) {
    return wrong('Unknown field');
  }
  const def = defOf(node);
  if (!operatorsFor(def.type).includes(node.operator))
    return wrong(`“${node.operator}” does not apply to this field.`);
  const shape = valueShape(def, node.operator);
  const v = node.value;
  switch (shape) {
    case 'none':
    case 'boolean':
      return null;
    case 'text':
    case 'enum':
    case 'pick': {
      const text = typeof v === 'string' ? v.trim() : '';
      if (!text) return missing(shape === 'text' ? 'Enter a value.' : 'Choose a value.');
      if (node.operator === 'matches') {
        try {
          new RegExp(text);
        } catch {
          return wrong('Not a valid regular expression.');
        }
      }
      return null;
    }
    case 'number':
      if (typeof v !== 'string' || v.trim() === '') return missing('Enter a number.');
      return Number.isFinite(Number(v)) ? null : wrong('Enter a number.');
    case 'date':
      if (typeof v !== 'string' || !v) return missing('Pick a date and time.');
      return Number.isNaN(new Date(v).getTime()) ? wrong('Pick a date and time.') : null;
    case 'list':
    case 'enumList':
    case 'pickList':
      return Array.isArray(v) && v.length > 0 ? null : missing('Add at least one value.');
    case 'numberRange': {
      const r = v as Range;
      const from = Number(r.from);
      const to = Number(r.to);
      if (r.from.trim() === '' || r.to.trim() === '') return missing('Enter both ends of the range.');
      if (!Number.isFinite(from) || !Number.isFinite(to)) return wrong('Both ends must be numbers.');
      return from > to ? wrong('“From” must not be greater than “to”.') : null;
    }
    case 'dateRange': {
      const r = v as Range;
      const from = new Date(r.from).getTime();
      const to = new Date(r.to).getTime();
      if (!r.from || !r.to) return missing('Pick both dates.');
      if (Number.isNaN(from) || Number.isNaN(to)) return wrong('Pick both dates.');
      return from > to ? wrong('“From” must be before “to”.') : null;
    }
    case 'duration': {
      const d = v as Duration;
      const n = Number(d.amount);
      if (d.amount.trim() === '') return missing('Enter an amount.');
      return Number.isInteger(n) && n > 0 ? null : wrong('Enter a whole number above zero.');
    }
  }
}

/** Problems by node id; a group without conditions is one too (the server refuses empty groups). */
export function problemsOf(root: GroupNode): Map<string, Problem> {
  const out = new Map<string, Problem>();
  const walk = (node: FilterNode) => {
    if (node.kind === 'group') {
      if (node.children.length === 0) out.set(node.id, wrong('A group needs at least one condition.'));
      node.children.forEach(walk);
      return;
    }
    const problem = conditionProblem(node);
    if (problem) out.set(node.id, problem);
  };
  walk(root);
  return out;
}

/**
 * Server errors placed on the nodes they concern: a VALIDATION_ERROR's `conditions.conditions.2.value` path goes
 * to that condition, and an "Unknown field" message to every condition using the field it names. What cannot be
 * placed is returned as `general`.
 */
export function placeServerError(
  root: GroupNode,
  err: unknown,
): { byNode: Map<string, string>; general: string | null } {
  const byNode = new Map<string, string>();
  if (!(err instanceof ApiError))
    return { byNode, general: err instanceof Error ? err.message : String(err) };
  const paths = new Map<string, string>();
  const walk = (node: FilterNode, path: string) => {
    paths.set(path, node.id);
    if (node.kind === 'group') node.children.forEach((c, i) => walk(c, `${path}.conditions.${i}`));
  };
  walk(root, 'conditions');
  const place = (path: string, message: string): boolean => {
    const segments = path.split('.');
    for (let n = segments.length; n > 0; n -= 1) {
      const id = paths.get(segments.slice(0, n).join('.'));
      if (id && id !== root.id) {
        if (!byNode.has(id)) byNode.set(id, message);
        return true;
      }
    }
    return false;
  };
  let placed = false;
  // UNKNOWN_FIELD and INVALID_FILTER name the condition in `path`; VALIDATION_ERROR lists `issues`.
  const bodyPath = err.body?.path;
  if (typeof bodyPath === 'string') placed = place(bodyPath, err.message);
  const issues = err.body?.issues;
  if (Array.isArray(issues)) {
    for (const issue of issues as Array<{ path?: unknown; message?: unknown }>) {
      if (
        typeof issue.path === 'string' &&
        typeof issue.message === 'string' &&
        place(issue.path, issue.message)
      )
        placed = true;
    }
  }
  if (!placed) {
    const match = /^([\w.]+):\s*(.+)$/.exec(err.message);
    if (match?.[1]?.startsWith('conditions')) placed = place(match[1], match[2] ?? err.message);
  }
  if (!placed && /unknown field/i.test(err.message)) {
    const walkFields = (node: FilterNode) => {
      if (node.kind === 'group') return node.children.forEach(walkFields);
      if (err.message.includes(node.field)) {
        byNode.set(node.id, err.message);
        placed = true;
      }
    };
    walkFields(root);
  }
  return { byNode, general: placed ? null : err.message };
}
