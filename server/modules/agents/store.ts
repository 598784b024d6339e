import type { Statement } from 'better-sqlite3';
import { transaction } from '../../db/after-commit';
import type { AgentArch, AgentPlatform, Architecture, DeviceStatus, OsType } from '../../contract';
import type { Db } from '../../db/connection';

// SQL of the agent side. Every statement is prepared once per database: heartbeats arrive from thousands of
// agents and must not pay for statement compilation or scope resolution.

/** What every agent request needs to know about its device, read in one indexed lookup by agent id. */
export interface AgentDeviceRow {
  id: string;
  org_id: string;
  site_id: string | null;
  hostname: string;
  status: DeviceStatus;
  agent_token_hash: string;
  os_type: OsType;
  architecture: Architecture;
  agent_version: string;
  auto_update: 0 | 1;
  last_seen_at: string | null;
  partner_id: string;
  partner_status: string;
  /** Set when the partner or the organization was deleted: the agent's tenant is gone. */
  tenant_deleted: 0 | 1;
}

export interface DeviceCommandRow {
  id: string;
  device_id: string;
  org_id: string;
  type: string;
  payload: string;
  status: 'pending' | 'sent' | 'completed' | 'failed' | 'timeout' | 'cancelled';
  created_by: string | null;
  created_at: string;
  sent_at: string | null;
  completed_at: string | null;
  result: string | null;
  error: string | null;
}

export interface ClaimedCommand {
  id: string;
  type: string;
  payload: string;
  /** Insertion order: two commands queued in the same millisecond still run in the order they were queued. */
  seq: number;
}

export interface EnrollTarget {
  org_id: string;
  org_max_devices: number | null;
  partner_id: string;
  partner_status: string;
  partner_deleted: 0 | 1;
  partner_max_devices: number | null;
}

export interface NewDevice {
  id: string;
  orgId: string;
  siteId: string | null;
  agentId: string;
  tokenHash: string;
  enrollmentKeyId: string;
  hostname: string;
  displayName: string | null;
  osType: OsType;
  osVersion: string;
  osBuild: string | null;
  architecture: Architecture;
  agentVersion: string;
  deviceRole: string;
  hwManufacturer: string | null;
  hwModel: string | null;
  hwSerialNumber: string | null;
  hwCpuModel: string | null;
  hwGpuModel: string | null;
  hwCpuCores: number | null;
  hwRamTotalMb: number | null;
  hwDiskTotalGb: number | null;
  netIpAddress: string | null;
  netMacAddress: string | null;
  lastSeenIp: string | null;
  at: string;
}

export interface HeartbeatUpdate {
  id: string;
  health: 'ok' | 'warning' | 'error';
  agentVersion: string;
  cpuPercent: number | null;
  ramPercent: number | null;
  diskPercent: number | null;
  /** Sentinel columns: an absent field keeps the stored value (`keep_*` = 1). */
  uptimeSeconds: number | null;
  keepUptime: 0 | 1;
  lastUser: string | null;
  keepLastUser: 0 | 1;
  rebootRequired: 0 | 1 | null;
  keepReboot: 0 | 1;
  posture: string | null;
  keepPosture: 0 | 1;
  lastSeenIp: string | null;
  at: string;
}

export interface LatestVersionRow {
  version: string;
  platform: AgentPlatform;
  architecture: AgentArch;
  download_url: string | null;
  file_path: string | null;
  checksum: string;
}

const DEVICE_COLUMNS = `d.id, d.org_id, d.site_id, d.hostname, d.status, d.agent_token_hash, d.os_type,
  d.architecture, d.agent_version, d.auto_update, d.last_seen_at, p.id AS partner_id, p.status AS partner_status,
  (p.deleted_at IS NOT NULL OR o.deleted_at IS NOT NULL) AS tenant_deleted`;

/** Rows per multi-row INSERT of agent logs (spec 2: inserts in groups of 100). */
export const LOG_CHUNK = 100;

