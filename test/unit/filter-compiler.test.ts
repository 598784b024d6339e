import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FilterCondition, FilterConditionGroup } from '../../server/contract/filters';
import { openDatabase, type Db } from '../../server/db/connection';
import { loadMigrations, migrate } from '../../server/db/migrate';
import { HttpError } from '../../server/http/errors';
import {
  compileFilter,
  customFieldTypesFor,
  filterRegExp,
  MAX_FILTER_CONDITIONS,
  MAX_FILTER_DEPTH,
  parseConditionGroup,
  registerFilterFunctions,
} from '../../server/modules/filters/compile';

// The compiler's output for every operator of every field type: the SQL shape and its bound parameters, and that
// the SQL runs. What the SQL selects is asserted against a seeded fleet in test/integration/filters.test.ts.

const NOW = new Date('2026-03-15T12:00:00.000Z');
const NOW_ISO = NOW.toISOString();
const TYPES = new Map([
  ['rack', 'number'],
  ['backup', 'boolean'],
  ['warranty', 'datetime'],
] as const);

const one = (condition: FilterCondition): FilterConditionGroup => ({
  operator: 'AND',
  conditions: [condition],
});
const compile = (condition: FilterCondition) =>
  compileFilter(parseConditionGroup(one(condition)), { customFieldTypes: TYPES, now: NOW });

function refusal(fn: () => unknown): { status: number; message: string; code?: string; extra: object } {
  try {
    fn();
  } catch (err) {
    if (err instanceof HttpError)
      return { status: err.status, message: err.message, code: err.code, extra: err.extra };
    throw err;
  }
  throw new Error('expected a refusal');
}

let db: Db;
beforeAll(() => {
  db = openDatabase(':memory:');
  migrate(db, loadMigrations());
  registerFilterFunctions(db);
});
afterAll(() => db.close());

/** Every compiled fragment must be valid SQL over `devices d` with exactly its parameters. */
function runs(compiled: { sql: string; params: unknown[] }) {
  expect(() =>
    db.prepare(`SELECT count(*) FROM devices d WHERE ${compiled.sql}`).get(...compiled.params),
  ).not.toThrow();
}

interface Case {
  field: string;
  operator: string;
  value?: unknown;
  sql: string;
  params: unknown[];
}

const LIKE = "ESCAPE '\\'";
const LIST = '(SELECT value FROM json_each(?))';

const STRING_CASES: Case[] = [
  { field: 'hostname', operator: 'equals', value: 'WEB-01', sql: 'd.hostname = ?', params: ['WEB-01'] },
  {
    field: 'hostname',
    operator: 'notEquals',
    value: 'WEB-01',
    sql: '(d.hostname = ?) IS NOT 1',
    params: ['WEB-01'],
  },
  {
    field: 'displayName',
    operator: 'contains',
    value: '100%',
    sql: `d.display_name LIKE ? ${LIKE}`,
    params: ['%100\\%%'],
  },
  {
    field: 'lastUser',
    operator: 'notContains',
    value: 'svc_',
    sql: `(d.last_user LIKE ? ${LIKE}) IS NOT 1`,
    params: ['%svc\\_%'],
  },
  {
    field: 'agentVersion',
    operator: 'startsWith',
    value: '1.4',
    sql: `d.agent_version LIKE ? ${LIKE}`,
    params: ['1.4%'],
  },
  {
    field: 'osVersion',
    operator: 'endsWith',
    value: 'LTS',
    sql: `d.os_version LIKE ? ${LIKE}`,
    params: ['%LTS'],
  },
  {
    field: 'osBuild',
    operator: 'matches',
    value: '^22\\d+$',
    sql: 'd.os_build REGEXP ?',
    params: ['^22\\d+$'],
  },
  {
    field: 'hardware.model',
    operator: 'in',
    value: ['A', 'B'],
    sql: `d.hw_model IN ${LIST}`,
    params: ['["A","B"]'],
  },
  {
    field: 'hardware.manufacturer',
    operator: 'notIn',
    value: ['Dell Inc.'],
    sql: `(d.hw_manufacturer IN ${LIST}) IS NOT 1`,
    params: ['["Dell Inc."]'],
  },
  { field: 'hardware.serialNumber', operator: 'isNull', sql: 'd.hw_serial_number IS NULL', params: [] },
  { field: 'hardware.cpuModel', operator: 'isNotNull', sql: 'd.hw_cpu_model IS NOT NULL', params: [] },
  {
    field: 'hardware.gpuModel',
    operator: 'contains',
    value: 'rtx',
    sql: `d.hw_gpu_model LIKE ? ${LIKE}`,
    params: ['%rtx%'],
  },
  {
    field: 'network.ipAddress',
    operator: 'startsWith',
    value: '10.',
    sql: `d.net_ip_address LIKE ? ${LIKE}`,
    params: ['10.%'],
  },
  { field: 'network.publicIp', operator: 'isNull', sql: 'd.net_public_ip IS NULL', params: [] },
  {
    field: 'network.macAddress',
    operator: 'endsWith',
    value: ':FF',
    sql: `d.net_mac_address LIKE ? ${LIKE}`,
    params: ['%:FF'],
  },
  {
    field: 'lastSeenIp',
    operator: 'equals',
    value: '198.51.100.7',
    sql: 'd.last_seen_ip = ?',
    params: ['198.51.100.7'],
  },
];

