// The saved-filter condition language as spec 2 defines it: the filterable fields by group, the operators each
// field type accepts, and the value shape each operator takes. The builder offers only what the server accepts.

import { capitalize } from '../../lib/format';

export type FieldType =
  | 'string'
  | 'number'
  | 'enum'
  | 'datetime'
  | 'boolean'
  | 'array'
  | 'capability'
  | 'software'
  | 'softwareMissing'
  | 'hierarchy';

export interface Option {
  value: string;
  label: string;
}

export interface FieldDef {
  key: string;
  label: string;
  group: string;
  type: FieldType;
  options?: Option[];
  /** Unit shown next to number inputs. */
  unit?: string;
  /** Hierarchy fields pick from these lists. */
  pick?: 'org' | 'site' | 'group';
}

const opt = (values: string[], labels: Record<string, string> = {}): Option[] =>
  values.map((value) => ({ value, label: labels[value] ?? capitalize(value) }));

export const STATUS_OPTIONS = opt(['online', 'offline', 'maintenance', 'quarantined', 'decommissioned']);
export const ROLE_OPTIONS = opt(
  [
    'workstation',
    'server',
    'printer',
    'router',
    'switch',
    'firewall',
    'access_point',
    'phone',
    'iot',
    'camera',
    'nas',
    'unknown',
  ],
  { access_point: 'Access point', iot: 'IoT', nas: 'NAS' },
);
export const WATCHDOG_OPTIONS = opt(['connected', 'failover', 'offline']);
export const OS_OPTIONS = opt(['windows', 'macos', 'linux'], { macos: 'macOS' });
export const ARCH_OPTIONS = opt(['x64', 'x86', 'arm64'], { x64: 'x64', x86: 'x86', arm64: 'arm64' });

export const FIELDS: FieldDef[] = [
  { key: 'hostname', label: 'Hostname', group: 'Core', type: 'string' },
  { key: 'displayName', label: 'Display name', group: 'Core', type: 'string' },
  { key: 'status', label: 'Status', group: 'Core', type: 'enum', options: STATUS_OPTIONS },
  { key: 'agentVersion', label: 'Agent version', group: 'Core', type: 'string' },
  { key: 'lastUser', label: 'Last user', group: 'Core', type: 'string' },
  { key: 'tags', label: 'Tags', group: 'Core', type: 'array' },
  { key: 'deviceRole', label: 'Device role', group: 'Core', type: 'enum', options: ROLE_OPTIONS },
  { key: 'isHeadless', label: 'Headless', group: 'Core', type: 'boolean' },
  { key: 'uptimeSeconds', label: 'Uptime', group: 'Core', type: 'number', unit: 'seconds' },
  { key: 'watchdogStatus', label: 'Watchdog status', group: 'Core', type: 'enum', options: WATCHDOG_OPTIONS },
  { key: 'enrolledAt', label: 'Enrolled at', group: 'Core', type: 'datetime' },
  { key: 'lastSeenAt', label: 'Last seen at', group: 'Core', type: 'datetime' },
  { key: 'quarantinedAt', label: 'Quarantined at', group: 'Core', type: 'datetime' },

  { key: 'system.rebootRequired', label: 'Reboot required', group: 'Capability checks', type: 'capability' },

  { key: 'osType', label: 'OS type', group: 'OS', type: 'enum', options: OS_OPTIONS },
  { key: 'osVersion', label: 'OS version', group: 'OS', type: 'string' },
  { key: 'osBuild', label: 'OS build', group: 'OS', type: 'string' },
  { key: 'architecture', label: 'Architecture', group: 'OS', type: 'enum', options: ARCH_OPTIONS },

  { key: 'hardware.manufacturer', label: 'Manufacturer', group: 'Hardware', type: 'string' },
  { key: 'hardware.model', label: 'Model', group: 'Hardware', type: 'string' },
  { key: 'hardware.serialNumber', label: 'Serial number', group: 'Hardware', type: 'string' },
  { key: 'hardware.cpuModel', label: 'CPU model', group: 'Hardware', type: 'string' },
  { key: 'hardware.gpuModel', label: 'GPU model', group: 'Hardware', type: 'string' },
  { key: 'hardware.cpuCores', label: 'CPU cores', group: 'Hardware', type: 'number' },
  { key: 'hardware.ramTotalMb', label: 'RAM', group: 'Hardware', type: 'number', unit: 'MB' },
  { key: 'hardware.diskTotalGb', label: 'Disk size', group: 'Hardware', type: 'number', unit: 'GB' },

  { key: 'network.ipAddress', label: 'IP address', group: 'Network', type: 'string' },
  { key: 'network.publicIp', label: 'Public IP', group: 'Network', type: 'string' },
  { key: 'network.macAddress', label: 'MAC address', group: 'Network', type: 'string' },
  { key: 'lastSeenIp', label: 'Last seen IP', group: 'Network', type: 'string' },

  { key: 'metrics.cpuPercent', label: 'CPU usage', group: 'Metrics', type: 'number', unit: '%' },
  { key: 'metrics.ramPercent', label: 'RAM usage', group: 'Metrics', type: 'number', unit: '%' },
  { key: 'metrics.diskPercent', label: 'Disk usage', group: 'Metrics', type: 'number', unit: '%' },

  { key: 'software.installed', label: 'Software installed', group: 'Software', type: 'software' },
  {
    key: 'software.notInstalled',
    label: 'Software not installed',
    group: 'Software',
    type: 'softwareMissing',
  },

  { key: 'orgId', label: 'Organization', group: 'Hierarchy', type: 'hierarchy', pick: 'org' },
  { key: 'siteId', label: 'Site', group: 'Hierarchy', type: 'hierarchy', pick: 'site' },
  { key: 'groupId', label: 'Device group', group: 'Hierarchy', type: 'hierarchy', pick: 'group' },

  {
    key: 'daysSinceLastSeen',
    label: 'Days since last seen',
    group: 'Computed',
    type: 'number',
    unit: 'days',
  },
  { key: 'daysSinceEnrolled', label: 'Days since enrolled', group: 'Computed', type: 'number', unit: 'days' },
];