function diagnosticInsert(rows: number): string {
  const tuple = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
  return `INSERT INTO diagnostic_logs (id, device_id, org_id, timestamp, level, component, message, fields,
    agent_version, created_at) VALUES ${Array.from({ length: rows }, () => tuple).join(', ')}`;
}

function eventInsert(rows: number): string {
  const tuple = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
  return `INSERT OR IGNORE INTO device_event_logs (id, device_id, org_id, timestamp, level, category, source,
    event_id, message, details, created_at) VALUES ${Array.from({ length: rows }, () => tuple).join(', ')}`;
}

export class AgentStore {
  readonly deviceByAgentId: Statement<[string], AgentDeviceRow>;
  readonly deviceById: Statement<[string], AgentDeviceRow>;
  readonly enrollTarget: Statement<[string], EnrollTarget>;
  readonly orgDeviceCount: Statement<[string], { n: number }>;
  readonly partnerDeviceCount: Statement<[string], { n: number }>;
  readonly insertDevice: Statement<[NewDevice]>;
  readonly heartbeat: Statement<[HeartbeatUpdate]>;
  readonly setOnline: Statement<[{ id: string; at: string }], { id: string }>;
  readonly setOffline: Statement<[{ id: string; at: string }], { id: string }>;
  readonly staleOnline: Statement<
    [string],
    { id: string; hostname: string; org_id: string; site_id: string | null }
  >;
  readonly claimAll: Statement<[{ deviceId: string; at: string }], ClaimedCommand>;
  readonly claimUninstall: Statement<[{ deviceId: string; at: string }], ClaimedCommand>;
  readonly commandById: Statement<[string], DeviceCommandRow>;
  readonly insertCommand: Statement<
    [
      {
        id: string;
        deviceId: string;
        orgId: string;
        type: string;
        payload: string;
        createdBy: string | null;
        at: string;
      },
    ]
  >;
  readonly markSent: Statement<[{ id: string; at: string }]>;
  /** Cancels a command its agent has not received yet (still pending). */
  readonly cancelPending: Statement<[{ id: string; at: string }]>;
  /** Cancels every command still waiting for the device. */
  readonly cancelPendingOfDevice: Statement<[{ deviceId: string; at: string }]>;
  /** Cancels the organization's elevation actuations still waiting for their agents. */
  readonly cancelPendingActuations: Statement<[{ orgId: string; at: string }]>;
  readonly finishCommand: Statement<
    [{ id: string; status: string; result: string | null; error: string | null; at: string }]
  >;
  readonly decommission: Statement<[{ id: string; at: string }], { id: string }>;
  readonly killCredential: Statement<[{ id: string; hash: string }]>;
  readonly latestVersion: Statement<[AgentPlatform, AgentArch], LatestVersionRow>;
  readonly deleteSoftware: Statement<[string]>;
  readonly insertSoftware: Statement<[string, string, string | null, string | null]>;
  /** The heartbeat's write and its command claim, committed together. */
  private readonly diagnosticChunks = new Map<number, Statement<unknown[]>>();
  private readonly eventChunks = new Map<number, Statement<unknown[]>>();

