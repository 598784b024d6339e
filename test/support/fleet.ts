import { createHash } from 'node:crypto';
import type { Db } from '../../server/db/connection';
import {
  HOST_PREFIXES,
  DISPLAY_NAMES,
  USERS,
  ROLES,
  STATUSES,
  MANUFACTURERS,
  MODELS,
  CPUS,
  GPUS,
  TAGS,
  SOFTWARE,
  AGENT_VERSIONS,
  OS,
  type FleetOsType,
  type FleetStatus,
} from './fleet-values';

// A deterministic fleet written straight into SQLite: the same seed gives the same devices, values and
// timestamps (relative to `now`), so filter tests can compute their expectations from the returned records and
// the benchmark can insert tens of thousands of devices in one transaction. Every filterable column is set in
// varied ways, NULLs included, with values that trip naive SQL: `%` and `_` in text, mixed case, tags and
// software names that differ only in case.

export type { FleetOsType, FleetStatus } from './fleet-values';

export interface FleetDevice {
  id: string;
  orgId: string;
  siteId: string | null;
  agentId: string;
  hostname: string;
  displayName: string | null;
  osType: FleetOsType;
  osVersion: string;
  osBuild: string | null;
  architecture: 'x64' | 'x86' | 'arm64';
  agentVersion: string;
  deviceRole: string;
  isHeadless: boolean;
  status: FleetStatus;
  health: 'ok' | 'warning' | 'error';
  watchdogStatus: 'connected' | 'failover' | 'offline' | null;
  lastUser: string | null;
  uptimeSeconds: number | null;
  rebootRequired: boolean | null;
  patchesPending: boolean;
  alertsCritical: boolean;
  hardware: {
    manufacturer: string | null;
    model: string | null;
    serialNumber: string | null;
    cpuModel: string | null;
    gpuModel: string | null;
    cpuCores: number | null;
    ramTotalMb: number | null;
    diskTotalGb: number | null;
  };
  network: { ipAddress: string | null; publicIp: string | null; macAddress: string | null };
  lastSeenIp: string | null;
  metrics: { cpuPercent: number | null; ramPercent: number | null; diskPercent: number | null };
  customFields: Record<string, unknown>;
  enrolledAt: string;
  lastSeenAt: string | null;
  quarantinedAt: string | null;
  decommissionedAt: string | null;
  tags: string[];
  software: string[];
  groupIds: string[];
}

export interface FleetSite {
  id: string;
  orgId: string;
  name: string;
}

export interface FleetGroup {
  id: string;
  orgId: string;
  name: string;
}

export interface Fleet {
  devices: FleetDevice[];
  sites: FleetSite[];
  groups: FleetGroup[];
  /** The custom-field definitions written (a key left out here, `assetTag`, is a string by default). */
  customFieldTypes: Record<string, 'number' | 'boolean' | 'datetime'>;
  now: Date;
}

export interface FleetOptions {
  /** Devices are spread over these organizations round-robin; each gets two sites and two groups. */
  orgIds: string[];
  count: number;
  seed: number;
  /** Timestamps are placed relative to this instant (default: now). */
  now?: Date;
}

