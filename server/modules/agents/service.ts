import { randomUUID } from 'node:crypto';
import { transaction } from '../../db/after-commit';
import type { Request } from 'express';
import type { AppContext } from '../../context';
import { randomToken, safeEqual, sha256Hex } from '../../crypto';
import { HttpError } from '../../http/errors';
import { clientInfo } from '../../http/client-info';
import type { LimitRule } from '../../http/rate-limit';
import { agentDownloadUrl, archOf, compareVersions, platformOf } from '../agent-versions';
import { bufferMetricSample } from '../device-metrics';
import { redeemEnrollmentKey } from '../enrollment-keys';
import type { AgentCaller } from './auth';
import { claimCommands, toWireCommands, type WireCommand } from './commands';
import { emitDeviceEvent, emitPresenceChanges } from './presence';
import type { DiagnosticLogsBody, EnrollBody, EventLogsBody, HeartbeatBody, SoftwareBody } from './schemas';
import {
  countOrgDevices,
  countPartnerDevices,
  enrollTargetOf,
  insertEnrolledDevice,
  latestAgentVersion,
  recordHeartbeat,
  type HeartbeatUpdate,
} from './device-store';
import { claimPendingCommandRows, type ClaimedCommand } from './command-store';
import { insertDeviceEvents, insertDiagnosticLogs, replaceDeviceSoftware } from './ingest-store';

// The rules of the agent protocol (DESIGN §3; spec 1 for keys, caps and partner status; spec 2 for logs; spec 3
// for upgrades). Heartbeats and log submissions are the hot paths: prepared statements, one transaction, no
// scope resolution and no audit entry per heartbeat.

/**
 * Every enrollment counts against a generous ceiling per address: a fleet rollout behind one NAT address, the
 * bundled simulator and the benchmark enroll thousands of devices from a single address, so the ceiling only stops
 * a runaway script from turning enrollment into a write storm. Guesses (a wrong enrollment secret, a key that
 * matches nothing) go through the secret guard (kind `enrollment`), which counts failures only.
 */
export const ENROLL_ATTEMPTS_PER_IP: LimitRule = {
  bucket: 'agent-enroll:ip',
  limit: 3000,
  windowSeconds: 60,
};

const RATE_LIMITED = 'Too many enrollment attempts';

const PARTNER_INACTIVE_MESSAGES: Record<string, string> = {
  pending: 'Partner account is pending activation',
  suspended: 'Partner account is suspended',
  churned: 'Partner account is closed',
  offboarding: 'Partner account is being offboarded',
};

export interface EnrollResponse {
  agentId: string;
  deviceId: string;
  orgId: string;
  siteId: string | null;
  authToken: string;
  heartbeatIntervalSeconds: number;
}

export interface HeartbeatResponse {
  commands: WireCommand[];
  upgradeTo?: { version: string; downloadUrl: string; checksum: string };
  heartbeatIntervalSeconds: number;
}

/** Agent credentials: `agt_` + 32 random bytes; only the SHA-256 is stored. */
export function newAgentToken(): { token: string; hash: string } {
  const token = `agt_${randomToken(32)}`;
  return { token, hash: sha256Hex(token) };
}

/** The server-wide enrollment secret, when one is configured. */
function secretMatches(secret: string | null, given: string | undefined): boolean {
  if (secret === null) return true;
  // Compared as digests so the comparison takes the same time whatever the lengths.
  return Boolean(given) && safeEqual(sha256Hex(given ?? ''), sha256Hex(secret));
}

const unknownKey = (err: unknown): err is HttpError =>
  err instanceof HttpError && err.extra.reason === 'enrollment_key_not_found';

