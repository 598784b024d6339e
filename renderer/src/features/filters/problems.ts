import { ApiError } from '../../lib/api/client';
import { CUSTOM_PREFIX, operatorsFor, valueShape } from './fields';
import {
  defOf,
  isKnownField,
  type CondNode,
  type Duration,
  type FilterNode,
  type GroupNode,
  type Range,
} from './model';

// What still stops the builder's tree (model.ts) from being sent, by node, and where a server refusal belongs.

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