  constructor(private readonly db: Db) {
    const join = `FROM devices d JOIN organizations o ON o.id = d.org_id JOIN partners p ON p.id = o.partner_id`;
    this.deviceByAgentId = db.prepare(`SELECT ${DEVICE_COLUMNS} ${join} WHERE d.agent_id = ?`);
    this.deviceById = db.prepare(`SELECT ${DEVICE_COLUMNS} ${join} WHERE d.id = ?`);
    this.enrollTarget = db.prepare(
      `SELECT o.id AS org_id, o.max_devices AS org_max_devices, p.id AS partner_id, p.status AS partner_status,
         (p.deleted_at IS NOT NULL) AS partner_deleted, p.max_devices AS partner_max_devices
       FROM organizations o JOIN partners p ON p.id = o.partner_id WHERE o.id = ? AND o.deleted_at IS NULL`,
    );
    // Removed (decommissioned) devices do not count toward a cap (spec 1, maxDevices).
    this.orgDeviceCount = db.prepare(
      "SELECT count(*) AS n FROM devices WHERE org_id = ? AND status <> 'decommissioned'",
    );
    this.partnerDeviceCount = db.prepare(
      `SELECT count(*) AS n FROM devices d JOIN organizations o ON o.id = d.org_id
       WHERE o.partner_id = ? AND o.deleted_at IS NULL AND d.status <> 'decommissioned'`,
    );
    this.insertDevice = db.prepare(
      `INSERT INTO devices (id, org_id, site_id, agent_id, agent_token_hash, enrollment_key_id, hostname,
         display_name, os_type, os_version, os_build, architecture, agent_version, device_role, status,
         hw_manufacturer, hw_model, hw_serial_number, hw_cpu_model, hw_gpu_model, hw_cpu_cores, hw_ram_total_mb,
         hw_disk_total_gb, net_ip_address, net_mac_address, last_seen_ip, enrolled_at, last_seen_at, created_at,
         updated_at)
       VALUES (@id, @orgId, @siteId, @agentId, @tokenHash, @enrollmentKeyId, @hostname, @displayName, @osType,
         @osVersion, @osBuild, @architecture, @agentVersion, @deviceRole, 'online', @hwManufacturer, @hwModel,
         @hwSerialNumber, @hwCpuModel, @hwGpuModel, @hwCpuCores, @hwRamTotalMb, @hwDiskTotalGb, @netIpAddress,
         @netMacAddress, @lastSeenIp, @at, @at, @at, @at)`,
    );
    // One statement per heartbeat. Only `offline` turns `online`: maintenance, quarantine and decommissioning
    // are an operator's decision, not the agent's. The caller knows the status before from its auth lookup.
    this.heartbeat = db.prepare(
      `UPDATE devices SET
         health = @health,
         agent_version = @agentVersion,
         cpu_percent = @cpuPercent, ram_percent = @ramPercent, disk_percent = @diskPercent,
         uptime_seconds = CASE WHEN @keepUptime THEN uptime_seconds ELSE @uptimeSeconds END,
         last_user = CASE WHEN @keepLastUser THEN last_user ELSE @lastUser END,
         reboot_required = CASE WHEN @keepReboot THEN reboot_required ELSE @rebootRequired END,
         management_posture = CASE WHEN @keepPosture THEN management_posture ELSE @posture END,
         posture_reported_at = CASE WHEN @keepPosture THEN posture_reported_at ELSE @at END,
         last_seen_at = @at,
         last_seen_ip = coalesce(@lastSeenIp, last_seen_ip),
         status = CASE WHEN status = 'offline' THEN 'online' ELSE status END,
         updated_at = @at
       WHERE id = @id`,
    );
    this.setOnline = db.prepare(
      "UPDATE devices SET status = 'online', updated_at = @at WHERE id = @id AND status = 'offline' RETURNING id",
    );
    this.setOffline = db.prepare(
      "UPDATE devices SET status = 'offline', updated_at = @at WHERE id = @id AND status = 'online' RETURNING id",
    );
    this.staleOnline = db.prepare(
      `SELECT id, hostname, org_id, site_id FROM devices
       WHERE status = 'online' AND (last_seen_at IS NULL OR last_seen_at < ?)`,
    );
    this.claimAll = db.prepare(
      `UPDATE device_commands SET status = 'sent', sent_at = @at
       WHERE device_id = @deviceId AND status = 'pending' RETURNING rowid AS seq, id, type, payload`,
    );
    // Offboarding narrows an agent to collecting its uninstall (spec 1, Partner status).
    this.claimUninstall = db.prepare(
      `UPDATE device_commands SET status = 'sent', sent_at = @at
       WHERE device_id = @deviceId AND status = 'pending' AND type = 'self_uninstall'
       RETURNING rowid AS seq, id, type, payload`,
    );
    this.commandById = db.prepare('SELECT * FROM device_commands WHERE id = ?');
    this.insertCommand = db.prepare(
      `INSERT INTO device_commands (id, device_id, org_id, type, payload, status, created_by, created_at)
       VALUES (@id, @deviceId, @orgId, @type, @payload, 'pending', @createdBy, @at)`,
    );
    this.markSent = db.prepare(
      "UPDATE device_commands SET status = 'sent', sent_at = @at WHERE id = @id AND status = 'pending'",
    );
    this.cancelPending = db.prepare(
      "UPDATE device_commands SET status = 'cancelled', completed_at = @at WHERE id = @id AND status = 'pending'",
    );
    this.cancelPendingOfDevice = db.prepare(
      `UPDATE device_commands SET status = 'cancelled', completed_at = @at
       WHERE device_id = @deviceId AND status = 'pending'`,
    );
    this.cancelPendingActuations = db.prepare(
      `UPDATE device_commands SET status = 'cancelled', completed_at = @at
       WHERE org_id = @orgId AND type = 'actuate_elevation' AND status = 'pending'`,
    );
    this.finishCommand = db.prepare(
      `UPDATE device_commands SET status = @status, result = @result, error = @error, completed_at = @at
       WHERE id = @id AND status IN ('pending', 'sent')`,
    );
    this.decommission = db.prepare(
      `UPDATE devices SET status = 'decommissioned', decommissioned_at = coalesce(decommissioned_at, @at),
         updated_at = @at WHERE id = @id AND status <> 'decommissioned' RETURNING id`,
    );
    // The hash column is NOT NULL and UNIQUE: a dead credential is replaced by a value no token can hash to.
    this.killCredential = db.prepare('UPDATE devices SET agent_token_hash = @hash WHERE id = @id');
    this.latestVersion = db.prepare(
      `SELECT version, platform, architecture, download_url, file_path, checksum FROM agent_versions
       WHERE platform = ? AND architecture = ? AND is_latest = 1`,
    );
    this.deleteSoftware = db.prepare('DELETE FROM device_software WHERE device_id = ?');
    this.insertSoftware = db.prepare(
      `INSERT INTO device_software (device_id, name, version, publisher) VALUES (?, ?, ?, ?)
       ON CONFLICT (device_id, name) DO UPDATE SET version = excluded.version, publisher = excluded.publisher`,
    );
  }

