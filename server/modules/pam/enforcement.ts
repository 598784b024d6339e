import type { AppContext } from '../../context';
import { transaction } from '../../db/after-commit';
import type { ElevationStatus, EnforcementStatus } from '../../contract';
import type { CommandFinishedEvent } from '../../events/bus';
import { cancelUndeliveredActuation, queueCleanup } from './actuation';
import { settleApprovalSlots } from './approval-store';
import {
  endedWindows,
  requestByCommand,
  undecidedSince,
  unconfirmedActuations,
  type ExpiringRow,
  type Target,
} from './expiry-store';
import { logEvent, publish, SYSTEM_ACTOR, type EventActor } from './events';
import { linkCommand, transition } from './store';

// The device side reports back through command results (DESIGN §3), heard on the bus inside the transaction
// that records the result: `actuate_elevation` completed -> `active`, failed -> `failed`; `revoke_elevation`
// completed -> `cleaned_up`. The expiry enforcer (DESIGN §5) is the
// safety net: windows that end expire, pending requests nobody decided expire, and an actuation the agent never
// confirmed is reported as failed.

const LIVE: readonly ElevationStatus[] = ['approved', 'auto_approved', 'actuating'];

function target(ctx: AppContext, column: 'actuation_command_id' | 'cleanup_command_id', commandId: string) {
  return requestByCommand(ctx.db, column, commandId);
}

function setEnforcement(
  ctx: AppContext,
  request: Target,
  enforcement: EnforcementStatus,
  from: readonly ElevationStatus[],
  actor: EventActor,
  details: Record<string, unknown>,
): void {
  const changed = transition(ctx.db, request.id, from, { enforcement_status: enforcement });
  if (!changed) return;
  logEvent(ctx.db, request.id, 'elevation.enforcement_changed', actor, {
    enforcementStatus: enforcement,
    ...details,
  });
  publish(ctx, 'elevation.enforcement_changed', request.id);
}

function onActuationResult(ctx: AppContext, result: CommandFinishedEvent): void {
  const request = target(ctx, 'actuation_command_id', result.commandId);
  if (!request) return;
  const actor: EventActor = { type: 'agent', id: request.device_id, name: request.hostname };
  // A grant reported after a revoke or an expiry is not active: the cleanup already on its way removes it.
  if (!LIVE.includes(request.status)) return;
  const ok = result.status === 'completed';
  setEnforcement(ctx, request, ok ? 'active' : 'failed', LIVE, actor, {
    commandId: result.commandId,
    ...(ok ? {} : { error: result.error ?? result.status }),
  });
}

function onCleanupResult(ctx: AppContext, result: CommandFinishedEvent): void {
  const request = target(ctx, 'cleanup_command_id', result.commandId);
  if (!request) return;
  const actor: EventActor = { type: 'agent', id: request.device_id, name: request.hostname };
  const ok = result.status === 'completed';
  setEnforcement(ctx, request, ok ? 'cleaned_up' : 'cleanup_pending', ['revoked', 'expired'], actor, {
    commandId: result.commandId,
    ...(ok ? {} : { error: result.error ?? result.status }),
  });
}

const RESULT_HANDLERS: Record<string, (ctx: AppContext, result: CommandFinishedEvent) => void> = {
  actuate_elevation: onActuationResult,
  revoke_elevation: onCleanupResult,
};

/** Maps the results of PAM's commands to enforcement states (server start-up); returns the unsubscribe. */
export function subscribeEnforcementResults(ctx: AppContext): () => void {
  return ctx.bus.onWithinTransaction('agent.command_finished', ({ data }) =>
    RESULT_HANDLERS[data.type]?.(ctx, data),
  );
}

// ---- Expiry (DESIGN §5) ------------------------------------------------------------------------------------------

/**
 * pending -> expired, with the inbox slots closed, the event logged and `elevation.expired` announced after the
 * commit; false when a decision won first. Call inside a transaction(). The sweep and a late decision share it.
 */
export function expirePending(
  ctx: AppContext,
  row: Pick<ExpiringRow, 'id' | 'org_id'>,
  reason: string,
): boolean {
  if (!transition(ctx.db, row.id, ['pending'], { status: 'expired', expired_at: new Date().toISOString() })) {
    return false;
  }
  settleApprovalSlots(ctx.db, row.id, row.org_id, null);
  logEvent(ctx.db, row.id, 'elevation.expired', SYSTEM_ACTOR, { reason });
  publish(ctx, 'elevation.expired', row.id);
  return true;
}

export interface ExpirySweep {
  windowsEnded: number;
  pendingExpired: number;
  actuationsUnconfirmed: number;
}

/** One pass of the expiry enforcer; each change is its own compare-and-swap, so a racing decision wins cleanly. */
export function sweepElevationExpiry(ctx: AppContext, now = new Date()): ExpirySweep {
  const at = now.toISOString();
  const ended = endedWindows(ctx.db, at);
  const pendingCutoff = new Date(now.getTime() - ctx.config.pamPendingTtlMinutes * 60_000).toISOString();
  const stale = undecidedSince(ctx.db, pendingCutoff);
  const unconfirmed = unconfirmedActuations(ctx.db, at);

  transaction(ctx.db, () => {
    for (const row of ended) {
      // Something may be granted on the device: clean it up. Nothing was ever sent, or the agent itself said the
      // grant failed: nothing to clean. A `failed` set here because the agent was silent past its deadline is
      // not the agent's word: the command may have run, so that grant is cleaned up too.
      const dispatched = row.actuation_command_id !== null && row.actuation_command_status !== 'failed';
      const changed = transition(ctx.db, row.id, [row.status], {
        status: 'expired',
        expired_at: at,
        ...(dispatched ? { enforcement_status: 'cleanup_pending' as const } : {}),
      });
      if (!changed) continue;
      cancelUndeliveredActuation(ctx, row);
      logEvent(ctx.db, row.id, 'elevation.expired', SYSTEM_ACTOR, { reason: 'Approval window ended' });
      if (dispatched) {
        const commandId = queueCleanup(ctx, row, 'expired', null);
        linkCommand(ctx.db, row.id, 'cleanup', commandId);
      }
      publish(ctx, 'elevation.expired', row.id);
    }
    for (const row of stale) expirePending(ctx, row, 'Nobody decided in time');
    for (const row of unconfirmed) {
      const changed = transition(
        ctx.db,
        row.id,
        ['actuating'],
        { enforcement_status: 'failed' },
        "enforcement_status = 'dispatched'",
      );
      if (!changed) continue;
      logEvent(ctx.db, row.id, 'elevation.enforcement_changed', SYSTEM_ACTOR, {
        enforcementStatus: 'failed',
        error: 'The agent did not confirm the elevation in time',
      });
      publish(ctx, 'elevation.enforcement_changed', row.id);
    }
  });
  return {
    windowsEnded: ended.length,
    pendingExpired: stale.length,
    actuationsUnconfirmed: unconfirmed.length,
  };
}
