import { FILTER_OPERATORS, type CustomFieldType, type FilterFieldType } from '../../contract/filters';
import {
  ARCHITECTURES,
  DEVICE_ROLES,
  DEVICE_STATUSES,
  OS_TYPES,
  WATCHDOG_STATUSES,
} from '../../contract/devices';
import { badRequest } from '../../http/errors';
import { column, type Binder, type Expr, type Leaf } from './leaf';
import {
  compileBoolean,
  compileDatetime,
  compileEnum,
  compileGroup,
  compileHierarchy,
  compileNumber,
  compileSoftware,
  compileString,
  compileTags,
} from './operators';

// The fields a filter may name: the fixed table of device columns (the only place a field key selects SQL text)
// and `custom.<key>` fields, typed by the organizations' custom-field definitions.

/** Types of `custom.<key>` fields (customFieldTypesFor); a key without a definition is a string. */
export type CustomFieldTypes = ReadonlyMap<string, CustomFieldType>;

export interface FieldSpec {
  type: FilterFieldType;
  operators: readonly string[];
  compile: (leaf: Leaf, b: Binder, now: Date) => string;
}

const stringField = (sql: string): FieldSpec => ({
  type: 'string',
  operators: FILTER_OPERATORS.string,
  compile: (leaf, b) => compileString(column(sql), leaf, b),
});
const enumField = (sql: string, values: readonly string[]): FieldSpec => ({
  type: 'enum',
  operators: FILTER_OPERATORS.enum,
  compile: (leaf, b) => compileEnum(column(sql), values, leaf, b),
});
const datetimeField = (sql: string): FieldSpec => ({
  type: 'datetime',
  operators: FILTER_OPERATORS.datetime,
  compile: (leaf, b, now) => compileDatetime(column(sql), leaf, b, now),
});
const booleanField = (sql: string, operators: readonly string[] = FILTER_OPERATORS.boolean): FieldSpec => ({
  type: 'boolean',
  operators,
  compile: (leaf, b) => compileBoolean(column(sql), leaf, b),
});
const numberField = (sql: string): FieldSpec => ({
  type: 'number',
  operators: FILTER_OPERATORS.number,
  compile: (leaf, b) => compileNumber(column(sql), leaf, b),
});
/** Fractional days between now and a timestamp, now bound as a parameter so the SQL stays deterministic. */
const daysSinceField = (sql: string): FieldSpec => ({
  type: 'number',
  operators: FILTER_OPERATORS.number,
  compile: (leaf, b, now) =>
    compileNumber((bb) => `(julianday(${bb.bind(now.toISOString())}) - julianday(${sql}))`, leaf, b, true),
});

