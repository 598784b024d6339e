import { describe, expect, it } from 'vitest';
import type { FilterCondition, FilterConditionGroup } from '../../server/contract/filters';
import { visibilityClauses } from '../../server/modules/devices/access';
import { compileFilter } from '../../server/modules/filters/compile';
import { previewStatements } from '../../server/modules/filters/store';
import { legacyFilter, legacyPreview } from '../support/filter-legacy';
import { db, expectLinksInStep, fleet, ORGS, preview, useFleetWorld } from '../support/filter-world';

// Migration 0018 changed how filters are written (dictionaries and integer-keyed links for tags and software, a
// covering index, a probe form for dense pages, regular expressions last in an AND): the answers must not change.
// Every condition and filter here runs both ways on one seeded fleet, and the common fields' plans are read.

useFleetWorld(1500);

const one = (condition: FilterCondition): FilterConditionGroup => ({
  operator: 'AND',
  conditions: [condition],
});
const and = (...conditions: Array<FilterCondition | FilterConditionGroup>) => ({
  operator: 'AND' as const,
  conditions,
});
const or = (...conditions: Array<FilterCondition | FilterConditionGroup>) => ({
  operator: 'OR' as const,
  conditions,
});

/** Tag and software conditions: every operator, values in other cases, LIKE's own characters, unknown names. */
const CHILD_CONDITIONS: FilterCondition[] = [
  { field: 'tags', operator: 'hasAny', value: ['finance', 'KIOSK'] },
  { field: 'tags', operator: 'hasAny', value: ['production'] },
  { field: 'tags', operator: 'hasAny', value: ['no-such-tag'] },
  { field: 'tags', operator: 'hasAll', value: ['Production', 'vip'] },
  { field: 'tags', operator: 'hasAll', value: ['production', 'PRODUCTION'] },
  { field: 'tags', operator: 'hasAll', value: ['vip', 'no-such-tag'] },
  { field: 'tags', operator: 'isEmpty' },
  { field: 'tags', operator: 'isNotEmpty' },
  { field: 'tags', operator: 'contains', value: 'lab_' },
  { field: 'tags', operator: 'contains', value: '50%' },
  { field: 'tags', operator: 'contains', value: 'PROD' },
  { field: 'software.installed', operator: 'contains', value: 'chrome' },
  { field: 'software.installed', operator: 'contains', value: 'node_' },
  { field: 'software.installed', operator: 'notContains', value: 'SLACK' },
  { field: 'software.installed', operator: 'equals', value: 'slack' },
  { field: 'software.installed', operator: 'equals', value: 'google chrome' },
  { field: 'software.installed', operator: 'in', value: ['Zoom', '7-zip'] },
  { field: 'software.installed', operator: 'hasAny', value: ['ZOOM', 'nothing'] },
  { field: 'software.installed', operator: 'hasAll', value: ['Zoom', 'Slack'] },
  { field: 'software.installed', operator: 'hasAll', value: ['slack', 'Slack'] },
  { field: 'software.notInstalled', operator: 'contains', value: 'zip' },
];

const matching = (sql: string, params: unknown[]) =>
  db
    .prepare(`SELECT d.id FROM devices d WHERE ${sql} ORDER BY d.id`)
    .pluck()
    .all(...params) as string[];

describe('tag and software conditions through the dictionaries and links', () => {
  it('keep the links in step with the seeded rows', () => {
    expectLinksInStep();
  });

  it.each(
    CHILD_CONDITIONS.map((c) => [`${c.field} ${c.operator} ${JSON.stringify(c.value ?? '')}`, c] as const),
  )('%s selects the same devices in both forms as before', (_name, condition) => {
    const now = fleet.now;
    const before = legacyFilter(one(condition), now);
    const expected = matching(before.sql, before.params);
    for (const childForm of ['set', 'probe'] as const) {
      const after = compileFilter(one(condition), { now, childForm });
      expect(matching(after.sql, after.params), childForm).toEqual(expected);
    }
  });
});

/** Whole filters: the benchmark's, and nestings that mix child tables, negations, regular expressions and NULLs. */
const FILTERS: Array<[string, FilterConditionGroup]> = [
  [
    'osType and cpu',
    and(
      { field: 'osType', operator: 'equals', value: 'windows' },
      { field: 'metrics.cpuPercent', operator: 'greaterThan', value: 50 },
    ),
  ],
  [
    'hostname or lastUser',
    or(
      { field: 'hostname', operator: 'contains', value: 'web' },
      { field: 'lastUser', operator: 'startsWith', value: 'a' },
    ),
  ],
  [
    'nested tags, software, days',
    and(
      { field: 'tags', operator: 'hasAny', value: ['finance', 'kiosk'] },
      or(
        { field: 'software.installed', operator: 'contains', value: 'chrome' },
        { field: 'daysSinceLastSeen', operator: 'greaterThan', value: 7 },
      ),
    ),
  ],
  ['regex', and({ field: 'hostname', operator: 'matches', value: '^(WEB|DC)[0-9]*7$' })],
  [
    'regex first in an AND, then tags',
    and(
      { field: 'hostname', operator: 'matches', value: '(?i)^web' },
      { field: 'tags', operator: 'isNotEmpty' },
      or(
        { field: 'displayName', operator: 'matches', value: 'desk' },
        { field: 'software.notInstalled', operator: 'contains', value: 'zoom' },
      ),
    ),
  ],
  [
    'negations and lists',
    or(
      and(
        { field: 'tags', operator: 'isEmpty' },
        { field: 'software.installed', operator: 'notContains', value: 'slack' },
      ),
      and(
        { field: 'tags', operator: 'hasAll', value: ['vip', 'PRODUCTION'] },
        { field: 'status', operator: 'in', value: ['online', 'maintenance'] },
      ),
    ),
  ],
  ['rare software', and({ field: 'software.installed', operator: 'equals', value: 'nodeXexporter' })],
  ['nothing', and({ field: 'tags', operator: 'hasAny', value: ['no-such-tag'] })],
];