export function enroll(ctx: AppContext, req: Request, body: EnrollBody): EnrollResponse {
  const client = clientInfo(req);
  ctx.limiter.enforce([[ENROLL_ATTEMPTS_PER_IP, client.ipAddress ?? 'unknown']], RATE_LIMITED);

  const { token, hash } = newAgentToken();
  const deviceId = randomUUID();
  const agentId = randomUUID();
  const at = new Date().toISOString();
  // One transaction: a refusal after the key was redeemed (inactive partner, device cap) rolls the use back.
  const placed = () =>
    transaction(ctx.db, () => {
      const redeemed = redeemEnrollmentKey(ctx, body.enrollmentKey, Date.parse(at));
      if (!redeemed.ok) {
        throw new HttpError(401, 'Invalid enrollment key', undefined, { reason: redeemed.reason });
      }
      const target = enrollTargetOf(ctx.db, redeemed.key.orgId);
      if (!target || target.partner_deleted) {
        throw new HttpError(401, 'Invalid enrollment key', undefined, { reason: 'enrollment_key_not_found' });
      }
      if (target.partner_status !== 'active') {
        throw new HttpError(
          403,
          PARTNER_INACTIVE_MESSAGES[target.partner_status] ?? 'Partner account is not active',
          'PARTNER_INACTIVE',
        );
      }
      if (
        target.org_max_devices !== null &&
        countOrgDevices(ctx.db, target.org_id) >= target.org_max_devices
      ) {
        throw new HttpError(403, 'The organization has reached its device limit', 'DEVICE_LIMIT_REACHED');
      }
      if (
        target.partner_max_devices !== null &&
        countPartnerDevices(ctx.db, target.partner_id) >= target.partner_max_devices
      ) {
        throw new HttpError(403, 'The partner has reached its device limit', 'DEVICE_LIMIT_REACHED');
      }
      insertEnrolledDevice(ctx.db, {
        id: deviceId,
        orgId: target.org_id,
        siteId: redeemed.key.siteId,
        agentId,
        tokenHash: hash,
        enrollmentKeyId: redeemed.key.id,
        hostname: body.hostname,
        displayName: body.displayName ?? null,
        osType: body.osType,
        osVersion: body.osVersion,
        osBuild: body.osBuild ?? null,
        architecture: body.architecture,
        agentVersion: body.agentVersion,
        deviceRole: body.deviceRole ?? 'workstation',
        hwManufacturer: body.hardware?.manufacturer ?? null,
        hwModel: body.hardware?.model ?? null,
        hwSerialNumber: body.hardware?.serialNumber ?? null,
        hwCpuModel: body.hardware?.cpuModel ?? null,
        hwGpuModel: body.hardware?.gpuModel ?? null,
        hwCpuCores: body.hardware?.cpuCores ?? null,
        hwRamTotalMb: body.hardware?.ramTotalMb ?? null,
        hwDiskTotalGb: body.hardware?.diskTotalGb ?? null,
        netIpAddress: body.network?.ipAddress ?? null,
        netMacAddress: body.network?.macAddress ?? null,
        lastSeenIp: client.ipAddress,
        at,
      });
      return { orgId: target.org_id, siteId: redeemed.key.siteId, keyId: redeemed.key.id };
    });

  // A wrong secret and a key that matches nothing are guesses. Expired and exhausted keys are real keys, and the
  // other refusals (partner inactive, device caps) are not about the secret at all: they count nothing.
  const attempt = ctx.guard.check(
    { kind: 'enrollment', req },
    (): { placed: ReturnType<typeof placed> } | { refused: HttpError } => {
      if (!secretMatches(ctx.config.enrollmentSecret, body.enrollmentSecret)) {
        return { refused: new HttpError(403, 'Invalid enrollment secret') };
      }
      try {
        return { placed: placed() };
      } catch (err) {
        if (unknownKey(err)) return { refused: err };
        throw err;
      }
    },
    (found) => 'placed' in found,
  );
  if ('refused' in attempt) throw attempt.refused;
  const outcome = attempt.placed;

  const device = { id: deviceId, hostname: body.hostname, org_id: outcome.orgId, site_id: outcome.siteId };
  emitDeviceEvent(ctx, 'device.enrolled', device, 'online');
  ctx.audit.record({
    orgId: outcome.orgId,
    actorType: 'agent',
    actorId: deviceId,
    action: 'device.create',
    resourceType: 'device',
    resourceId: deviceId,
    resourceName: body.hostname,
    details: {
      agentId,
      enrollmentKeyId: outcome.keyId,
      siteId: outcome.siteId,
      osType: body.osType,
      architecture: body.architecture,
      agentVersion: body.agentVersion,
    },
    ipAddress: client.ipAddress,
    userAgent: client.userAgent,
  });
  return {
    agentId,
    deviceId,
    orgId: outcome.orgId,
    siteId: outcome.siteId,
    authToken: token,
    heartbeatIntervalSeconds: ctx.config.agentHeartbeatSeconds,
  };
}

/** Records a heartbeat and claims the device's pending commands (narrowed agents: uninstalls only), atomically. */
function recordHeartbeatAndClaim(
  ctx: AppContext,
  update: HeartbeatUpdate,
  narrowed: boolean,
): ClaimedCommand[] {
  return transaction(ctx.db, () => {
    recordHeartbeat(ctx.db, update);
    return claimPendingCommandRows(ctx.db, update.id, update.at, narrowed);
  });
}

function upgradeOffer(
  ctx: AppContext,
  caller: AgentCaller,
  agentVersion: string,
): HeartbeatResponse['upgradeTo'] | null {
  const { device } = caller;
  if (caller.narrowed || device.auto_update !== 1) return null;
  const arch = archOf(device.architecture);
  if (!arch) return null;
  const latest = latestAgentVersion(ctx.db, platformOf(device.os_type), arch);
  // Strictly newer only: a registry that rolled `latest` back never walks agents backwards.
  if (!latest || compareVersions(latest.version, agentVersion) <= 0) return null;
  return { version: latest.version, downloadUrl: agentDownloadUrl(ctx, latest), checksum: latest.checksum };
}

