import type { DeviceDetail, DeviceGroup, DeviceSummary, ManagementPostureEntry } from '../../contract';
import { statement, type Db } from '../../db/connection';
import { pagedQuery } from '../../db/paged';
import { pageOffset, type PageRequest } from '../../http/pagination';
import type { DeviceCommandRow } from '../agents';
import type { DeviceSort } from '../../contract/devices';

// SQL for devices, their tags, groups and commands, as free functions of the database. The device list is built from WHERE fragments over the alias
// `d` (the saved-filter compiler writes to the same alias), so every narrowing composes into one statement.

/** A WHERE fragment and its bound parameters, in order. */
export interface Clause {
  sql: string;
  params: unknown[];
  /**
   * The same test written so that SQLite will not drive the query from an index on it (`+column`). The device
   * list uses it when the caller's scope covers a large share of the table: then walking the sort order's index
   * (or scanning the table once) beats collecting the scope from devices_org and sorting it all.
   */
  broadSql?: string;
}

export interface DeviceSummaryRow {
  id: string;
  org_id: string;
  site_id: string | null;
  hostname: string;
  display_name: string | null;
  os_type: DeviceSummary['osType'];
  os_version: string;
  architecture: DeviceSummary['architecture'];
  agent_version: string;
  device_role: DeviceSummary['deviceRole'];
  status: DeviceSummary['status'];
  health: DeviceSummary['health'];
  last_user: string | null;
  last_seen_at: string | null;
  enrolled_at: string;
  cpu_percent: number | null;
  ram_percent: number | null;
  disk_percent: number | null;
}

export interface DeviceRow extends DeviceSummaryRow {
  agent_id: string;
  os_build: string | null;
  is_headless: number;
  watchdog_status: DeviceDetail['watchdogStatus'];
  uptime_seconds: number | null;
  reboot_required: number | null;
  hw_manufacturer: string | null;
  hw_model: string | null;
  hw_serial_number: string | null;
  hw_cpu_model: string | null;
  hw_gpu_model: string | null;
  hw_cpu_cores: number | null;
  hw_ram_total_mb: number | null;
  hw_disk_total_gb: number | null;
  net_ip_address: string | null;
  net_public_ip: string | null;
  net_mac_address: string | null;
  last_seen_ip: string | null;
  management_posture: string | null;
  posture_reported_at: string | null;
  custom_fields: string;
  auto_update: number;
  decommissioned_at: string | null;
  org_name: string;
  site_name: string | null;
}

const SUMMARY_COLUMNS = `d.id, d.org_id, d.site_id, d.hostname, d.display_name, d.os_type, d.os_version,
  d.architecture, d.agent_version, d.device_role, d.status, d.health, d.last_user, d.last_seen_at, d.enrolled_at,
  d.cpu_percent, d.ram_percent, d.disk_percent`;

const DETAIL_COLUMNS = `${SUMMARY_COLUMNS}, d.agent_id, d.os_build, d.is_headless, d.watchdog_status,
  d.uptime_seconds, d.reboot_required, d.hw_manufacturer, d.hw_model, d.hw_serial_number, d.hw_cpu_model,
  d.hw_gpu_model, d.hw_cpu_cores, d.hw_ram_total_mb, d.hw_disk_total_gb, d.net_ip_address, d.net_public_ip,
  d.net_mac_address, d.last_seen_ip, d.management_posture, d.posture_reported_at, d.custom_fields, d.auto_update,
  d.decommissioned_at, o.name AS org_name, s.name AS site_name`;

/**
 * Sort keys to ORDER BY terms. Text sorts ignore case, as a technician reading a list expects. NULLs come last in
 * both directions (SQLite already puts them last when descending, so only ascending needs the IS NULL term, and
 * descending keeps the plain form an index can serve). Ties break on hostname where values repeat a lot, and
 * always on rowid, so paging is stable; hostname and lastSeenAt then match their indexes exactly.
 */
const SORT_COLUMNS: Record<DeviceSort, { expr: string; nullable: boolean; byHostname: boolean }> = {
  hostname: { expr: 'd.hostname COLLATE NOCASE', nullable: false, byHostname: false },
  displayName: { expr: 'd.display_name COLLATE NOCASE', nullable: true, byHostname: true },
  status: { expr: 'd.status', nullable: false, byHostname: true },
  osType: { expr: 'd.os_type', nullable: false, byHostname: true },
  lastSeenAt: { expr: 'd.last_seen_at', nullable: true, byHostname: false },
  enrolledAt: { expr: 'd.enrolled_at', nullable: false, byHostname: false },
  agentVersion: { expr: 'd.agent_version', nullable: false, byHostname: true },
  lastUser: { expr: 'd.last_user COLLATE NOCASE', nullable: true, byHostname: true },
  cpuPercent: { expr: 'd.cpu_percent', nullable: true, byHostname: true },
};

