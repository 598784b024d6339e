// The builder's working copy of a condition group: every node carries a stable id (React keys, focus) and values
// are kept as the technician typed them (a half-typed number stays a string); `toConditions` turns the tree into
// the wire shape of spec 2 (problems.ts says what still stops it from being sent).

import {
  TIME_UNITS,
  type FilterCondition,
  type FilterConditionGroup,
  type TimeUnit,
} from '../../../../server/contract';
import {
  CUSTOM_PREFIX,
  fieldDef,
  operatorsFor,
  valueShape,
  type CustomType,
  type FieldDef,
  type ValueShape,
} from './fields';

export interface Range {
  from: string;
  to: string;
}

export interface Duration {
  amount: string;
  unit: TimeUnit;
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
      const unit = TIME_UNITS.find((u) => u === d.unit) ?? 'days';
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
