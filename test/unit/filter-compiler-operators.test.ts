import { describe, expect, it } from 'vitest';
import { compileFilter, parseConditionGroup } from '../../server/modules/filters/compile';
import { NOW, TYPES, one, compile, runs, type Case, LIKE, useCompilerDb } from '../support/filter-compiler';
import { STRING_CASES, ENUM_CASES, DATETIME_CASES } from '../support/filter-sql-cases-text';
import {
  ARRAY_CASES,
  BOOLEAN_CASES,
  NUMBER_CASES,
  COMPUTED_CASES,
  SOFTWARE_CASES,
  HIERARCHY_CASES,
  CUSTOM_CASES,
  CUSTOM,
} from '../support/filter-sql-cases-other';

// The compiler's output for every operator of every field type: the SQL shape and its bound parameters, and that
// the SQL runs. What the SQL selects is asserted against a seeded fleet in test/integration/filters-preview.test.ts.

useCompilerDb();

describe('compileFilter: every operator of every field type', () => {
  const groups: Array<[string, Case[]]> = [
    ['string', STRING_CASES],
    ['enum', ENUM_CASES],
    ['datetime', DATETIME_CASES],
    ['array', ARRAY_CASES],
    ['boolean and capability checks', BOOLEAN_CASES],
    ['number', NUMBER_CASES],
    ['computed', COMPUTED_CASES],
    ['software', SOFTWARE_CASES],
    ['hierarchy', HIERARCHY_CASES],
    ['custom', CUSTOM_CASES],
  ];
  for (const [type, cases] of groups) {
    describe(type, () => {
      for (const c of cases) {
        it(`${c.field} ${c.operator} ${c.value === undefined ? '' : JSON.stringify(c.value)}`, () => {
          const compiled = compile({ field: c.field, operator: c.operator, value: c.value });
          expect(compiled).toEqual({ sql: `(${c.sql})`, params: c.params });
          runs(compiled);
        });
      }
    });
  }

  it('covers each operator the spec lists for each type', () => {
    const seen = (cases: Case[]) => new Set(cases.map((c) => c.operator));
    expect([...seen(STRING_CASES)].sort()).toEqual(
      [
        'contains',
        'endsWith',
        'equals',
        'in',
        'isNotNull',
        'isNull',
        'matches',
        'notContains',
        'notEquals',
        'notIn',
        'startsWith',
      ].sort(),
    );
    expect([...seen(ENUM_CASES)].sort()).toEqual(['equals', 'in', 'notEquals', 'notIn']);
    expect([...seen(DATETIME_CASES)].sort()).toEqual(
      [
        'after',
        'before',
        'between',
        'equals',
        'isNotNull',
        'isNull',
        'notEquals',
        'notWithinLast',
        'withinLast',
      ].sort(),
    );
    expect([...seen(ARRAY_CASES)].sort()).toEqual(['contains', 'hasAll', 'hasAny', 'isEmpty', 'isNotEmpty']);
    expect([...seen(BOOLEAN_CASES)].sort()).toEqual(['equals', 'isNotNull', 'isNull', 'notEquals']);
    expect([...seen(NUMBER_CASES)].sort()).toEqual(
      [
        'between',
        'equals',
        'greaterThan',
        'greaterThanOrEquals',
        'isNotNull',
        'isNull',
        'lessThan',
        'lessThanOrEquals',
        'notEquals',
      ].sort(),
    );
    expect([...seen(SOFTWARE_CASES)].sort()).toEqual([
      'contains',
      'equals',
      'hasAll',
      'hasAny',
      'in',
      'notContains',
    ]);
    expect([...seen(HIERARCHY_CASES)].sort()).toEqual(['equals', 'in']);
  });

  it('joins nested groups with their operators and binds parameters in text order', () => {
    const compiled = compileFilter(
      parseConditionGroup({
        operator: 'OR',
        conditions: [
          { field: 'hostname', operator: 'startsWith', value: 'web' },
          {
            operator: 'AND',
            conditions: [
              { field: 'osType', operator: 'equals', value: 'linux' },
              { operator: 'OR', conditions: [{ field: 'custom.rack', operator: 'equals', value: 2 }] },
            ],
          },
        ],
      }),
      { customFieldTypes: TYPES, now: NOW },
    );
    expect(compiled).toEqual({
      sql: `(d.hostname LIKE ? ${LIKE} OR (d.os_type = ? AND (${CUSTOM} = ?)))`,
      params: ['web%', 'linux', '$."rack"', 2],
    });
    runs(compiled);
  });

  it('treats custom keys without a definition as strings', () => {
    expect(
      compileFilter(parseConditionGroup(one({ field: 'custom.rack', operator: 'contains', value: '1' }))),
    ).toEqual({
      sql: `(${CUSTOM} LIKE ? ${LIKE})`,
      params: ['$."rack"', '%1%'],
    });
  });
});
