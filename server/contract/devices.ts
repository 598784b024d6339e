// Devices, agents, logs, agent versions, saved filters and search (spec documents 2 and 3; DESIGN §3).

// The value lists below are the one source for the server's validation (zod enums, the filter compiler) and for
// the types; the renderer may import only the types, so its option lists are typed against them.
export const OS_TYPES = ['windows', 'macos', 'linux'] as const;
export type OsType = (typeof OS_TYPES)[number];
export const ARCHITECTURES = ['x64', 'x86', 'arm64'] as const;
export type Architecture = (typeof ARCHITECTURES)[number];
export const DEVICE_STATUSES = ['online', 'offline', 'maintenance', 'quarantined', 'decommissioned'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];
export type DeviceHealth = 'ok' | 'warning' | 'error';
export const DEVICE_ROLES = [
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
] as const;
export type DeviceRole = (typeof DEVICE_ROLES)[number];
export const WATCHDOG_STATUSES = ['connected', 'failover', 'offline'] as const;
export type WatchdogStatus = (typeof WATCHDOG_STATUSES)[number];
/** What the device list can be ordered by (`sort`). */
export const DEVICE_SORTS = [
  'hostname',
  'displayName',
  'status',
  'osType',
  'lastSeenAt',
  'enrolledAt',
  'agentVersion',
  'lastUser',
  'cpuPercent',
] as const;
export type DeviceSort = (typeof DEVICE_SORTS)[number];

export interface DeviceHardware {
  manufacturer: string | null;
  model: string | null;
  serialNumber: string | null;
  cpuModel: string | null;
  gpuModel: string | null;
  cpuCores: number | null;
  ramTotalMb: number | null;
  diskTotalGb: number | null;
}

export interface DeviceNetwork {
  ipAddress: string | null;
  publicIp: string | null;
  macAddress: string | null;
}

export interface DeviceMetrics {
  cpuPercent: number | null;
  ramPercent: number | null;
  diskPercent: number | null;
}

/** A row of `GET /devices`. */
export interface DeviceSummary {
  id: string;
  orgId: string;
  siteId: string | null;
  hostname: string;
  displayName: string | null;
  osType: OsType;
  osVersion: string;
  architecture: Architecture;
  agentVersion: string;
  deviceRole: DeviceRole;
  status: DeviceStatus;
  health: DeviceHealth;
  lastUser: string | null;
  lastSeenAt: string | null;
  enrolledAt: string;
  metrics: DeviceMetrics;
  tags: string[];
}

export interface ManagementPostureEntry {
  product: string;
  status: string;
}

/** `GET /devices/:id`: everything the device detail screen shows. */
export interface DeviceDetail extends DeviceSummary {
  agentId: string;
  osBuild: string | null;
  isHeadless: boolean;
  watchdogStatus: WatchdogStatus | null;
  uptimeSeconds: number | null;
  rebootRequired: boolean | null;
  hardware: DeviceHardware;
  network: DeviceNetwork;
  lastSeenIp: string | null;
  managementPosture: ManagementPostureEntry[] | null;
  postureReportedAt: string | null;
  customFields: Record<string, unknown>;
  groupIds: string[];
  autoUpdate: boolean;
  /** Whether the agent holds its WebSocket right now (live queries need it). */
  connected: boolean;
  decommissionedAt: string | null;
  orgName: string;
  siteName: string | null;
}

export type CommandStatus = 'pending' | 'sent' | 'completed' | 'failed' | 'timeout' | 'cancelled';

export interface DeviceCommand {
  id: string;
  deviceId: string;
  type: string;
  payload: Record<string, unknown>;
  status: CommandStatus;
  createdBy: string | null;
  createdAt: string;
  sentAt: string | null;
  completedAt: string | null;
  result: unknown;
  error: string | null;
}

export const DIAGNOSTIC_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type DiagnosticLevel = (typeof DIAGNOSTIC_LEVELS)[number];

export interface DiagnosticLogEntry {
  id: string;
  deviceId: string;
  orgId: string;
  timestamp: string;
  level: DiagnosticLevel;
  component: string;
  message: string;
  fields: Record<string, unknown>;
  agentVersion: string | null;
  createdAt: string;
}

export const EVENT_LOG_LEVELS = ['info', 'warning', 'error', 'critical'] as const;
export type EventLogLevel = (typeof EVENT_LOG_LEVELS)[number];
export const EVENT_LOG_CATEGORIES = ['security', 'hardware', 'application', 'system'] as const;
export type EventLogCategory = (typeof EVENT_LOG_CATEGORIES)[number];

export interface DeviceEventLogEntry {
  id: string;
  deviceId: string;
  orgId: string;
  timestamp: string;
  level: EventLogLevel;
  category: EventLogCategory;
  source: string;
  eventId: string | null;
  message: string;
  details: Record<string, unknown>;
  createdAt: string;
}

/** The levels of a live event log entry (as Windows names them). */
export const LIVE_EVENT_LEVELS = ['information', 'warning', 'error', 'critical', 'verbose'] as const;
export type LiveEventLevel = (typeof LIVE_EVENT_LEVELS)[number];

/** Live event log entries come from the device itself and are never stored (spec 2). */
export interface LiveEventLogEntry {
  recordId: number;
  timeCreated: string;
  level: LiveEventLevel;
  source: string;
  eventId: number;
  message: string;
  category: string;
  user: string | null;
  computer: string;
  rawXml: string;
}

export interface LiveEventLogDescriptor {
  name: string;
  displayName: string;
  recordCount: number;
  maxSize: number;
  retentionDays: number;
  lastWriteTime: string | null;
}

export interface LiveEventLogPage {
  data: LiveEventLogEntry[];
  pagination: { page: number; limit: number; total: number };
}

/** A device group (`/groups`): devices of one organization, optionally tied to one of its sites. */
export interface DeviceGroup {
  id: string;
  orgId: string;
  siteId: string | null;
  name: string;
  description: string | null;
  /** Members the caller can see that are not decommissioned. */
  deviceCount: number;
  createdAt: string;
  updatedAt: string;
}

/** `POST /groups/:id/devices`: how many of the given devices were new members, and the group afterwards. */
export interface DeviceGroupMembersAdded {
  added: number;
  group: DeviceGroup;
}

/** A row of `GET /tags`. */
export interface TagCount {
  tag: string;
  deviceCount: number;
}

/** What `GET /devices/facets` can count by (`by`, one or several). */
export const DEVICE_FACETS = ['org', 'status', 'osType', 'agentVersion', 'agentBuild'] as const;
export type DeviceFacet = (typeof DEVICE_FACETS)[number];

/** How many visible devices carry one value of a facet. */
export interface FacetCount {
  value: string;
  count: number;
}

/** An `agentBuild` count: devices running one agent version on one operating system and architecture. */
export interface AgentBuildCount extends FacetCount {
  osType: OsType;
  architecture: Architecture;
}

/**
 * `GET /devices/facets`: counts of the devices the caller may see (the device list's visibility and filters),
 * per value of each facet asked for, largest first; `total` is every matching device.
 */
export interface DeviceFacets {
  total: number;
  facets: {
    org?: FacetCount[];
    status?: FacetCount[];
    osType?: FacetCount[];
    agentVersion?: FacetCount[];
    agentBuild?: AgentBuildCount[];
  };
}
