import { describe, expect, it } from 'vitest';
import type { FilterCondition } from '../../server/contract/filters';
import { cases } from '../support/filter-cases';
import { fold } from '../support/filter-oracle';
import {
  tok,
  fleet,
  call,
  group,
  preview,
  expectError,
  sorted,
  live,
  useFiltersSuite,
} from '../support/filters-suite';

// Saved filters (spec 2), previews: every operator of every field type evaluated by the server against the seeded
// fleet and compared with the oracle (test/support/filter-oracle.ts and filter-cases*.ts), nested groups and
// the limits on a filter's shape.

useFiltersSuite();

describe('POST /filters/preview over the seeded fleet', () => {
  it('has a fleet that fits one preview page', () => {
    expect(live().length).toBeGreaterThan(60);
    expect(live().length).toBeLessThanOrEqual(100);
  });

  // The table is built after beforeAll has seeded the fleet, so each case runs inside one `it` per group.
  for (const groupName of [
    'core',
    'capability checks',
    'OS',
    'hardware',
    'network',
    'metrics',
    'software',
    'hierarchy',
    'computed',
    'custom',
  ]) {
    it(`evaluates every ${groupName} case exactly as the oracle`, async () => {
      const table = cases().find(([name]) => name === groupName)![1];
      for (const testCase of table) {
        const res = await preview(group('AND', testCase.condition));
        expect(res.status, `${testCase.name}: ${JSON.stringify(res.body)}`).toBe(200);
        const now = Date.parse(res.body.data.evaluatedAt);
        const expected = live().filter((d) => testCase.match(d, now));
        expect(
          { name: testCase.name, ids: sorted(res.body.data.devices.map((d) => d.id)) },
          `${testCase.name}`,
        ).toEqual({ name: testCase.name, ids: sorted(expected.map((d) => d.id)) });
        expect(res.body.data.totalCount, testCase.name).toBe(expected.length);
        if (!testCase.trivial) {
          // A case that selects nothing or everything would prove little.
          expect(expected.length, `${testCase.name} selects something`).toBeGreaterThan(0);
          expect(expected.length, `${testCase.name} leaves something out`).toBeLessThan(live().length);
        }
      }
    });
  }

  it('covers every operator the spec lists for each type', () => {
    const all = cases().flatMap(([, list]) => list);
    const operatorsOf = (fields: string[]) =>
      new Set(all.filter((x) => fields.includes(x.condition.field)).map((x) => x.condition.operator));
    const strings = [
      'hostname',
      'displayName',
      'agentVersion',
      'lastUser',
      'osVersion',
      'osBuild',
      'custom.assetTag',
    ];
    expect([...operatorsOf(strings)].sort()).toEqual(
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
    expect(
      [...operatorsOf(['status', 'deviceRole', 'watchdogStatus', 'osType', 'architecture'])].sort(),
    ).toEqual(['equals', 'in', 'notEquals', 'notIn']);
    expect([...operatorsOf(['enrolledAt', 'lastSeenAt', 'quarantinedAt'])].sort()).toEqual(
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
    expect([...operatorsOf(['tags'])].sort()).toEqual([
      'contains',
      'hasAll',
      'hasAny',
      'isEmpty',
      'isNotEmpty',
    ]);
    expect([...operatorsOf(['isHeadless'])].sort()).toEqual(['equals', 'isNotNull', 'isNull', 'notEquals']);
    expect(
      [
        ...operatorsOf([
          'uptimeSeconds',
          'metrics.cpuPercent',
          'metrics.ramPercent',
          'hardware.cpuCores',
          'hardware.ramTotalMb',
        ]),
      ].sort(),
    ).toEqual(
      [
        'between',
        'equals',
        'greaterThan',
        'greaterThanOrEquals',
        'isNull',
        'lessThan',
        'lessThanOrEquals',
        'notEquals',
      ].sort(),
    );
    expect([...operatorsOf(['software.installed'])].sort()).toEqual([
      'contains',
      'equals',
      'hasAll',
      'hasAny',
      'in',
      'notContains',
    ]);
    expect([...operatorsOf(['custom.backupEnabled'])].sort()).toEqual([
      'equals',
      'isNotNull',
      'isNull',
      'notEquals',
    ]);
  });

  it('evaluates nested AND/OR groups three levels deep', async () => {
    const all = cases().flatMap(([, list]) => list);
    const find = (name: string) => all.find((x) => x.name === name)!;
    const a = find('osType equals "windows"');
    const b = find('tags isNotEmpty');
    const cc = find('software.installed contains "chrome"');
    const d = find('custom.backupEnabled equals true');
    const e = find('lastSeenAt notWithinLast {"amount":7,"unit":"days"}');
    const f = find('deviceRole in ["printer","router","nas"]');
    // (a AND (b OR (cc AND d))) OR (e AND NOT-ish f) ... expressed with the language's own operators.
    const conditions = group(
      'OR',
      group('AND', a.condition, group('OR', b.condition, group('AND', cc.condition, d.condition))),
      group('AND', e.condition, f.condition),
    );
    const res = await preview(conditions);
    expect(res.status).toBe(200);
    const now = Date.parse(res.body.data.evaluatedAt);
    const expected = live().filter(
      (x) =>
        (a.match(x, now) && (b.match(x, now) || (cc.match(x, now) && d.match(x, now)))) ||
        (e.match(x, now) && f.match(x, now)),
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(live().length);
    expect(sorted(res.body.data.devices.map((x) => x.id))).toEqual(sorted(expected.map((x) => x.id)));
    expect(res.body.data.totalCount).toBe(expected.length);
  });

  it('counts all matches but returns at most `limit`, ordered by hostname, with the preview shape', async () => {
    const res = await preview(
      group('AND', { field: 'hostname', operator: 'isNotNull' }),
      { token: tok.system },
      3,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.totalCount).toBe(live().length);
    const byHost = [...live()].sort(
      (x, y) =>
        fold(x.hostname).localeCompare(fold(y.hostname), 'en', { sensitivity: 'variant' }) ||
        x.id.localeCompare(y.id),
    );
    expect(res.body.data.devices.map((x) => x.hostname)).toHaveLength(3);
    const first = byHost[0]!;
    expect(res.body.data.devices[0]).toEqual({
      id: expect.any(String),
      hostname: expect.any(String),
      displayName: expect.toSatisfy((v: unknown) => v === null || typeof v === 'string'),
      osType: expect.stringMatching(/^(windows|macos|linux)$/),
      status: expect.any(String),
      lastSeenAt: expect.toSatisfy((v: unknown) => v === null || typeof v === 'string'),
    });
    const top = fleet.devices.find((x) => x.id === res.body.data.devices[0]!.id)!;
    expect(fold(top.hostname) <= fold(first.hostname)).toBe(true);
    expect(Date.parse(res.body.data.evaluatedAt)).toBeGreaterThan(Date.now() - 60_000);
    const defaulted = await call(
      'POST',
      '/filters/preview',
      { token: tok.system },
      {
        conditions: group('AND', { field: 'hostname', operator: 'isNotNull' }),
      },
    );
    expect(defaulted.body.data.devices).toHaveLength(10);
  });

  it('refuses bad limits, unknown fields, bad operators and values with 400', async () => {
    const ok = group('AND', { field: 'hostname', operator: 'isNotNull' });
    for (const limit of [0, 101, 2.5, '5']) {
      const res = await call('POST', '/filters/preview', { token: tok.system }, { conditions: ok, limit });
      expectError(res, 400, 'limit: limit must be an integer between 1 and 100', 'VALIDATION_ERROR');
    }
    expectError(
      await call('POST', '/filters/preview', { token: tok.system }, {}),
      400,
      'conditions: conditions is required',
    );
    expectError(
      await preview(group('AND', { field: 'serial', operator: 'equals', value: 'x' })),
      400,
      'Unknown field: serial',
      'UNKNOWN_FIELD',
    );
    const badOp = await preview(group('AND', group('OR', { field: 'tags', operator: 'equals', value: 'x' })));
    expectError(badOp, 400, /^Operator equals is not supported for tags \(array\)/, 'INVALID_FILTER');
    expect((badOp.body as unknown as { path: string }).path).toBe('conditions.conditions.0.conditions.0');
    expectError(
      await preview(group('AND', { field: 'hostname', operator: 'matches', value: '(a+)+$' })),
      400,
      /^Invalid regular expression for hostname/,
    );
    expectError(
      await preview(group('AND', { field: 'hostname', operator: 'matches', value: '[' })),
      400,
      /^Invalid regular expression for hostname/,
    );
    expectError(
      await preview({ operator: 'AND', conditions: [] }),
      400,
      'conditions.conditions: a group needs at least one condition',
    );
    let deep: unknown = { field: 'hostname', operator: 'isNull' };
    for (let i = 0; i < 40; i++) deep = group('AND', deep as FilterCondition);
    expectError(await preview(deep), 400, /groups may be nested at most 32 levels deep$/);
  });
});

// ---- saved filters: CRUD ----------------------------------------------------------------------------------------
