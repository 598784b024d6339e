import { LIKE, LIST, NOW_ISO, type Case } from './filter-compiler';

// The SQL expected of every operator on tag, boolean, number, computed, software, hierarchy and custom fields.

// Tags and software go through their case-folded dictionaries and integer-keyed link tables (migration 0018).
const TAGS_IN = '+d.filter_key IN (SELECT t.device_key FROM device_tag_links t';
const TAG_NAMED = 't.name_id IN (SELECT id FROM tag_names WHERE';
export const ARRAY_CASES: Case[] = [
  {
    field: 'tags',
    operator: 'hasAny',
    value: ['vip', 'finance'],
    sql: `${TAGS_IN} WHERE ${TAG_NAMED} name IN ${LIST}))`,
    params: ['["vip","finance"]'],
  },
  {
    field: 'tags',
    operator: 'hasAll',
    // Two spellings of one tag count once: the device needs 2 distinct tags, not 3.
    value: ['vip', 'finance', 'VIP'],
    sql: `${TAGS_IN} WHERE ${TAG_NAMED} name IN ${LIST}) GROUP BY t.device_key HAVING count(*) = ?)`,
    params: ['["vip","finance","VIP"]', 2],
  },
  {
    field: 'tags',
    operator: 'isEmpty',
    sql: '+d.filter_key NOT IN (SELECT t.device_key FROM device_tag_links t)',
    params: [],
  },
  { field: 'tags', operator: 'isNotEmpty', sql: `${TAGS_IN})`, params: [] },
  {
    field: 'tags',
    operator: 'contains',
    value: 'lab_',
    sql: `${TAGS_IN} WHERE ${TAG_NAMED} name LIKE ? ${LIKE}))`,
    params: ['%lab\\_%'],
  },
];

export const BOOLEAN_CASES: Case[] = [
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

export const NUMBER_CASES: Case[] = [
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
export const COMPUTED_CASES: Case[] = [
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

const SW_NAMED = 's.name_id IN (SELECT id FROM software_names WHERE';
const SW_IN = `+d.filter_key IN (SELECT s.device_key FROM device_software_links s WHERE ${SW_NAMED}`;
const SW_NOT_IN = `+d.filter_key NOT IN (SELECT s.device_key FROM device_software_links s WHERE ${SW_NAMED}`;
export const SOFTWARE_CASES: Case[] = [
  {
    field: 'software.installed',
    operator: 'contains',
    value: 'chrome',
    sql: `${SW_IN} name LIKE ? ${LIKE}))`,
    params: ['%chrome%'],
  },
  {
    field: 'software.installed',
    operator: 'notContains',
    value: 'node_',
    sql: `${SW_NOT_IN} name LIKE ? ${LIKE}))`,
    params: ['%node\\_%'],
  },
  {
    field: 'software.installed',
    operator: 'equals',
    value: 'slack',
    sql: `${SW_IN} name = ?))`,
    params: ['slack'],
  },
  {
    field: 'software.installed',
    operator: 'in',
    value: ['Zoom'],
    sql: `${SW_IN} name IN ${LIST}))`,
    params: ['["Zoom"]'],
  },
  {
    field: 'software.installed',
    operator: 'hasAny',
    value: ['Zoom', 'Slack'],
    sql: `${SW_IN} name IN ${LIST}))`,
    params: ['["Zoom","Slack"]'],
  },
  {
    field: 'software.installed',
    operator: 'hasAll',
    value: ['Zoom', 'Slack'],
    sql: `${SW_IN} name IN ${LIST}) GROUP BY s.device_key HAVING count(*) = ?)`,
    params: ['["Zoom","Slack"]', 2],
  },
  {
    field: 'software.notInstalled',
    operator: 'contains',
    value: 'zip',
    sql: `${SW_NOT_IN} name LIKE ? ${LIKE}))`,
    params: ['%zip%'],
  },
];

export const HIERARCHY_CASES: Case[] = [
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

export const CUSTOM = 'json_extract(d.custom_fields, ?)';
export const CUSTOM_CASES: Case[] = [
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