export function heartbeat(
  ctx: AppContext,
  req: Request,
  caller: AgentCaller,
  body: HeartbeatBody,
): HeartbeatResponse {
  const { device } = caller;
  let commands: WireCommand[];
  if (device.status === 'decommissioned') {
    // A removed device only comes back for its uninstall; nothing it reports is kept.
    commands = claimCommands(ctx, device.id, true);
  } else {
    const at = new Date().toISOString();
    const metrics = body.metrics;
    const claimed = recordHeartbeatAndClaim(
      ctx,
      {
        id: device.id,
        health: body.status,
        agentVersion: body.agentVersion,
        cpuPercent: metrics?.cpuPercent ?? null,
        ramPercent: metrics?.ramPercent ?? null,
        diskPercent: metrics?.diskPercent ?? null,
        uptimeSeconds: body.uptimeSeconds ?? null,
        keepUptime: body.uptimeSeconds === undefined ? 1 : 0,
        lastUser: body.lastUser ?? null,
        keepLastUser: body.lastUser === undefined ? 1 : 0,
        rebootRequired: typeof body.rebootRequired === 'boolean' ? (body.rebootRequired ? 1 : 0) : null,
        keepReboot: body.rebootRequired === undefined ? 1 : 0,
        posture: body.managementPosture ? JSON.stringify(body.managementPosture) : null,
        keepPosture: body.managementPosture === undefined ? 1 : 0,
        lastSeenIp: clientInfo(req).ipAddress,
        at,
      },
      caller.narrowed,
    );
    // The latest values above are the device's current state; the history is written in batches.
    bufferMetricSample(ctx.db, {
      deviceId: device.id,
      atMs: Date.parse(at),
      cpu: metrics?.cpuPercent ?? null,
      ram: metrics?.ramPercent ?? null,
      disk: metrics?.diskPercent ?? null,
    });
    commands = claimed.length ? toWireCommands(claimed) : [];
    // The UPDATE above turned an offline device online: announced like the hub's batched changes.
    if (device.status === 'offline') emitPresenceChanges(ctx, [{ device, online: true }]);
    if (body.agentVersion !== device.agent_version) {
      emitDeviceEvent(ctx, 'device.updated', device, device.status === 'offline' ? 'online' : device.status);
    }
  }
  const upgradeTo = upgradeOffer(ctx, caller, body.agentVersion);
  return {
    commands,
    ...(upgradeTo ? { upgradeTo } : {}),
    heartbeatIntervalSeconds: ctx.config.agentHeartbeatSeconds,
  };
}

export function replaceSoftware(
  ctx: AppContext,
  caller: AgentCaller,
  body: SoftwareBody,
): { success: true; count: number } {
  const software = body.software.map((item) => ({
    name: item.name,
    version: item.version ?? null,
    publisher: item.publisher ?? null,
  }));
  transaction(ctx.db, () => replaceDeviceSoftware(ctx.db, caller.device.id, software));
  return { success: true, count: body.software.length };
}

export function submitDiagnosticLogs(
  ctx: AppContext,
  caller: AgentCaller,
  body: DiagnosticLogsBody,
): { received: number } {
  const { device } = caller;
  const entries = body.logs.map((log) => ({
    timestamp: log.timestamp,
    level: log.level,
    component: log.component,
    message: log.message,
    fields: JSON.stringify(log.fields ?? {}),
    agentVersion: log.agentVersion ?? device.agent_version,
  }));
  const at = new Date().toISOString();
  // One transaction for the whole submission (spec 2): a failing chunk keeps none of it.
  transaction(ctx.db, () =>
    insertDiagnosticLogs(ctx.db, { deviceId: device.id, orgId: device.org_id }, entries, at),
  );
  return { received: body.logs.length };
}

export function submitEventLogs(
  ctx: AppContext,
  req: Request,
  caller: AgentCaller,
  body: EventLogsBody,
): { success: true; count: number } {
  const { device } = caller;
  const entries = body.events.map((event) => ({
    timestamp: event.timestamp,
    level: event.level,
    category: event.category,
    source: event.source,
    eventId: event.eventId,
    message: event.message,
    details: JSON.stringify(event.details ?? {}),
  }));
  const at = new Date().toISOString();
  const inserted = transaction(ctx.db, () =>
    insertDeviceEvents(ctx.db, { deviceId: device.id, orgId: device.org_id }, entries, at),
  );
  const client = clientInfo(req);
  ctx.audit.record({
    orgId: device.org_id,
    actorType: 'agent',
    actorId: device.id,
    action: 'agent.eventlogs.submit',
    resourceType: 'device',
    resourceId: device.id,
    resourceName: device.hostname,
    details: { count: body.events.length, inserted },
    ipAddress: client.ipAddress,
    userAgent: client.userAgent,
  });
  return { success: true, count: body.events.length };
}