/** mulberry32: a small, fast, seedable PRNG; good enough to spread fixture values. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A stable UUID-shaped id from a name: reruns with the same seed give the same ids. */
export function fleetId(name: string): string {
  const h = createHash('sha256').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * Inserts `count` devices (with their tags, software and group memberships), two sites and two device groups per
 * organization, and custom-field definitions (`rackUnits` number for each partner, `backupEnabled` boolean and
 * `warrantyEnds` datetime for each organization), in one transaction with prepared statements.
 */
export function insertFleet(db: Db, options: FleetOptions): Fleet {
  const rand = prng(options.seed);
  const now = options.now ?? new Date();
  const nowMs = now.getTime();
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const chance = (p: number) => rand() < p;
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const at = (ms: number) => new Date(ms).toISOString();
  const created = now.toISOString();

  const insertSite = db.prepare(
    'INSERT INTO sites (id, org_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
  );
  const insertGroup = db.prepare(
    'INSERT INTO device_groups (id, org_id, site_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insertField = db.prepare(
    `INSERT OR IGNORE INTO custom_fields (id, partner_id, org_id, field_key, name, type, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertDevice = db.prepare(
    `INSERT INTO devices (id, org_id, site_id, agent_id, agent_token_hash, hostname, display_name, os_type,
       os_version, os_build, architecture, agent_version, device_role, is_headless, status, health,
       watchdog_status, last_user, uptime_seconds, reboot_required, patches_pending, alerts_critical,
       hw_manufacturer, hw_model, hw_serial_number, hw_cpu_model, hw_gpu_model, hw_cpu_cores, hw_ram_total_mb,
       hw_disk_total_gb, net_ip_address, net_public_ip, net_mac_address, last_seen_ip, cpu_percent, ram_percent,
       disk_percent, management_posture, posture_reported_at, custom_fields, auto_update, enrolled_at,
       last_seen_at, quarantined_at, decommissioned_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
       ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertTag = db.prepare('INSERT INTO device_tags (device_id, tag) VALUES (?, ?)');
  const insertSoftware = db.prepare(
    'INSERT INTO device_software (device_id, name, version, publisher) VALUES (?, ?, ?, ?)',
  );
  const insertMember = db.prepare(
    'INSERT INTO device_group_members (group_id, device_id, added_at) VALUES (?, ?, ?)',
  );
  const partnerOf = db.prepare('SELECT partner_id FROM organizations WHERE id = ?');

  const sites: FleetSite[] = [];
  const groups: FleetGroup[] = [];
  const devices: FleetDevice[] = [];
  const ns = `fleet:${options.seed}`;

  db.transaction(() => {
    for (const orgId of options.orgIds) {
      for (const name of ['Head office', 'Branch']) {
        const site = { id: fleetId(`${ns}:${orgId}:site:${name}`), orgId, name };
        insertSite.run(site.id, orgId, name, created, created);
        sites.push(site);
      }
      for (const name of ['Servers', 'Laptops']) {
        const group = { id: fleetId(`${ns}:${orgId}:group:${name}`), orgId, name };
        insertGroup.run(group.id, orgId, null, name, created, created);
        groups.push(group);
      }
      const partnerId = (partnerOf.get(orgId) as { partner_id: string } | undefined)?.partner_id ?? null;
      if (partnerId)
        insertField.run(
          fleetId(`${ns}:${partnerId}:rackUnits`),
          partnerId,
          null,
          'rackUnits',
          'Rack units',
          'number',
          created,
          created,
        );
      insertField.run(
        fleetId(`${ns}:${orgId}:backupEnabled`),
        null,
        orgId,
        'backupEnabled',
        'Backup enabled',
        'boolean',
        created,
        created,
      );
      insertField.run(
        fleetId(`${ns}:${orgId}:warrantyEnds`),
        null,
        orgId,
        'warrantyEnds',
        'Warranty ends',
        'datetime',
        created,
        created,
      );
    }

    for (let i = 0; i < options.count; i++) {
      const orgId = options.orgIds[i % options.orgIds.length]!;
      const id = fleetId(`${ns}:${orgId}:device:${i}`);
      const osType = pick(['windows', 'windows', 'macos', 'linux'] as const);
      const os = OS[osType];
      const status: FleetStatus = i % 17 === 5 ? 'decommissioned' : pick(STATUSES);
      const enrolledMs = nowMs - int(1, 400) * DAY - int(0, 1439) * MINUTE;
      // An online device heartbeated moments ago (the presence sweep turns stale online devices offline);
      // the others were last seen any time in the past three months, or never.
      const lastSeenMs =
        status === 'online'
          ? nowMs - int(0, 90) * 1000
          : chance(0.14)
            ? null
            : Math.max(enrolledMs, nowMs - int(0, 90 * 24 * 60) * MINUTE);
      const orgSites = sites.filter((s) => s.orgId === orgId);
      const orgGroups = groups.filter((g) => g.orgId === orgId);
      const customFields: Record<string, unknown> = {};
      if (chance(0.6)) customFields.assetTag = chance(0.5) ? `AT-${int(1000, 9999)}` : `at_${int(10, 99)}%`;
      if (chance(0.6)) customFields.rackUnits = chance(0.3) ? int(1, 4) + 0.5 : int(1, 8);
      if (chance(0.7)) customFields.backupEnabled = chance(0.5);
      if (chance(0.6)) customFields.warrantyEnds = at(nowMs + int(-500, 900) * DAY);
      const serial = chance(0.15) ? null : `SN${int(100000, 999999)}${chance(0.2) ? '_X' : ''}`;

      const device: FleetDevice = {
        id,
        orgId,
        siteId: chance(0.15) ? null : pick(orgSites).id,
        agentId: `agent-${id.slice(0, 8)}-${i}`,
        hostname: `${pick(HOST_PREFIXES)}${String(i).padStart(3, '0')}`,
        displayName: chance(0.3) ? null : pick(DISPLAY_NAMES),
        osType,
        osVersion: pick(os.versions),
        osBuild: pick(os.builds),
        architecture:
          osType === 'macos'
            ? pick(['arm64', 'x64'] as const)
            : pick(['x64', 'x64', 'x86', 'arm64'] as const),
        agentVersion: pick(AGENT_VERSIONS),
        deviceRole: pick(ROLES),
        isHeadless: chance(0.3),
        status,
        health: pick(['ok', 'ok', 'warning', 'error'] as const),
        watchdogStatus: chance(0.25) ? null : pick(['connected', 'failover', 'offline'] as const),
        lastUser: chance(0.25) ? null : pick(USERS),
        uptimeSeconds: chance(0.2) ? null : int(0, (60 * DAY) / 1000),
        rebootRequired: chance(0.25) ? null : chance(0.4),
        patchesPending: chance(0.4),
        alertsCritical: chance(0.2),
        hardware: {
          manufacturer: chance(0.15) ? null : pick(MANUFACTURERS),
          model: chance(0.15) ? null : pick(MODELS),
          serialNumber: serial,
          cpuModel: chance(0.15) ? null : pick(CPUS),
          gpuModel: chance(0.35) ? null : pick(GPUS),
          cpuCores: chance(0.15) ? null : pick([2, 4, 4, 8, 16, 32]),
          ramTotalMb: chance(0.15) ? null : pick([4096, 8192, 16384, 32768, 65536]),
          diskTotalGb: chance(0.15) ? null : pick([128, 256, 512, 1000, 2000]),
        },
        network: {
          ipAddress: chance(0.15) ? null : `10.${int(0, 3)}.${int(0, 9)}.${int(1, 254)}`,
          publicIp: chance(0.4) ? null : `203.0.113.${int(1, 254)}`,
          macAddress: chance(0.15)
            ? null
            : Array.from({ length: 6 }, () => int(0, 255).toString(16).padStart(2, '0'))
                .join(':')
                .toUpperCase(),
        },
        lastSeenIp: lastSeenMs === null ? null : `198.51.100.${int(1, 254)}`,
        metrics: {
          cpuPercent: chance(0.15) ? null : Math.round(rand() * 1000) / 10,
          ramPercent: chance(0.15) ? null : int(5, 99),
          diskPercent: chance(0.15) ? null : Math.round(rand() * 1000) / 10,
        },
        customFields,
        enrolledAt: at(enrolledMs),
        lastSeenAt: lastSeenMs === null ? null : at(lastSeenMs),
        quarantinedAt: status === 'quarantined' ? at(nowMs - int(0, 30) * DAY - int(0, 1439) * MINUTE) : null,
        decommissionedAt: status === 'decommissioned' ? at(nowMs - int(0, 30) * DAY) : null,
        tags: [...new Set(Array.from({ length: int(0, 3) }, () => pick(TAGS)))],
        software: [...new Set(Array.from({ length: int(0, 6) }, () => pick(SOFTWARE)))],
        groupIds: orgGroups.filter(() => chance(0.4)).map((g) => g.id),
      };
      // `kiosk` devices get a lowercase duplicate-by-case of a software name, so case-insensitive matching of
      // software names is exercised against distinct rows.
      if (device.hostname.startsWith('kiosk') && device.software.includes('Slack'))
        device.software.push('slack');

      insertDevice.run(
        device.id,
        device.orgId,
        device.siteId,
        device.agentId,
        createHash('sha256').update(`token:${device.id}`).digest('hex'),
        device.hostname,
        device.displayName,
        device.osType,
        device.osVersion,
        device.osBuild,
        device.architecture,
        device.agentVersion,
        device.deviceRole,
        device.isHeadless ? 1 : 0,
        device.status,
        device.health,
        device.watchdogStatus,
        device.lastUser,
        device.uptimeSeconds,
        device.rebootRequired === null ? null : device.rebootRequired ? 1 : 0,
        device.patchesPending ? 1 : 0,
        device.alertsCritical ? 1 : 0,
        device.hardware.manufacturer,
        device.hardware.model,
        device.hardware.serialNumber,
        device.hardware.cpuModel,
        device.hardware.gpuModel,
        device.hardware.cpuCores,
        device.hardware.ramTotalMb,
        device.hardware.diskTotalGb,
        device.network.ipAddress,
        device.network.publicIp,
        device.network.macAddress,
        device.lastSeenIp,
        device.metrics.cpuPercent,
        device.metrics.ramPercent,
        device.metrics.diskPercent,
        chance(0.5) ? JSON.stringify([{ product: 'Defender', status: 'active' }]) : null,
        device.lastSeenAt,
        JSON.stringify(device.customFields),
        chance(0.9) ? 1 : 0,
        device.enrolledAt,
        device.lastSeenAt,
        device.quarantinedAt,
        device.decommissionedAt,
        device.enrolledAt,
        device.lastSeenAt ?? device.enrolledAt,
      );
      for (const tag of device.tags) insertTag.run(device.id, tag);
      for (const name of device.software)
        insertSoftware.run(device.id, name, `${int(1, 120)}.${int(0, 9)}`, chance(0.3) ? null : 'Vendor');
      for (const groupId of device.groupIds) insertMember.run(groupId, device.id, created);
      devices.push(device);
    }
  })();

  return {
    devices,
    sites,
    groups,
    customFieldTypes: { rackUnits: 'number', backupEnabled: 'boolean', warrantyEnds: 'datetime' },
    now,
  };
}