const ENUM_CASES: Case[] = [
  { field: 'status', operator: 'equals', value: 'online', sql: 'd.status = ?', params: ['online'] },
  {
    field: 'status',
    operator: 'notEquals',
    value: 'online',
    sql: '(d.status = ?) IS NOT 1',
    params: ['online'],
  },
  {
    field: 'deviceRole',
    operator: 'in',
    value: ['server', 'nas'],
    sql: `d.device_role IN ${LIST}`,
    params: ['["server","nas"]'],
  },
  {
    field: 'watchdogStatus',
    operator: 'notIn',
    value: ['connected'],
    sql: `(d.watchdog_status IN ${LIST}) IS NOT 1`,
    params: ['["connected"]'],
  },
  { field: 'osType', operator: 'equals', value: 'macos', sql: 'd.os_type = ?', params: ['macos'] },
  {
    field: 'architecture',
    operator: 'in',
    value: ['arm64'],
    sql: `d.architecture IN ${LIST}`,
    params: ['["arm64"]'],
  },
];

const DATETIME_CASES: Case[] = [
  {
    field: 'enrolledAt',
    operator: 'equals',
    value: '2026-03-01',
    sql: '(d.enrolled_at >= ? AND d.enrolled_at < ?)',
    params: ['2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z'],
  },
  {
    field: 'enrolledAt',
    operator: 'equals',
    value: '2026-03-01T10:00:00+02:00',
    sql: 'd.enrolled_at = ?',
    params: ['2026-03-01T08:00:00.000Z'],
  },
  {
    field: 'lastSeenAt',
    operator: 'notEquals',
    value: '2026-03-01',
    sql: '((d.last_seen_at >= ? AND d.last_seen_at < ?)) IS NOT 1',
    params: ['2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z'],
  },
  {
    field: 'lastSeenAt',
    operator: 'before',
    value: '2026-03-01',
    sql: 'd.last_seen_at < ?',
    params: ['2026-03-01T00:00:00.000Z'],
  },
  {
    field: 'lastSeenAt',
    operator: 'after',
    value: '2026-03-01',
    sql: 'd.last_seen_at >= ?',
    params: ['2026-03-02T00:00:00.000Z'],
  },
  {
    field: 'lastSeenAt',
    operator: 'after',
    value: '2026-03-01T12:00:00Z',
    sql: 'd.last_seen_at > ?',
    params: ['2026-03-01T12:00:00.000Z'],
  },
  {
    field: 'quarantinedAt',
    operator: 'between',
    value: { from: '2026-03-01', to: '2026-03-05' },
    sql: '(d.quarantined_at >= ? AND d.quarantined_at < ?)',
    params: ['2026-03-01T00:00:00.000Z', '2026-03-06T00:00:00.000Z'],
  },
  {
    field: 'quarantinedAt',
    operator: 'between',
    value: { from: '2026-03-01T06:00:00Z', to: '2026-03-05T06:00:00Z' },
    sql: '(d.quarantined_at >= ? AND d.quarantined_at <= ?)',
    params: ['2026-03-01T06:00:00.000Z', '2026-03-05T06:00:00.000Z'],
  },
  {
    field: 'quarantinedAt',
    operator: 'between',
    value: { from: '2026-03-01T10:00:00Z', to: '2026-03-01' },
    sql: '(d.quarantined_at >= ? AND d.quarantined_at < ?)',
    params: ['2026-03-01T10:00:00.000Z', '2026-03-02T00:00:00.000Z'],
  },
  {
    field: 'lastSeenAt',
    operator: 'withinLast',
    value: { amount: 90, unit: 'minutes' },
    sql: 'd.last_seen_at >= ?',
    params: ['2026-03-15T10:30:00.000Z'],
  },
  {
    field: 'lastSeenAt',
    operator: 'withinLast',
    value: { amount: 2, unit: 'hours' },
    sql: 'd.last_seen_at >= ?',
    params: ['2026-03-15T10:00:00.000Z'],
  },
  {
    field: 'lastSeenAt',
    operator: 'notWithinLast',
    value: { amount: 3, unit: 'days' },
    sql: '(d.last_seen_at >= ?) IS NOT 1',
    params: ['2026-03-12T12:00:00.000Z'],
  },
  {
    field: 'enrolledAt',
    operator: 'withinLast',
    value: { amount: 2, unit: 'weeks' },
    sql: 'd.enrolled_at >= ?',
    params: ['2026-03-01T12:00:00.000Z'],
  },
  {
    field: 'enrolledAt',
    operator: 'withinLast',
    value: { amount: 1, unit: 'months' },
    sql: 'd.enrolled_at >= ?',
    params: ['2026-02-15T12:00:00.000Z'],
  },
  { field: 'quarantinedAt', operator: 'isNull', sql: 'd.quarantined_at IS NULL', params: [] },
  { field: 'lastSeenAt', operator: 'isNotNull', sql: 'd.last_seen_at IS NOT NULL', params: [] },
];