const FIELDS: Readonly<Record<string, FieldSpec>> = {
  // Core
  hostname: stringField('d.hostname'),
  displayName: stringField('d.display_name'),
  agentVersion: stringField('d.agent_version'),
  lastUser: stringField('d.last_user'),
  status: enumField('d.status', DEVICE_STATUSES),
  enrolledAt: datetimeField('d.enrolled_at'),
  lastSeenAt: datetimeField('d.last_seen_at'),
  quarantinedAt: datetimeField('d.quarantined_at'),
  tags: { type: 'array', operators: FILTER_OPERATORS.array, compile: (leaf, b) => compileTags(leaf, b) },
  deviceRole: enumField('d.device_role', DEVICE_ROLES),
  isHeadless: booleanField('d.is_headless'),
  uptimeSeconds: numberField('d.uptime_seconds'),
  watchdogStatus: enumField('d.watchdog_status', WATCHDOG_STATUSES),
  // Capability checks
  'patches.pending': booleanField('d.patches_pending', FILTER_OPERATORS.capability),
  'alerts.critical': booleanField('d.alerts_critical', FILTER_OPERATORS.capability),
  'system.rebootRequired': booleanField('d.reboot_required', FILTER_OPERATORS.capability),
  // OS
  osType: enumField('d.os_type', OS_TYPES),
  osVersion: stringField('d.os_version'),
  osBuild: stringField('d.os_build'),
  architecture: enumField('d.architecture', ARCHITECTURES),
  // Hardware
  'hardware.manufacturer': stringField('d.hw_manufacturer'),
  'hardware.model': stringField('d.hw_model'),
  'hardware.serialNumber': stringField('d.hw_serial_number'),
  'hardware.cpuModel': stringField('d.hw_cpu_model'),
  'hardware.gpuModel': stringField('d.hw_gpu_model'),
  'hardware.cpuCores': numberField('d.hw_cpu_cores'),
  'hardware.ramTotalMb': numberField('d.hw_ram_total_mb'),
  'hardware.diskTotalGb': numberField('d.hw_disk_total_gb'),
  // Network
  'network.ipAddress': stringField('d.net_ip_address'),
  'network.publicIp': stringField('d.net_public_ip'),
  'network.macAddress': stringField('d.net_mac_address'),
  lastSeenIp: stringField('d.last_seen_ip'),
  // Metrics
  'metrics.cpuPercent': numberField('d.cpu_percent'),
  'metrics.ramPercent': numberField('d.ram_percent'),
  'metrics.diskPercent': numberField('d.disk_percent'),
  // Software
  'software.installed': {
    type: 'software',
    operators: FILTER_OPERATORS.software,
    compile: (leaf, b) => compileSoftware(leaf, b, true),
  },
  'software.notInstalled': {
    type: 'software',
    operators: FILTER_OPERATORS.softwareMissing,
    compile: (leaf, b) => compileSoftware(leaf, b, false),
  },
  // Hierarchy
  orgId: {
    type: 'hierarchy',
    operators: FILTER_OPERATORS.hierarchy,
    compile: (leaf, b) => compileHierarchy(column('d.org_id'), leaf, b),
  },
  siteId: {
    type: 'hierarchy',
    operators: FILTER_OPERATORS.hierarchy,
    compile: (leaf, b) => compileHierarchy(column('d.site_id'), leaf, b),
  },
  groupId: {
    type: 'hierarchy',
    operators: FILTER_OPERATORS.hierarchy,
    compile: (leaf, b) => compileGroup(leaf, b),
  },
  // Computed
  daysSinceLastSeen: daysSinceField('d.last_seen_at'),
  daysSinceEnrolled: daysSinceField('d.enrolled_at'),
};

/** The fixed (non-custom) field keys, for documentation and the console's builder. */
export const FILTER_FIELD_KEYS: readonly string[] = Object.keys(FIELDS);

const CUSTOM_PREFIX = 'custom.';
const CUSTOM_OPERATORS: Record<CustomFieldType, readonly string[]> = {
  string: FILTER_OPERATORS.string,
  number: FILTER_OPERATORS.number,
  boolean: FILTER_OPERATORS.boolean,
  datetime: FILTER_OPERATORS.datetime,
};

/** `custom.<fieldKey>`: the value at the key in the device's custom_fields JSON, the path bound as a parameter. */
function customField(key: string, type: CustomFieldType): FieldSpec {
  const e: Expr = (b) => `json_extract(d.custom_fields, ${b.bind(`$."${key}"`)})`;
  return {
    type,
    operators: CUSTOM_OPERATORS[type],
    compile: (leaf, b, now) => {
      switch (type) {
        case 'number':
          return compileNumber(e, leaf, b);
        case 'boolean':
          return compileBoolean(e, leaf, b);
        case 'datetime':
          return compileDatetime(e, leaf, b, now);
        default:
          return compileString(e, leaf, b);
      }
    },
  };
}

/** A JSON path label is double-quoted and has no escape for `"`; such keys cannot be addressed (or defined). */
const customKeyOk = (key: string) =>
  key.length >= 1 && key.length <= 100 && ![...key].some((c) => c === '"' || c === '\\' || c < ' ');

export function fieldFor(leaf: Leaf, customTypes: CustomFieldTypes): FieldSpec {
  const fixed = Object.hasOwn(FIELDS, leaf.field) ? FIELDS[leaf.field] : undefined;
  if (fixed) return fixed;
  if (leaf.field.startsWith(CUSTOM_PREFIX)) {
    const key = leaf.field.slice(CUSTOM_PREFIX.length);
    if (customKeyOk(key)) return customField(key, customTypes.get(key) ?? 'string');
  }
  throw badRequest(`Unknown field: ${leaf.field}`, 'UNKNOWN_FIELD', { path: leaf.path });
}
