import type { Architecture, DeviceStatus, OsType } from '../../contract';
import { statement, type Db } from '../../db/connection';

// The device rows as agents see them: authentication lookups, enrollment, heartbeats, presence and the end of an
// agent's life. Free functions of the database over the statement cache: heartbeats arrive from thousands of
// agents and must not pay for statement compilation or scope resolution. Callers decide transactions.

/** What every agent request needs to know about its device, read in one indexed lookup by agent id. */
export interface AgentDeviceRow {
  id: string;
  org_id: string;
  site_id: string | null;
  hostname: string;
  status: DeviceStatus;
  agent_token_hash: string;
  /** A replaced credential that waits beside the current one until either is used (migration 0020). */
  agent_token_prev_hash: string | null;
  /** 1 while the current credential has not been used. */
  agent_token_fresh: 0 | 1;
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

/** The organization an enrollment key places a device in, with what decides whether it may. */
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

/** The fields presence transitions announce (emitDeviceEvent). */
export interface StaleDevice {
  id: string;
  hostname: string;
  org_id: string;
  site_id: string | null;
}

const AGENT_DEVICE = `SELECT d.id, d.org_id, d.site_id, d.hostname, d.status, d.agent_token_hash,
    d.agent_token_prev_hash, d.agent_token_fresh, d.os_type,
    d.architecture, d.agent_version, d.auto_update, d.last_seen_at, p.id AS partner_id, p.status AS partner_status,
    (p.deleted_at IS NOT NULL OR o.deleted_at IS NOT NULL) AS tenant_deleted
  FROM devices d JOIN organizations o ON o.id = d.org_id JOIN partners p ON p.id = o.partner_id`;

/** The device of an agent id (every agent request authenticates through this). */
export function agentDeviceByAgentId(db: Db, agentId: string): AgentDeviceRow | undefined {
  return statement(db, `${AGENT_DEVICE} WHERE d.agent_id = ?`).get(agentId) as AgentDeviceRow | undefined;
}

/** The device as its agent's credential sees it now (sockets re-read it: it may have changed since the upgrade). */
export function agentDeviceById(db: Db, deviceId: string): AgentDeviceRow | undefined {
  return statement(db, `${AGENT_DEVICE} WHERE d.id = ?`).get(deviceId) as AgentDeviceRow | undefined;
}

/** The live organization `orgId` with its partner; undefined when the organization was deleted. */
export function enrollTargetOf(db: Db, orgId: string): EnrollTarget | undefined {
  return statement(
    db,
    `SELECT o.id AS org_id, o.max_devices AS org_max_devices, p.id AS partner_id, p.status AS partner_status,
       (p.deleted_at IS NOT NULL) AS partner_deleted, p.max_devices AS partner_max_devices
     FROM organizations o JOIN partners p ON p.id = o.partner_id WHERE o.id = ? AND o.deleted_at IS NULL`,
  ).get(orgId) as EnrollTarget | undefined;
}

// Removed (decommissioned) devices do not count toward a cap (spec 1, maxDevices).

/** The organization's devices that count toward its cap. */
export function countOrgDevices(db: Db, orgId: string): number {
  // Kept by triggers (migration 0021): no scan of the organization's devices per enrollment.
  return (
    (
      statement(db, 'SELECT live FROM org_device_counts WHERE org_id = ?').get(orgId) as
        { live: number } | undefined
    )?.live ?? 0
  );
}

/** The devices of the partner's live organizations that count toward the partner's cap. */
export function countPartnerDevices(db: Db, partnerId: string): number {
  return (
    statement(
      db,
      `SELECT coalesce(sum(c.live), 0) AS n FROM org_device_counts c JOIN organizations o ON o.id = c.org_id
       WHERE o.partner_id = ? AND o.deleted_at IS NULL`,
    ).get(partnerId) as { n: number }
  ).n;
}

/** Stores a freshly enrolled device, `online` from its first moment. */
export function insertEnrolledDevice(db: Db, device: NewDevice): void {
  statement(
    db,
    `INSERT INTO devices (id, org_id, site_id, agent_id, agent_token_hash, enrollment_key_id, hostname,
       display_name, os_type, os_version, os_build, architecture, agent_version, device_role, status,
       hw_manufacturer, hw_model, hw_serial_number, hw_cpu_model, hw_gpu_model, hw_cpu_cores, hw_ram_total_mb,
       hw_disk_total_gb, net_ip_address, net_mac_address, last_seen_ip, enrolled_at, last_seen_at, created_at,
       updated_at, agent_token_fresh)
     VALUES (@id, @orgId, @siteId, @agentId, @tokenHash, @enrollmentKeyId, @hostname, @displayName, @osType,
       @osVersion, @osBuild, @architecture, @agentVersion, @deviceRole, 'online', @hwManufacturer, @hwModel,
       @hwSerialNumber, @hwCpuModel, @hwGpuModel, @hwCpuCores, @hwRamTotalMb, @hwDiskTotalGb, @netIpAddress,
       @netMacAddress, @lastSeenIp, @at, @at, @at, @at, 1)`,
  ).run(device);
}

/**
 * A repeated enrollment of the same install: the device keeps everything and gets a new credential. The one it
 * replaces stops working at once if it was ever used (its agent has lost it, or an impostor holds it); if it was
 * never used, its answer may still be on the way (two enrollments of the install crossed), so it waits beside the
 * new one until either is used (settleAgentCredential).
 */
export function reissueAgentCredential(
  db: Db,
  change: { id: string; tokenHash: string; lastSeenIp: string | null; at: string },
): void {
  statement(
    db,
    `UPDATE devices SET
       agent_token_prev_hash = CASE WHEN agent_token_fresh = 1 THEN agent_token_hash END,
       agent_token_hash = @tokenHash, agent_token_fresh = 1,
       last_seen_ip = coalesce(@lastSeenIp, last_seen_ip), updated_at = @at
     WHERE id = @id`,
  ).run(change);
}

/** The credential `hash` was used: it is the device's only one from now on, and no longer fresh. */
export function settleAgentCredential(db: Db, deviceId: string, hash: string): void {
  statement(
    db,
    `UPDATE devices SET agent_token_hash = @hash, agent_token_prev_hash = NULL, agent_token_fresh = 0
     WHERE id = @deviceId`,
  ).run({ deviceId, hash });
}

/**
 * A removed device gives its agent id up when the same install enrolls again (the new device takes that id): the
 * row keeps its history under an id no request path can name.
 */
export function retireAgentId(db: Db, deviceId: string): void {
  statement(db, "UPDATE devices SET agent_id = 'retired:' || id WHERE id = ?").run(deviceId);
}

/**
 * One statement per heartbeat. Only `offline` turns `online`: maintenance, quarantine and decommissioning are an
 * operator's decision, not the agent's. The caller knows the status before from its auth lookup.
 */
export function recordHeartbeat(db: Db, update: HeartbeatUpdate): void {
  statement(
    db,
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
  ).run(update);
}

/** Turns an `offline` device `online`; the device when it changed, undefined in any other status (left alone). */
export function setDeviceOnline(db: Db, deviceId: string, at: string): StaleDevice | undefined {
  return statement(
    db,
    `UPDATE devices SET status = 'online', updated_at = @at WHERE id = @id AND status = 'offline'
     RETURNING id, hostname, org_id, site_id`,
  ).get({ id: deviceId, at }) as StaleDevice | undefined;
}

/**
 * Turns an `online` device `offline`; the device when it changed, undefined in any other status (left alone).
 * With `unseenSince`, only if no heartbeat arrived after that time (an agent that lives on over HTTP stays online).
 */
export function setDeviceOffline(
  db: Db,
  deviceId: string,
  at: string,
  unseenSince: string | null = null,
): StaleDevice | undefined {
  return statement(
    db,
    `UPDATE devices SET status = 'offline', updated_at = @at WHERE id = @id AND status = 'online'
       AND (@unseenSince IS NULL OR last_seen_at IS NULL OR last_seen_at <= @unseenSince)
     RETURNING id, hostname, org_id, site_id`,
  ).get({ id: deviceId, at, unseenSince }) as StaleDevice | undefined;
}

/** Online devices not seen since `cutoff` (ISO time); the presence job turns them offline. */
export function staleOnlineDevices(db: Db, cutoff: string): StaleDevice[] {
  return statement(
    db,
    `SELECT id, hostname, org_id, site_id FROM devices
     WHERE status = 'online' AND (last_seen_at IS NULL OR last_seen_at < ?)`,
  ).all(cutoff) as StaleDevice[];
}

/** Decommissions the device after its agent uninstalled; false when it already was. */
export function decommissionAgentDevice(db: Db, deviceId: string, at: string): boolean {
  return (
    statement(
      db,
      `UPDATE devices SET status = 'decommissioned', decommissioned_at = coalesce(decommissioned_at, @at),
         updated_at = @at WHERE id = @id AND status <> 'decommissioned'`,
    ).run({ id: deviceId, at }).changes === 1
  );
}

/**
 * The device's agent credential stops working for good. The hash column is NOT NULL and UNIQUE: a dead
 * credential is replaced by a value no token can hash to (the same one partner churn writes).
 */
export function killAgentCredential(db: Db, deviceId: string): void {
  statement(
    db,
    "UPDATE devices SET agent_token_hash = 'revoked:' || id, agent_token_prev_hash = NULL WHERE id = ?",
  ).run(deviceId);
}