describe('previews', () => {
  it.each(FILTERS)('%s: the same total and pages as before, at every page size', (_name, group) => {
    for (const limit of [1, 10, 100, 1000]) {
      const expected = legacyPreview(db, group, fleet.now, limit);
      expect(preview(group, fleet.now, limit), `limit ${limit}`).toEqual(expected);
    }
  });

  it('exercise both page forms: dense matches probe, sparse ones reuse the sets', () => {
    const [, nested] = FILTERS[2]!;
    const { totalCount } = preview(nested, fleet.now, 10);
    // The nested filter is dense at 10 a page (probes) and sparse at 1,000 (sets); both agreed above.
    expect(totalCount).toBeGreaterThanOrEqual(80);
    expect(totalCount).toBeLessThan(8000);
  });
});

/** Fields the covering index devices_filter serves: their count reads no table row, their page walks it in order. */
const COVERED: FilterCondition[] = [
  { field: 'osType', operator: 'equals', value: 'linux' },
  { field: 'hostname', operator: 'contains', value: 'web' },
  { field: 'hostname', operator: 'matches', value: '^db' },
  { field: 'lastUser', operator: 'startsWith', value: 'a' },
  { field: 'metrics.cpuPercent', operator: 'greaterThan', value: 50 },
  { field: 'daysSinceLastSeen', operator: 'greaterThan', value: 7 },
  { field: 'tags', operator: 'hasAny', value: ['vip'] },
  { field: 'tags', operator: 'contains', value: 'lab' },
  { field: 'software.installed', operator: 'contains', value: 'chrome' },
  { field: 'software.notInstalled', operator: 'contains', value: 'zoom' },
];
/** Fields with an index of their own that the planner may prefer for the count: any index, never the table. */
const INDEXED: FilterCondition[] = [
  { field: 'status', operator: 'in', value: ['online', 'offline'] },
  { field: 'lastSeenAt', operator: 'withinLast', value: { amount: 2, unit: 'days' } },
  { field: 'orgId', operator: 'equals', value: 'org-a' },
];

const plan = (sql: string, params: unknown[]) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail);
const named = (conditions: FilterCondition[]) =>
  conditions.map((c): [string, FilterConditionGroup] => [`${c.field} ${c.operator}`, one(c)]);

describe('plans of the common fields', () => {
  const scopes = {
    system: visibilityClauses({ scope: { kind: 'all' }, sites: null, deviceGroups: null }),
    partner: visibilityClauses({
      scope: { kind: 'some', orgIds: new Set(ORGS) },
      sites: null,
      deviceGroups: null,
    }),
  };
  /** The count's and the page's plans for every scope and child form. */
  const plans = (group: FilterConditionGroup) =>
    Object.entries(scopes).flatMap(([scopeName, scope]) =>
      (['set', 'probe'] as const).map((childForm) => {
        const compiled = compileFilter(group, { now: fleet.now, childForm });
        const { count, page } = previewStatements(scope, compiled, 10);
        return {
          at: `${scopeName}, ${childForm}`,
          count: plan(count.sql, count.params),
          page: plan(page.sql, page.params),
        };
      }),
    );
  /** The lines that read devices `d`. */
  const devicesLines = (lines: string[]) => lines.filter((l) => /^(SCAN|SEARCH) d\b/.test(l));
  /** The one line that reads devices `d`. */
  const devicesLine = (lines: string[]) => {
    const read = devicesLines(lines);
    expect(read).toHaveLength(1);
    return read[0]!;
  };

  it.each([...named(COVERED), ...FILTERS.slice(0, 4)])(
    '%s: the count scans a covering index, the page walks devices_filter in order',
    (_name, group) => {
      for (const p of plans(group)) {
        // Covering: the wide devices row is never read (for tags and software alone the planner takes devices_org,
        // narrower still: status, org_id and the rowid, which is filter_key, are all such a count needs). A
        // pattern that requires a prefix searches one range of devices_filter per prefix instead of scanning it.
        const reads = devicesLines(p.count);
        expect(reads.length, p.at).toBeGreaterThan(0);
        for (const read of reads)
          expect(read, p.at).toMatch(
            /^(SCAN d USING COVERING INDEX devices_(filter|org)|SEARCH d USING COVERING INDEX devices_filter \(hostname>\? AND hostname<\?\))$/,
          );
        // Dictionaries are read by name, links by name (sets) or by device (probes): no link table is scanned.
        expect(
          p.count.filter((l) => /SCAN (t|s)\b/.test(l)),
          p.at,
        ).toEqual([]);
        expect(devicesLine(p.page), p.at).toMatch(
          /^(SCAN|SEARCH) d USING (COVERING )?INDEX devices_filter( \(hostname>\? AND hostname<\?\))?$/,
        );
        expect(p.page.join('\n'), p.at).not.toContain('TEMP B-TREE');
      }
    },
  );

  it.each(named(INDEXED))('%s: the count reads an index, never the table', (_name, group) => {
    for (const p of plans(group)) {
      expect(devicesLine(p.count), p.at).toMatch(/^(SCAN|SEARCH) d USING (COVERING )?INDEX /);
      expect(devicesLine(p.page), p.at).toMatch(/^(SCAN|SEARCH) d USING (COVERING )?INDEX /);
    }
  });
});