const TAGS_IN = 'd.id IN (SELECT t.device_id FROM device_tags t';
const ARRAY_CASES: Case[] = [
  {
    field: 'tags',
    operator: 'hasAny',
    value: ['vip', 'finance'],
    sql: `${TAGS_IN} WHERE t.tag COLLATE NOCASE IN ${LIST})`,
    params: ['["vip","finance"]'],
  },
  {
    field: 'tags',
    operator: 'hasAll',
    // Two spellings of one tag count once: the device needs 2 distinct tags, not 3.
    value: ['vip', 'finance', 'VIP'],
    sql: `${TAGS_IN} WHERE t.tag COLLATE NOCASE IN ${LIST} GROUP BY t.device_id HAVING count(DISTINCT lower(t.tag)) = ?)`,
    params: ['["vip","finance","VIP"]', 2],
  },
  {
    field: 'tags',
    operator: 'isEmpty',
    sql: 'd.id NOT IN (SELECT t.device_id FROM device_tags t)',
    params: [],
  },
  { field: 'tags', operator: 'isNotEmpty', sql: `${TAGS_IN})`, params: [] },
  {
    field: 'tags',
    operator: 'contains',
    value: 'lab_',
    sql: `${TAGS_IN} WHERE t.tag LIKE ? ${LIKE})`,
    params: ['%lab\\_%'],
  },
];

const BOOLEAN_CASES: Case[] = [
  { field: 'isHeadless', operator: 'equals', value: true, sql: 'd.is_headless = ?', params: [1] },
  {
    field: 'isHeadless',
    operator: 'notEquals',
    value: false,
    sql: '(d.is_headless = ?) IS NOT 1',
    params: [0],
  },
  { field: 'isHeadless', operator: 'isNull', sql: 'd.is_headless IS NULL', params: [] },
  { field: 'isHeadless', operator: 'isNotNull', sql: 'd.is_headless IS NOT NULL', params: [] },
  { field: 'patches.pending', operator: 'equals', value: true, sql: 'd.patches_pending = ?', params: [1] },
  {
    field: 'alerts.critical',
    operator: 'notEquals',
    value: true,
    sql: '(d.alerts_critical = ?) IS NOT 1',
    params: [1],
  },
  {
    field: 'system.rebootRequired',
    operator: 'equals',
    value: false,
    sql: 'd.reboot_required = ?',
    params: [0],
  },
];