function orderBy(sort: DeviceSort, order: 'asc' | 'desc'): string {
  const { expr, nullable, byHostname } = SORT_COLUMNS[sort];
  const dir = order === 'desc' ? 'DESC' : 'ASC';
  const terms = nullable && order === 'asc' ? [`${expr} IS NULL`, `${expr} ${dir}`] : [`${expr} ${dir}`];
  if (byHostname) terms.push(`d.hostname COLLATE NOCASE ${dir}`);
  terms.push(`d.rowid ${dir}`);
  return terms.join(', ');
}

/** A scope that covers at least this share of all devices is "broad" (see Clause.broadSql). */
const BROAD_SHARE = 0.1;

export function toSummary(row: DeviceSummaryRow, tags: string[]): DeviceSummary {
  return {
    id: row.id,
    orgId: row.org_id,
    siteId: row.site_id,
    hostname: row.hostname,
    displayName: row.display_name,
    osType: row.os_type,
    osVersion: row.os_version,
    architecture: row.architecture,
    agentVersion: row.agent_version,
    deviceRole: row.device_role,
    status: row.status,
    health: row.health,
    lastUser: row.last_user,
    lastSeenAt: row.last_seen_at,
    enrolledAt: row.enrolled_at,
    metrics: { cpuPercent: row.cpu_percent, ramPercent: row.ram_percent, diskPercent: row.disk_percent },
    tags,
  };
}

function parseJson<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

const flag = (value: number | null): boolean | null => (value === null ? null : value === 1);

export function toDetail(
  row: DeviceRow,
  extra: { tags: string[]; groupIds: string[]; connected: boolean },
): DeviceDetail {
  const posture = parseJson<ManagementPostureEntry[] | null>(row.management_posture, null);
  const custom = parseJson<unknown>(row.custom_fields, {});
  return {
    ...toSummary(row, extra.tags),
    agentId: row.agent_id,
    osBuild: row.os_build,
    isHeadless: row.is_headless === 1,
    watchdogStatus: row.watchdog_status,
    uptimeSeconds: row.uptime_seconds,
    rebootRequired: flag(row.reboot_required),
    hardware: {
      manufacturer: row.hw_manufacturer,
      model: row.hw_model,
      serialNumber: row.hw_serial_number,
      cpuModel: row.hw_cpu_model,
      gpuModel: row.hw_gpu_model,
      cpuCores: row.hw_cpu_cores,
      ramTotalMb: row.hw_ram_total_mb,
      diskTotalGb: row.hw_disk_total_gb,
    },
    network: { ipAddress: row.net_ip_address, publicIp: row.net_public_ip, macAddress: row.net_mac_address },
    lastSeenIp: row.last_seen_ip,
    managementPosture: Array.isArray(posture) ? posture : null,
    postureReportedAt: row.posture_reported_at,
    customFields:
      custom && typeof custom === 'object' && !Array.isArray(custom)
        ? (custom as Record<string, unknown>)
        : {},
    groupIds: extra.groupIds,
    autoUpdate: row.auto_update === 1,
    connected: extra.connected,
    decommissionedAt: row.decommissioned_at,
    orgName: row.org_name,
    siteName: row.site_name,
  };
}

export interface GroupRow {
  id: string;
  org_id: string;
  site_id: string | null;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
  device_count: number;
}

