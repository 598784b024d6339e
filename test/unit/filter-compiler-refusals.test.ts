import { describe, expect, it } from 'vitest';
import type { FilterCondition } from '../../server/contract/filters';
import { compile, refusal } from '../support/filter-compiler';

// What the compiler refuses (unknown fields, operators a type lacks, values of the wrong shape, risky patterns) and
// how it names the condition at fault.

describe('compileFilter: refusals', () => {
  it('names an unknown field', () => {
    for (const field of ['Hostname', 'hardware', 'custom.', 'custom.a"b', 'toString', '__proto__']) {
      expect(refusal(() => compile({ field, operator: 'equals', value: 'x' }))).toEqual({
        status: 400,
        message: `Unknown field: ${field}`,
        code: 'UNKNOWN_FIELD',
        extra: { path: 'conditions.conditions.0' },
      });
    }
  });

  it('refuses an operator the field type does not have, listing the allowed ones', () => {
    expect(refusal(() => compile({ field: 'status', operator: 'contains', value: 'on' }))).toMatchObject({
      status: 400,
      message:
        'Operator contains is not supported for status (enum); use one of: equals, notEquals, in, notIn',
    });
    expect(refusal(() => compile({ field: 'patches.pending', operator: 'isNull' })).message).toBe(
      'Operator isNull is not supported for patches.pending (boolean); use one of: equals, notEquals',
    );
    expect(
      refusal(() => compile({ field: 'software.notInstalled', operator: 'equals', value: 'x' })).status,
    ).toBe(400);
    expect(refusal(() => compile({ field: 'groupId', operator: 'notEquals', value: 'x' })).status).toBe(400);
    expect(
      refusal(() => compile({ field: 'custom.rack', operator: 'contains', value: '1' })).message,
    ).toMatch(/not supported for custom.rack \(number\)/);
  });

  it('refuses values of the wrong shape with the field in the message', () => {
    const bad: Array<[FilterCondition, string]> = [
      [{ field: 'hostname', operator: 'equals', value: 5 }, 'hostname equals: value must be a string'],
      [{ field: 'hostname', operator: 'equals' }, 'hostname equals: value must be a string'],
      [
        { field: 'hostname', operator: 'in', value: [] },
        'hostname in: value must be a non-empty array of strings',
      ],
      [
        { field: 'hostname', operator: 'in', value: 'a' },
        'hostname in: value must be a non-empty array of strings',
      ],
      [
        { field: 'status', operator: 'equals', value: 'gone' },
        'status equals: value must be one of online, offline, maintenance, quarantined, decommissioned',
      ],
      [
        { field: 'osType', operator: 'in', value: ['linux', 'bsd'] },
        'osType in: value must be one of windows, macos, linux',
      ],
      [
        { field: 'uptimeSeconds', operator: 'greaterThan', value: '5' },
        'uptimeSeconds greaterThan: value must be a number',
      ],
      [
        { field: 'isHeadless', operator: 'equals', value: 'true' },
        'isHeadless equals: value must be true or false',
      ],
      [
        { field: 'metrics.cpuPercent', operator: 'between', value: [1, 2] },
        'metrics.cpuPercent between: value must be {from, to}',
      ],
      [
        { field: 'metrics.cpuPercent', operator: 'between', value: { from: 5, to: 1 } },
        'metrics.cpuPercent between: from must not be after to',
      ],
      [
        { field: 'metrics.cpuPercent', operator: 'between', value: { from: 5, to: 'x' } },
        'metrics.cpuPercent between: to must be a number',
      ],
      [
        { field: 'lastSeenAt', operator: 'before', value: 'yesterday' },
        'lastSeenAt before: value must be an ISO 8601 date (YYYY-MM-DD) or date-time with a time zone',
      ],
      [
        { field: 'lastSeenAt', operator: 'before', value: '2026-02-30' },
        'lastSeenAt before: value must be an ISO 8601 date (YYYY-MM-DD) or date-time with a time zone',
      ],
      [
        { field: 'lastSeenAt', operator: 'before', value: '2026-02-03T10:00:00' },
        'lastSeenAt before: value must be an ISO 8601 date (YYYY-MM-DD) or date-time with a time zone',
      ],
      [
        { field: 'lastSeenAt', operator: 'between', value: { from: '2026-03-02', to: '2026-03-01' } },
        'lastSeenAt between: from must not be after to',
      ],
      [
        { field: 'lastSeenAt', operator: 'withinLast', value: { amount: 0, unit: 'days' } },
        'lastSeenAt withinLast: value must be {amount, unit} with a whole amount from 1 to 100000 and unit minutes, hours, days, weeks, months',
      ],
      [
        { field: 'lastSeenAt', operator: 'withinLast', value: { amount: 2, unit: 'years' } },
        'lastSeenAt withinLast: value must be {amount, unit} with a whole amount from 1 to 100000 and unit minutes, hours, days, weeks, months',
      ],
      [
        { field: 'tags', operator: 'hasAll', value: [1] },
        'tags hasAll: value must be a non-empty array of strings',
      ],
      [
        { field: 'software.installed', operator: 'contains', value: null },
        'software.installed contains: value must be a string',
      ],
    ];
    for (const [condition, message] of bad) {
      expect(
        refusal(() => compile(condition)),
        JSON.stringify(condition),
      ).toMatchObject({
        status: 400,
        message,
        code: 'INVALID_FILTER',
      });
    }
  });

  it('refuses invalid and exponential-time regular expressions', () => {
    expect(refusal(() => compile({ field: 'hostname', operator: 'matches', value: '(' })).message).toMatch(
      /^Invalid regular expression for hostname: /,
    );
    for (const pattern of ['(a+)+$', '(a*)*b', '(a|ab)*c', '(\\d+){2,}', '(a)\\1', '((a+))+']) {
      expect(
        refusal(() => compile({ field: 'hostname', operator: 'matches', value: pattern })).message,
        pattern,
      ).toMatch(/^Invalid regular expression for hostname: /);
    }
    for (const pattern of ['^web-\\d+$', '(?i)^WEB', '^(web|db)-\\d{2}$', '[(]+x', '(ab)+', '\\(a+\\)+']) {
      expect(
        () => compile({ field: 'hostname', operator: 'matches', value: pattern }),
        pattern,
      ).not.toThrow();
    }
    expect(
      refusal(() => compile({ field: 'hostname', operator: 'matches', value: 'a'.repeat(501) })).status,
    ).toBe(400);
  });
});
