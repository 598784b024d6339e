import { commitSoon } from '../../db/group-commit';
import type { Request } from 'express';
import type { AppContext } from '../../context';
import { clientInfo } from '../../http/client-info';
import { offeredUpgrade } from '../agent-versions';
import { bufferMetricSample } from '../device-metrics';
import type { AgentCaller } from './auth';
import { claimCommands, toWireCommands, type WireCommand } from './commands';
import { emitDeviceEvent, emitPresenceChanges } from './presence';
import type { DiagnosticLogsBody, EventLogsBody, HeartbeatBody, SoftwareBody } from './schemas';
import { recordHeartbeat, type HeartbeatUpdate } from './device-store';
import { claimPendingCommandRows, type ClaimedCommand } from './command-store';
import { insertDeviceEvents, insertDiagnosticLogs, replaceDeviceSoftware } from './ingest-store';

// The rules of the agent protocol after enrollment (DESIGN §3; spec 2 for logs; spec 3 for upgrades; enrollment
// itself is enroll.ts). Heartbeats and log submissions are the hot paths: prepared statements, no scope resolution and
// no audit entry per heartbeat; heartbeats, inventories and log submissions are group-committed (db/group-commit.ts),
// one COMMIT per turn of the event loop for all that arrived in it, each answered once its own write has committed.

export interface HeartbeatResponse {
  commands: WireCommand[];
  upgradeTo?: { version: string; downloadUrl: string; checksum: string };
  heartbeatIntervalSeconds: number;
}

/** Records a heartbeat and claims the device's pending commands (narrowed agents: uninstalls only), atomically. */
function recordHeartbeatAndClaim(
  ctx: AppContext,
  update: HeartbeatUpdate,
  narrowed: boolean,
): Promise<ClaimedCommand[]> {
  return commitSoon(ctx.db, () => {
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
  return offeredUpgrade(ctx, {
    id: device.id,
    osType: device.os_type,
    architecture: device.architecture,
    agentVersion,
  });
}

export async function heartbeat(
  ctx: AppContext,
  req: Request,
  caller: AgentCaller,
  body: HeartbeatBody,
): Promise<HeartbeatResponse> {
  const { device } = caller;
  let commands: WireCommand[];
  if (device.status === 'decommissioned') {
    // A removed device only comes back for its uninstall; nothing it reports is kept.
    commands = claimCommands(ctx, device.id, true);
  } else {
    const at = new Date().toISOString();
    const metrics = body.metrics;
    const claimed = await recordHeartbeatAndClaim(
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

export async function replaceSoftware(
  ctx: AppContext,
  caller: AgentCaller,
  body: SoftwareBody,
): Promise<{ success: true; count: number }> {
  const software = body.software.map((item) => ({
    name: item.name,
    version: item.version ?? null,
    publisher: item.publisher ?? null,
  }));
  // Group-committed: a fleet's inventories name the same software, so the index pages they change are shared.
  await commitSoon(ctx.db, () => replaceDeviceSoftware(ctx.db, caller.device.id, software));
  return { success: true, count: body.software.length };
}

export async function submitDiagnosticLogs(
  ctx: AppContext,
  caller: AgentCaller,
  body: DiagnosticLogsBody,
): Promise<{ received: number }> {
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
  // All or nothing for the whole submission (spec 2): its own savepoint in the turn's group commit.
  await commitSoon(ctx.db, () =>
    insertDiagnosticLogs(ctx.db, { deviceId: device.id, orgId: device.org_id }, entries, at),
  );
  return { received: body.logs.length };
}

export async function submitEventLogs(
  ctx: AppContext,
  req: Request,
  caller: AgentCaller,
  body: EventLogsBody,
): Promise<{ success: true; count: number }> {
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
  const inserted = await commitSoon(ctx.db, () =>
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
