import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context';
import type { DeviceCommand } from '../../contract';
import { afterCommit, transaction } from '../../db/after-commit';
import type { WireCommand } from '../../hub/agent-hub-port';
import { notFound } from '../../http/errors';
import { emitDeviceEvent } from './presence';
import {
  cancelPendingActuationRows,
  cancelPendingCommandRow,
  cancelPendingCommandRowsOfDevice,
  claimPendingCommandRows,
  commandRow,
  finishCommandRow,
  insertCommandRow,
  type ClaimedCommand,
  type DeviceCommandRow,
} from './command-store';
import { decommissionAgentDevice, killAgentCredential, type AgentDeviceRow } from './device-store';

// Commands for agents (DESIGN §3). A command is stored `pending`, pushed over the agent socket when one is open
// (else claimed by the next heartbeat), becomes `sent`, and ends with the agent's result. Live event-log queries
// are not commands in this sense: they never touch device_commands (spec 2: live results are not stored).

export type { DeviceCommandRow } from './command-store';

export interface QueueCommandInput {
  deviceId: string;
  orgId: string;
  type: string;
  payload: Record<string, unknown>;
  /** The user (or API key) that asked for it; null for the server itself (offboarding, decommission). */
  createdBy: string | null;
}

export interface CommandResultInput {
  status: 'completed' | 'failed' | 'timeout';
  result?: unknown;
  error?: string | undefined;
}

const FINAL: ReadonlySet<DeviceCommandRow['status']> = new Set([
  'completed',
  'failed',
  'timeout',
  'cancelled',
]);

/** What an agent receives for a command, on a heartbeat or as `{type:'command', id, commandType, payload}`. */
export type { WireCommand };

function parsePayload(json: string): Record<string, unknown> {
  const value = JSON.parse(json) as unknown;
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

export function toWireCommands(claimed: ClaimedCommand[]): WireCommand[] {
  // RETURNING gives no order guarantee; agents run commands in the order they were queued.
  return [...claimed]
    .sort((a, b) => a.seq - b.seq)
    .map((c) => ({ id: c.id, type: c.type, payload: parsePayload(c.payload) }));
}

export function toDeviceCommand(row: DeviceCommandRow): DeviceCommand {
  return {
    id: row.id,
    deviceId: row.device_id,
    type: row.type,
    payload: parsePayload(row.payload),
    status: row.status,
    createdBy: row.created_by,
    createdAt: row.created_at,
    sentAt: row.sent_at,
    completedAt: row.completed_at,
    result: row.result === null ? null : (JSON.parse(row.result) as unknown),
    error: row.error,
  };
}

/**
 * Stores a `pending` command and, once the caller's transaction commits, pushes it when the agent holds its
 * socket (the row becomes `sent`); otherwise the next heartbeat claims it. A transaction that rolls back sends
 * nothing. Returns the row as queued (`pending`). Callers check scope, permission and the device's state first.
 */
export function queueCommand(ctx: AppContext, input: QueueCommandInput): DeviceCommandRow {
  const id = randomUUID();
  insertCommandRow(ctx.db, {
    id,
    deviceId: input.deviceId,
    orgId: input.orgId,
    type: input.type,
    payload: JSON.stringify(input.payload),
    createdBy: input.createdBy,
    at: new Date().toISOString(),
  });
  afterCommit(ctx.db, () =>
    ctx.agentHub.push(input.deviceId, { id, type: input.type, payload: input.payload }),
  );
  return commandRow(ctx.db, id)!;
}

/** The command as stored now: read after the commit that queued it, it says whether it was pushed (`sent`). */
export function commandById(ctx: Pick<AppContext, 'db'>, id: string): DeviceCommandRow | undefined {
  return commandRow(ctx.db, id);
}

/**
 * Cancels a command its agent has not received yet (still `pending`: no socket, no heartbeat since). Returns
 * false when it was already handed over or ended: then only a later command can undo what it does.
 */
export function cancelPendingCommand(ctx: Pick<AppContext, 'db'>, commandId: string): boolean {
  return cancelPendingCommandRow(ctx.db, commandId, new Date().toISOString());
}

/** Cancels every command still waiting for the device (it is being decommissioned); returns how many. */
export function cancelPendingCommandsOf(ctx: Pick<AppContext, 'db'>, deviceId: string, at: string): number {
  return cancelPendingCommandRowsOfDevice(ctx.db, deviceId, at);
}

/** Cancels the organization's elevation actuations no agent has received yet; returns how many. */
export function cancelPendingActuationsOf(ctx: Pick<AppContext, 'db'>, orgId: string): number {
  return cancelPendingActuationRows(ctx.db, orgId, new Date().toISOString());
}

/** Claims the device's pending commands (pending -> sent) in one statement; narrowed agents get only uninstalls. */
export function claimCommands(
  ctx: Pick<AppContext, 'db'>,
  deviceId: string,
  narrowed: boolean,
): WireCommand[] {
  const claimed = claimPendingCommandRows(ctx.db, deviceId, new Date().toISOString(), narrowed);
  return claimed.length ? toWireCommands(claimed) : [];
}

export interface CommandResultOutcome {
  success: true;
  commandId: string;
  status: DeviceCommandRow['status'];
  /** False when the command had already ended: the repeated result changed nothing. */
  updated: boolean;
}

/**
 * Records an agent's result for one of its own commands (HTTP and socket share this). A result for a command
 * that already ended is answered as success without change, so an agent retrying after a lost answer is safe.
 * A completed `self_uninstall` means the agent is gone: the device is decommissioned if it was not yet, and the
 * credential dies with it. `agent.command_finished` is emitted inside the transaction, so the modules that act on
 * a result (PAM enforcement) write in the same transaction as the result itself.
 */
export function recordCommandResult(
  ctx: AppContext,
  device: AgentDeviceRow,
  commandId: string,
  input: CommandResultInput,
): CommandResultOutcome {
  const command = commandRow(ctx.db, commandId);
  if (!command || command.device_id !== device.id) throw notFound('Command not found');
  if (FINAL.has(command.status)) {
    return { success: true, commandId, status: command.status, updated: false };
  }
  const at = new Date().toISOString();
  const uninstalled = command.type === 'self_uninstall' && input.status === 'completed';
  const decommissioned = transaction(ctx.db, () => {
    finishCommandRow(ctx.db, {
      id: commandId,
      status: input.status,
      result: input.result === undefined ? null : JSON.stringify(input.result),
      error: input.error ?? null,
      at,
    });
    ctx.bus.emit('agent.command_finished', device.org_id, {
      commandId,
      deviceId: device.id,
      type: command.type,
      status: input.status,
      error: input.error ?? null,
    });
    if (!uninstalled) return false;
    killAgentCredential(ctx.db, device.id);
    return decommissionAgentDevice(ctx.db, device.id, at);
  });
  if (uninstalled) {
    ctx.agentHub.disconnect(device.id, 'agent uninstalled');
    if (decommissioned) {
      emitDeviceEvent(ctx, 'device.decommissioned', device, 'decommissioned');
      ctx.audit.record({
        orgId: device.org_id,
        actorType: 'agent',
        actorId: device.id,
        action: 'device.delete',
        resourceType: 'device',
        resourceId: device.id,
        resourceName: device.hostname,
        details: { reason: 'self_uninstall', commandId },
      });
    }
  }
  return { success: true, commandId, status: input.status, updated: true };
}
