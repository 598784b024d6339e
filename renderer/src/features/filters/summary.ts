import type { FilterCondition, FilterConditionGroup } from '../../../../server/contract';
import { OPERATOR_LABELS, fieldDef } from './fields';

// One line of text for a condition group: `Hostname contains "web" and (Status is online or …)`.

function valueText(value: unknown, names: (id: string) => string | null): string {
  if (value === undefined) return '';
  if (Array.isArray(value)) return `[${value.map((v) => valueText(v, names)).join(', ')}]`;
  if (value && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if ('amount' in v) return `${String(v.amount)} ${String(v.unit)}`;
    if ('from' in v) return `${valueText(v.from, names)} – ${valueText(v.to, names)}`;
    return JSON.stringify(value);
  }
  if (typeof value === 'string') {
    const named = names(value);
    if (named) return named;
    if (/^\d{4}-\d{2}-\d{2}T/.test(value)) return value.slice(0, 16).replace('T', ' ');
    return `“${value}”`;
  }
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

function isGroup(c: FilterCondition | FilterConditionGroup): c is FilterConditionGroup {
  return Array.isArray((c as FilterConditionGroup).conditions);
}

export function summarize(
  group: FilterConditionGroup,
  names: (id: string) => string | null = () => null,
): string {
  const joiner = group.operator === 'OR' ? ' or ' : ' and ';
  return group.conditions
    .map((c) => {
      if (isGroup(c)) return `(${summarize(c, names)})`;
      const label = fieldDef(c.field)?.label ?? c.field;
      const op = OPERATOR_LABELS[c.operator] ?? c.operator;
      const value = valueText(c.value, names);
      return value ? `${label} ${op} ${value}` : `${label} ${op}`;
    })
    .join(joiner);
}