/**
 * Spec fields for data Gatehouse does not collect (it has no patching and no alerting): the server still accepts
 * them, so a saved filter that uses one still reads and edits, but the builder does not offer them.
 */
const NOT_OFFERED: FieldDef[] = [
  { key: 'patches.pending', label: 'Has a pending patch', group: 'Capability checks', type: 'capability' },
  { key: 'alerts.critical', label: 'Has a critical alert', group: 'Capability checks', type: 'capability' },
];

export const FIELD_GROUPS = [...new Set(FIELDS.map((f) => f.group))];

/** Whether the builder's field list offers `key` (custom fields are offered through "Custom field…"). */
export const isOffered = (key: string): boolean => FIELDS.some((f) => f.key === key);

/** Custom fields (`custom.<key>`): string operators unless the technician says otherwise. */
export type CustomType = 'string' | 'number' | 'boolean' | 'datetime';
export const CUSTOM_PREFIX = 'custom.';

export function fieldDef(key: string, customType: CustomType = 'string'): FieldDef | null {
  const known = FIELDS.find((f) => f.key === key) ?? NOT_OFFERED.find((f) => f.key === key);
  if (known) return known;
  if (key.startsWith(CUSTOM_PREFIX))
    return {
      key,
      label: key.slice(CUSTOM_PREFIX.length) || 'Custom field',
      group: 'Custom',
      type: customType,
    };
  return null;
}

export const OPERATOR_LABELS: Record<string, string> = {
  equals: 'is',
  notEquals: 'is not',
  contains: 'contains',
  notContains: 'does not contain',
  startsWith: 'starts with',
  endsWith: 'ends with',
  matches: 'matches regex',
  in: 'is one of',
  notIn: 'is not one of',
  isNull: 'is empty (null)',
  isNotNull: 'is set',
  before: 'before',
  after: 'after',
  between: 'between',
  withinLast: 'within the last',
  notWithinLast: 'not within the last',
  hasAny: 'has any of',
  hasAll: 'has all of',
  isEmpty: 'is empty',
  isNotEmpty: 'is not empty',
  greaterThan: '>',
  greaterThanOrEquals: '≥',
  lessThan: '<',
  lessThanOrEquals: '≤',
};

const OPERATORS: Record<FieldType, string[]> = {
  string: [
    'equals',
    'notEquals',
    'contains',
    'notContains',
    'startsWith',
    'endsWith',
    'matches',
    'in',
    'notIn',
    'isNull',
    'isNotNull',
  ],
  enum: ['equals', 'notEquals', 'in', 'notIn'],
  datetime: [
    'equals',
    'notEquals',
    'before',
    'after',
    'between',
    'withinLast',
    'notWithinLast',
    'isNull',
    'isNotNull',
  ],
  array: ['hasAny', 'hasAll', 'isEmpty', 'isNotEmpty', 'contains'],
  boolean: ['equals', 'notEquals', 'isNull', 'isNotNull'],
  capability: ['equals', 'notEquals'],
  number: [
    'equals',
    'notEquals',
    'greaterThan',
    'greaterThanOrEquals',
    'lessThan',
    'lessThanOrEquals',
    'between',
    'isNull',
    'isNotNull',
  ],
  software: ['contains', 'notContains', 'equals', 'in', 'hasAny', 'hasAll'],
  softwareMissing: ['contains'],
  hierarchy: ['equals', 'in'],
};

export function operatorsFor(type: FieldType): string[] {
  return OPERATORS[type];
}

/** How the value of a condition is edited and sent. */
export type ValueShape =
  | 'none'
  | 'text'
  | 'number'
  | 'boolean'
  | 'date'
  | 'enum'
  | 'enumList'
  | 'list'
  | 'numberRange'
  | 'dateRange'
  | 'duration'
  | 'pick'
  | 'pickList';

const NO_VALUE = new Set(['isNull', 'isNotNull', 'isEmpty', 'isNotEmpty']);
const LIST_OPS = new Set(['in', 'notIn', 'hasAny', 'hasAll']);

export function valueShape(field: FieldDef, operator: string): ValueShape {
  if (NO_VALUE.has(operator)) return 'none';
  const list = LIST_OPS.has(operator);
  switch (field.type) {
    case 'enum':
      return list ? 'enumList' : 'enum';
    case 'hierarchy':
      return list ? 'pickList' : 'pick';
    case 'boolean':
    case 'capability':
      return 'boolean';
    case 'number':
      return operator === 'between' ? 'numberRange' : 'number';
    case 'datetime':
      if (operator === 'between') return 'dateRange';
      if (operator === 'withinLast' || operator === 'notWithinLast') return 'duration';
      return 'date';
    case 'array':
    case 'software':
    case 'softwareMissing':
    case 'string':
      return list ? 'list' : 'text';
  }
}

export const DURATION_UNITS = ['minutes', 'hours', 'days', 'weeks', 'months'] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number];
