// The saved-filter condition language as spec 2 defines it: the filterable fields by group, the operators each
// field type accepts, and the value shape each operator takes. The builder offers only what the server accepts.

import {
  ARCHITECTURES,
  DEVICE_ROLES,
  DEVICE_STATUSES,
  FILTER_OPERATORS,
  OS_TYPES,
  WATCHDOG_STATUSES,
  type FilterOperatorKind,
} from '../../../../server/contract';
import { capitalize } from '../../lib/format';

/** The kind of a field: which operators it takes (the contract's FILTER_OPERATORS) and how its value is edited. */
export type FieldType = FilterOperatorKind;

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

/** A contract list as choices: its values, in its order, with the word for each that is not just capitalized. */
const opt = (values: readonly string[], labels: Record<string, string> = {}): Option[] =>
  values.map((value) => ({ value, label: labels[value] ?? capitalize(value) }));

export const STATUS_OPTIONS = opt(DEVICE_STATUSES);
export const ROLE_OPTIONS = opt(DEVICE_ROLES, { access_point: 'Access point', iot: 'IoT', nas: 'NAS' });
export const WATCHDOG_OPTIONS = opt(WATCHDOG_STATUSES);
export const OS_OPTIONS = opt(OS_TYPES, { macos: 'macOS' });
export const ARCH_OPTIONS = opt(ARCHITECTURES, { x64: 'x64', x86: 'x86', arm64: 'arm64' });

/** The fields the builder offers, by group (the group's name is the heading the builder shows them under). */
const OFFERED_BY_GROUP: Record<string, Array<Omit<FieldDef, 'group'>>> = {
  Core: [
    { key: 'hostname', label: 'Hostname', type: 'string' },
    { key: 'displayName', label: 'Display name', type: 'string' },
    { key: 'status', label: 'Status', type: 'enum', options: STATUS_OPTIONS },
    { key: 'agentVersion', label: 'Agent version', type: 'string' },
    { key: 'lastUser', label: 'Last user', type: 'string' },
    { key: 'tags', label: 'Tags', type: 'array' },
    { key: 'deviceRole', label: 'Device role', type: 'enum', options: ROLE_OPTIONS },
    { key: 'isHeadless', label: 'Headless', type: 'boolean' },
    { key: 'uptimeSeconds', label: 'Uptime', type: 'number', unit: 'seconds' },
    { key: 'watchdogStatus', label: 'Watchdog status', type: 'enum', options: WATCHDOG_OPTIONS },
    { key: 'enrolledAt', label: 'Enrolled at', type: 'datetime' },
    { key: 'lastSeenAt', label: 'Last seen at', type: 'datetime' },
    { key: 'quarantinedAt', label: 'Quarantined at', type: 'datetime' },
  ],
  'Capability checks': [{ key: 'system.rebootRequired', label: 'Reboot required', type: 'capability' }],
  OS: [
    { key: 'osType', label: 'OS type', type: 'enum', options: OS_OPTIONS },
    { key: 'osVersion', label: 'OS version', type: 'string' },
    { key: 'osBuild', label: 'OS build', type: 'string' },
    { key: 'architecture', label: 'Architecture', type: 'enum', options: ARCH_OPTIONS },
  ],
  Hardware: [
    { key: 'hardware.manufacturer', label: 'Manufacturer', type: 'string' },
    { key: 'hardware.model', label: 'Model', type: 'string' },
    { key: 'hardware.serialNumber', label: 'Serial number', type: 'string' },
    { key: 'hardware.cpuModel', label: 'CPU model', type: 'string' },
    { key: 'hardware.gpuModel', label: 'GPU model', type: 'string' },
    { key: 'hardware.cpuCores', label: 'CPU cores', type: 'number' },
    { key: 'hardware.ramTotalMb', label: 'RAM', type: 'number', unit: 'MB' },
    { key: 'hardware.diskTotalGb', label: 'Disk size', type: 'number', unit: 'GB' },
  ],
  Network: [
    { key: 'network.ipAddress', label: 'IP address', type: 'string' },
    { key: 'network.publicIp', label: 'Public IP', type: 'string' },
    { key: 'network.macAddress', label: 'MAC address', type: 'string' },
    { key: 'lastSeenIp', label: 'Last seen IP', type: 'string' },
  ],
  Metrics: [
    { key: 'metrics.cpuPercent', label: 'CPU usage', type: 'number', unit: '%' },
    { key: 'metrics.ramPercent', label: 'RAM usage', type: 'number', unit: '%' },
    { key: 'metrics.diskPercent', label: 'Disk usage', type: 'number', unit: '%' },
  ],
  Software: [
    { key: 'software.installed', label: 'Software installed', type: 'software' },
    { key: 'software.notInstalled', label: 'Software not installed', type: 'softwareMissing' },
  ],
  Hierarchy: [
    { key: 'orgId', label: 'Organization', type: 'hierarchy', pick: 'org' },
    { key: 'siteId', label: 'Site', type: 'hierarchy', pick: 'site' },
    { key: 'groupId', label: 'Device group', type: 'hierarchy', pick: 'group' },
  ],
  Computed: [
    { key: 'daysSinceLastSeen', label: 'Days since last seen', type: 'number', unit: 'days' },
    { key: 'daysSinceEnrolled', label: 'Days since enrolled', type: 'number', unit: 'days' },
  ],
};

export const FIELDS: FieldDef[] = Object.entries(OFFERED_BY_GROUP).flatMap(([group, fields]) =>
  fields.map((f) => ({ ...f, group })),
);

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

export function operatorsFor(type: FieldType): readonly string[] {
  return FILTER_OPERATORS[type];
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
