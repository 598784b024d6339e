import { describe, expect, it } from 'vitest';
import {
  MAX_FILTER_CONDITIONS,
  MAX_FILTER_DEPTH,
  parseConditionGroup,
} from '../../server/modules/filters/compile';
import { refusal } from '../support/filter-compiler';

// parseConditionGroup: the shape of a condition group, its depth and size limits, and the paths its messages name.

describe('parseConditionGroup', () => {
  const deep = (levels: number): unknown => {
    let node: unknown = { field: 'hostname', operator: 'isNotNull' };
    for (let i = 0; i < levels; i++) node = { operator: 'AND', conditions: [node] };
    return node;
  };

  it('accepts nesting up to the depth guard and refuses one level more', () => {
    expect(() => parseConditionGroup(deep(MAX_FILTER_DEPTH))).not.toThrow();
    expect(refusal(() => parseConditionGroup(deep(MAX_FILTER_DEPTH + 1)))).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      message: expect.stringMatching(/groups may be nested at most 32 levels deep$/),
    });
    // A hostile body far deeper than the guard stops at the guard instead of exhausting the stack.
    expect(refusal(() => parseConditionGroup(deep(100_000))).status).toBe(400);
  });

  it('caps the number of conditions', () => {
    const many = (n: number) => ({
      operator: 'OR',
      conditions: Array.from({ length: n }, () => ({ field: 'hostname', operator: 'isNull' })),
    });
    expect(() => parseConditionGroup(many(MAX_FILTER_CONDITIONS))).not.toThrow();
    expect(refusal(() => parseConditionGroup(many(MAX_FILTER_CONDITIONS + 1))).message).toBe(
      'conditions: a filter may hold at most 500 conditions',
    );
  });

  it('answers shape errors with the path of the offending node', () => {
    const cases: Array<[unknown, string]> = [
      [undefined, 'conditions: must be a condition group {operator, conditions}'],
      [[], 'conditions: must be a condition group {operator, conditions}'],
      [{ operator: 'XOR', conditions: [] }, 'conditions.operator: operator must be AND or OR'],
      [{ operator: 'AND', conditions: [] }, 'conditions.conditions: a group needs at least one condition'],
      [{ operator: 'AND', conditions: 'x' }, 'conditions.conditions: conditions must be an array'],
      [
        { operator: 'AND', conditions: [7] },
        'conditions.conditions.0: must be a condition {field, operator, value} or a group',
      ],
      [
        { operator: 'AND', conditions: [{ operator: 'equals', value: 1 }] },
        'conditions.conditions.0.field: field is required',
      ],
      [
        { operator: 'AND', conditions: [{ operator: 'OR', conditions: [{ field: 'hostname' }] }] },
        'conditions.conditions.0.conditions.0.operator: operator is required',
      ],
    ];
    for (const [raw, message] of cases) {
      expect(
        refusal(() => parseConditionGroup(raw)),
        JSON.stringify(raw),
      ).toMatchObject({ status: 400, message });
    }
  });

  it('keeps only field, operator and value', () => {
    expect(
      parseConditionGroup({
        operator: 'AND',
        extra: 1,
        conditions: [
          { field: 'tags', operator: 'isEmpty', junk: true },
          { field: 'hostname', operator: 'equals', value: 'a' },
        ],
      }),
    ).toEqual({
      operator: 'AND',
      conditions: [
        { field: 'tags', operator: 'isEmpty' },
        { field: 'hostname', operator: 'equals', value: 'a' },
      ],
    });
  });
});