const NUMBER_CASES: Case[] = [
  { field: 'uptimeSeconds', operator: 'equals', value: 60, sql: 'd.uptime_seconds = ?', params: [60] },
  {
    field: 'uptimeSeconds',
    operator: 'notEquals',
    value: 60,
    sql: '(d.uptime_seconds = ?) IS NOT 1',
    params: [60],
  },
  { field: 'hardware.cpuCores', operator: 'greaterThan', value: 4, sql: 'd.hw_cpu_cores > ?', params: [4] },
  {
    field: 'hardware.ramTotalMb',
    operator: 'greaterThanOrEquals',
    value: 8192,
    sql: 'd.hw_ram_total_mb >= ?',
    params: [8192],
  },
  {
    field: 'hardware.diskTotalGb',
    operator: 'lessThan',
    value: 512,
    sql: 'd.hw_disk_total_gb < ?',
    params: [512],
  },
  {
    field: 'metrics.cpuPercent',
    operator: 'lessThanOrEquals',
    value: 12.5,
    sql: 'd.cpu_percent <= ?',
    params: [12.5],
  },
  {
    field: 'metrics.ramPercent',
    operator: 'between',
    value: { from: 10, to: 20 },
    sql: '(d.ram_percent >= ? AND d.ram_percent <= ?)',
    params: [10, 20],
  },
  { field: 'metrics.diskPercent', operator: 'isNull', sql: 'd.disk_percent IS NULL', params: [] },
  { field: 'metrics.diskPercent', operator: 'isNotNull', sql: 'd.disk_percent IS NOT NULL', params: [] },
];

const DAYS = '(julianday(?) - julianday(d.last_seen_at))';
const COMPUTED_CASES: Case[] = [
  { field: 'daysSinceLastSeen', operator: 'greaterThan', value: 7, sql: `${DAYS} > ?`, params: [NOW_ISO, 7] },
  {
    field: 'daysSinceLastSeen',
    operator: 'equals',
    value: 3,
    sql: `(${DAYS} >= ? AND ${DAYS} < ?)`,
    params: [NOW_ISO, 3, NOW_ISO, 4],
  },
  {
    field: 'daysSinceEnrolled',
    operator: 'between',
    value: { from: 1, to: 30 },
    sql: '((julianday(?) - julianday(d.enrolled_at)) >= ? AND (julianday(?) - julianday(d.enrolled_at)) <= ?)',
    params: [NOW_ISO, 1, NOW_ISO, 30],
  },
  { field: 'daysSinceLastSeen', operator: 'isNull', sql: `${DAYS} IS NULL`, params: [NOW_ISO] },
];

const SW_IN = 'd.id IN (SELECT s.device_id FROM device_software s WHERE';
const SW_NOT_IN = 'd.id NOT IN (SELECT s.device_id FROM device_software s WHERE';
const SOFTWARE_CASES: Case[] = [
  {
    field: 'software.installed',
    operator: 'contains',
    value: 'chrome',
    sql: `${SW_IN} s.name LIKE ? ${LIKE})`,
    params: ['%chrome%'],
  },
  {
    field: 'software.installed',
    operator: 'notContains',
    value: 'node_',
    sql: `${SW_NOT_IN} s.name LIKE ? ${LIKE})`,
    params: ['%node\\_%'],
  },
  {
    field: 'software.installed',
    operator: 'equals',
    value: 'slack',
    sql: `${SW_IN} s.name = ? COLLATE NOCASE)`,
    params: ['slack'],
  },
  {
    field: 'software.installed',
    operator: 'in',
    value: ['Zoom'],
    sql: `${SW_IN} s.name COLLATE NOCASE IN ${LIST})`,
    params: ['["Zoom"]'],
  },
  {
    field: 'software.installed',
    operator: 'hasAny',
    value: ['Zoom', 'Slack'],
    sql: `${SW_IN} s.name COLLATE NOCASE IN ${LIST})`,
    params: ['["Zoom","Slack"]'],
  },
  {
    field: 'software.installed',
    operator: 'hasAll',
    value: ['Zoom', 'Slack'],
    sql: `${SW_IN} s.name COLLATE NOCASE IN ${LIST} GROUP BY s.device_id HAVING count(DISTINCT lower(s.name)) = ?)`,
    params: ['["Zoom","Slack"]', 2],
  },
  {
    field: 'software.notInstalled',
    operator: 'contains',
    value: 'zip',
    sql: `${SW_NOT_IN} s.name LIKE ? ${LIKE})`,
    params: ['%zip%'],
  },
];