export function toGroup(row: GroupRow): DeviceGroup {
  return {
    id: row.id,
    orgId: row.org_id,
    siteId: row.site_id,
    name: row.name,
    description: row.description,
    deviceCount: row.device_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const where = (clauses: Clause[], broad = false): { sql: string; params: unknown[] } => ({
  sql: clauses.length
    ? clauses.map((c) => `(${broad && c.broadSql !== undefined ? c.broadSql : c.sql})`).join(' AND ')
    : '1 = 1',
  params: clauses.flatMap((c) => c.params),
});

export interface DeviceFields {
  display_name?: string | null;
  site_id?: string | null;
  custom_fields?: string;
  device_role?: string;
  auto_update?: number;
}

/** A device with its organization and site names; undefined when missing or its organization is deleted. */
export function deviceById(db: Db, id: string): DeviceRow | undefined {
  return statement(
    db,
    `SELECT ${DETAIL_COLUMNS} FROM devices d
      JOIN organizations o ON o.id = d.org_id AND o.deleted_at IS NULL
      LEFT JOIN sites s ON s.id = d.site_id WHERE d.id = ?`,
  ).get(id) as DeviceRow | undefined;
}

/** Tags of many devices in one query (the list's page), by device id. */
export function tagsOfDevices(db: Db, deviceIds: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>(deviceIds.map((id) => [id, []]));
  if (deviceIds.length === 0) return out;
  const rows = statement(
    db,
    `SELECT device_id, tag FROM device_tags
      WHERE device_id IN (SELECT value FROM json_each(?)) ORDER BY tag COLLATE NOCASE, tag`,
  ).all(JSON.stringify(deviceIds)) as Array<{ device_id: string; tag: string }>;
  for (const row of rows) out.get(row.device_id)?.push(row.tag);
  return out;
}

export function groupIdsOfDevice(db: Db, deviceId: string): string[] {
  const rows = statement(
    db,
    `SELECT m.group_id FROM device_group_members m
      JOIN device_groups g ON g.id = m.group_id WHERE m.device_id = ? ORDER BY g.name COLLATE NOCASE, g.id`,
  ).all(deviceId) as Array<{ group_id: string }>;
  return rows.map((r) => r.group_id);
}

export function listDeviceRows(
  db: Db,
  clauses: Clause[],
  sort: DeviceSort,
  order: 'asc' | 'desc',
  page: PageRequest,
): { rows: DeviceSummaryRow[]; total: number } {
  // How much of the table the caller's scope covers decides the plan (see Clause.broadSql); the scope alone is
  // counted from the covering devices_org index, so asking costs little.
  const scoped = where(clauses.filter((c) => c.broadSql !== undefined));
  const inScope = (
    db.prepare(`SELECT COUNT(*) AS n FROM devices d WHERE ${scoped.sql}`).get(...scoped.params) as {
      n: number;
    }
  ).n;
  const w = where(clauses, inScope >= BROAD_SHARE * deviceCount(db));
  const total = (
    db.prepare(`SELECT COUNT(*) AS n FROM devices d WHERE ${w.sql}`).get(...w.params) as { n: number }
  ).n;
  const offset = pageOffset(page);
  if (total === 0 || offset >= total) return { rows: [], total };
  const sorted = orderBy(sort, order);
  // Deferred join: the sort and the skipped rows touch only rowids; full rows are read for the page alone.
  const rows = db
    .prepare(
      `SELECT ${SUMMARY_COLUMNS} FROM devices d WHERE d.rowid IN (
         SELECT d.rowid FROM devices d WHERE ${w.sql} ORDER BY ${sorted} LIMIT ? OFFSET ?)
       ORDER BY ${sorted}`,
    )
    .all(...w.params, page.limit, offset) as DeviceSummaryRow[];
  return { rows, total };
}

function deviceCount(db: Db): number {
  return (statement(db, 'SELECT COUNT(*) AS n FROM devices').get() as { n: number }).n;
}

/** Writes the given columns (only those present) and stamps updated_at. */
export function updateDeviceRow(db: Db, id: string, fields: DeviceFields, at: string): void {
  const sets = Object.keys(fields).map((column) => `${column} = @${column}`);
  db.prepare(`UPDATE devices SET ${[...sets, 'updated_at = @at'].join(', ')} WHERE id = @id`).run({
    ...fields,
    id,
    at,
  });
}

export function replaceDeviceTags(db: Db, deviceId: string, tags: string[]): void {
  statement(db, 'DELETE FROM device_tags WHERE device_id = ?').run(deviceId);
  const insert = statement(db, 'INSERT OR IGNORE INTO device_tags (device_id, tag) VALUES (?, ?)');
  for (const tag of tags) insert.run(deviceId, tag);
}

/** False when the device was already decommissioned (a concurrent delete won). */
export function decommissionDeviceRow(db: Db, id: string, at: string): boolean {
  return (
    statement(
      db,
      `UPDATE devices SET status = 'decommissioned', decommissioned_at = @at,
      updated_at = @at WHERE id = @id AND status != 'decommissioned'`,
    ).run({ id, at }).changes === 1
  );
}

export function deviceCommandRows(
  db: Db,
  deviceId: string,
  page: PageRequest,
): { rows: DeviceCommandRow[]; total: number } {
  return pagedQuery<DeviceCommandRow>(db, {
    select: '*',
    from: 'device_commands',
    where: ['device_id = ?'],
    params: [deviceId],
    orderBy: 'created_at DESC, rowid DESC',
    page,
  });
}

/** Tags over `devices d` joined to `device_tags t`, narrowed by `clauses`, with their device counts, by name. */
export function tagCounts(
  db: Db,
  clauses: Clause[],
  limit: number,
): Array<{ tag: string; device_count: number }> {
  return db
    .prepare(
      `SELECT t.tag, COUNT(*) AS device_count FROM device_tags t JOIN devices d ON d.id = t.device_id
       WHERE ${clauses.map((c) => `(${c.sql})`).join(' AND ')}
       GROUP BY t.tag ORDER BY t.tag COLLATE NOCASE, t.tag LIMIT ?`,
    )
    .all(...clauses.flatMap((c) => c.params), limit) as Array<{ tag: string; device_count: number }>;
}

export function siteOrg(db: Db, siteId: string): string | undefined {
  return (db.prepare('SELECT org_id FROM sites WHERE id = ?').get(siteId) as { org_id: string } | undefined)
    ?.org_id;
}