  /** Records a heartbeat and claims the device's pending commands (narrowed agents: uninstalls only), atomically. */
  heartbeatAndClaim(update: HeartbeatUpdate, narrowed: boolean): ClaimedCommand[] {
    return transaction(this.db, () => {
      this.heartbeat.run(update);
      return (narrowed ? this.claimUninstall : this.claimAll).all({ deviceId: update.id, at: update.at });
    });
  }

  /** A multi-row INSERT for `rows` diagnostic log lines (at most LOG_CHUNK), prepared once per size. */
  diagnosticChunk(rows: number): Statement<unknown[]> {
    let stmt = this.diagnosticChunks.get(rows);
    if (!stmt) {
      stmt = this.db.prepare(diagnosticInsert(rows));
      this.diagnosticChunks.set(rows, stmt);
    }
    return stmt;
  }

  /** A multi-row INSERT OR IGNORE for `rows` device events (at most LOG_CHUNK), prepared once per size. */
  eventChunk(rows: number): Statement<unknown[]> {
    let stmt = this.eventChunks.get(rows);
    if (!stmt) {
      stmt = this.db.prepare(eventInsert(rows));
      this.eventChunks.set(rows, stmt);
    }
    return stmt;
  }
}

const stores = new WeakMap<Db, AgentStore>();

/** The store of a database, built on first use (the hub, the routes and queueCommand share it). */
export function agentStore(db: Db): AgentStore {
  let store = stores.get(db);
  if (!store) {
    store = new AgentStore(db);
    stores.set(db, store);
  }
  return store;
}