const HIERARCHY_CASES: Case[] = [
  { field: 'orgId', operator: 'equals', value: 'o1', sql: 'd.org_id = ?', params: ['o1'] },
  {
    field: 'orgId',
    operator: 'in',
    value: ['o1', 'o2'],
    sql: `d.org_id IN ${LIST}`,
    params: ['["o1","o2"]'],
  },
  { field: 'siteId', operator: 'equals', value: 's1', sql: 'd.site_id = ?', params: ['s1'] },
  { field: 'siteId', operator: 'in', value: ['s1'], sql: `d.site_id IN ${LIST}`, params: ['["s1"]'] },
  {
    field: 'groupId',
    operator: 'equals',
    value: 'g1',
    sql: 'd.id IN (SELECT m.device_id FROM device_group_members m WHERE m.group_id = ?)',
    params: ['g1'],
  },
  {
    field: 'groupId',
    operator: 'in',
    value: ['g1', 'g2'],
    sql: `d.id IN (SELECT m.device_id FROM device_group_members m WHERE m.group_id IN ${LIST})`,
    params: ['["g1","g2"]'],
  },
];

const CUSTOM = 'json_extract(d.custom_fields, ?)';
const CUSTOM_CASES: Case[] = [
  {
    field: 'custom.assetTag',
    operator: 'startsWith',
    value: 'AT-',
    sql: `${CUSTOM} LIKE ? ${LIKE}`,
    params: ['$."assetTag"', 'AT-%'],
  },
  { field: 'custom.assetTag', operator: 'isNull', sql: `${CUSTOM} IS NULL`, params: ['$."assetTag"'] },
  { field: 'custom.rack', operator: 'greaterThan', value: 2, sql: `${CUSTOM} > ?`, params: ['$."rack"', 2] },
  {
    field: 'custom.rack',
    operator: 'between',
    value: { from: 1, to: 2 },
    sql: `(${CUSTOM} >= ? AND ${CUSTOM} <= ?)`,
    params: ['$."rack"', 1, '$."rack"', 2],
  },
  {
    field: 'custom.backup',
    operator: 'equals',
    value: true,
    sql: `${CUSTOM} = ?`,
    params: ['$."backup"', 1],
  },
  {
    field: 'custom.warranty',
    operator: 'before',
    value: '2026-01-01',
    sql: `${CUSTOM} < ?`,
    params: ['$."warranty"', '2026-01-01T00:00:00.000Z'],
  },
  // Keys with dots and spaces are addressed as one quoted label, never as a path.
  { field: 'custom.a.b c', operator: 'equals', value: 'x', sql: `${CUSTOM} = ?`, params: ['$."a.b c"', 'x'] },
];

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

describe('regexp SQL function', () => {
  it('matches case-sensitively unless the pattern starts with (?i), and passes NULL through', () => {
    const run = (pattern: string, value: string | null) =>
      (db.prepare('SELECT ? REGEXP ? AS m').get(value, pattern) as { m: number | null }).m;
    expect(run('^web', 'web-01')).toBe(1);
    expect(run('^web', 'WEB-01')).toBe(0);
    expect(run('(?i)^web', 'WEB-01')).toBe(1);
    expect(run('^web', null)).toBeNull();
    expect(filterRegExp('(?i)x')).toBe(filterRegExp('(?i)x'));
  });
});

