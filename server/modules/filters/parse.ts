import { z } from 'zod';
import type { FilterCondition, FilterConditionGroup } from '../../contract/filters';
import { badRequest, type HttpError } from '../../http/errors';
import { MAX_FILTER_CONDITIONS, MAX_FILTER_DEPTH, MAX_FILTER_GROUPS } from './vocabulary';

// A condition group's shape, checked before anything is compiled: a hostile body is refused on the way down
// (depth, number of groups and conditions) before it can make the server recurse or allocate much.

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