describe('customFieldTypesFor', () => {
  it("prefers the organization's definition over its partner's over a global one, oldest first", () => {
    const at = (n: number) => `2026-01-0${n}T00:00:00.000Z`;
    db.prepare(
      "INSERT INTO partners (id, name, slug, created_at, updated_at) VALUES ('p1', 'P', 'p1', ?, ?)",
    ).run(at(1), at(1));
    for (const org of ['o1', 'o2'])
      db.prepare(
        "INSERT INTO organizations (id, partner_id, name, slug, created_at, updated_at) VALUES (?, 'p1', ?, ?, ?, ?)",
      ).run(org, org, org, at(1), at(1));
    const def = db.prepare(
      'INSERT INTO custom_fields (id, partner_id, org_id, field_key, name, type, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    def.run('f1', null, null, 'a', 'A', 'boolean', at(1), at(1));
    def.run('f2', 'p1', null, 'a', 'A', 'number', at(2), at(2));
    def.run('f3', null, 'o1', 'a', 'A', 'datetime', at(3), at(3));
    def.run('f4', null, 'o2', 'a', 'A', 'string', at(4), at(4));
    def.run('f5', 'p1', null, 'b', 'B', 'number', at(5), at(5));
    def.run('f6', null, null, 'c', 'C', 'boolean', at(6), at(6));
    expect(Object.fromEntries(customFieldTypesFor(db, ['o1']))).toEqual({
      a: 'datetime',
      b: 'number',
      c: 'boolean',
    });
    expect(Object.fromEntries(customFieldTypesFor(db, ['o2']))).toEqual({
      a: 'string',
      b: 'number',
      c: 'boolean',
    });
    expect(Object.fromEntries(customFieldTypesFor(db, ['o1', 'o2']))).toEqual({
      a: 'datetime',
      b: 'number',
      c: 'boolean',
    });
    expect(Object.fromEntries(customFieldTypesFor(db, ['elsewhere']))).toEqual({
      a: 'boolean',
      c: 'boolean',
    });
    expect(Object.fromEntries(customFieldTypesFor(db, 'all'))).toEqual({
      a: 'datetime',
      b: 'number',
      c: 'boolean',
    });
  });
});

describe('child-table conditions', () => {
  it('count tags that differ only in case once for hasAll, and complement exactly for isEmpty', () => {
    const at = '2026-01-01T00:00:00.000Z';
    db.prepare(
      "INSERT INTO partners (id, name, slug, created_at, updated_at) VALUES ('pt', 'P', 'pt', ?, ?)",
    ).run(at, at);
    db.prepare(
      "INSERT INTO organizations (id, partner_id, name, slug, created_at, updated_at) VALUES ('ot', 'pt', 'O', 'ot', ?, ?)",
    ).run(at, at);
    const device = db.prepare(
      `INSERT INTO devices (id, org_id, agent_id, agent_token_hash, hostname, os_type, os_version, architecture,
         agent_version, enrolled_at, created_at, updated_at)
       VALUES (?, 'ot', ?, ?, ?, 'linux', 'Debian 12', 'x64', '1.0.0', ?, ?, ?)`,
    );
    for (const id of ['dev-a', 'dev-b', 'dev-c']) device.run(id, `agent-${id}`, `hash-${id}`, id, at, at, at);
    const tag = db.prepare('INSERT INTO device_tags (device_id, tag) VALUES (?, ?)');
    for (const t of ['Production', 'production', 'vip']) tag.run('dev-a', t);
    tag.run('dev-b', 'PRODUCTION');
    const matching = (condition: FilterCondition) => {
      const { sql, params } = compile(condition);
      return (
        db
          .prepare(`SELECT d.id FROM devices d WHERE d.org_id = 'ot' AND ${sql} ORDER BY d.id`)
          .all(...params) as Array<{
          id: string;
        }>
      ).map((r) => r.id);
    };
    expect(matching({ field: 'tags', operator: 'hasAll', value: ['production', 'VIP'] })).toEqual(['dev-a']);
    expect(matching({ field: 'tags', operator: 'hasAll', value: ['production', 'Production'] })).toEqual([
      'dev-a',
      'dev-b',
    ]);
    expect(matching({ field: 'tags', operator: 'hasAll', value: ['production', 'finance'] })).toEqual([]);
    expect(matching({ field: 'tags', operator: 'hasAny', value: ['Vip', 'nothing'] })).toEqual(['dev-a']);
    expect(matching({ field: 'tags', operator: 'isEmpty' })).toEqual(['dev-c']);
    expect(matching({ field: 'tags', operator: 'isNotEmpty' })).toEqual(['dev-a', 'dev-b']);
  });
});
