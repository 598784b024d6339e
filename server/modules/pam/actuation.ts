import type { AppContext } from '../../context';
import { cancelPendingActuationsOf, cancelPendingCommand, queueCommand } from '../agents';
import type { ElevationRow } from './store';

// The device side of an elevation (DESIGN §3): `actuate_elevation` grants it, `revoke_elevation` removes it.
// The payload names what to elevate and until when; the credential never crosses the wire (the agent elevates
// locally). Both are queued inside the caller's transaction(); a connected agent receives the command once that
// transaction commits (queueCommand), never a command whose transaction rolled back.

/** The organization's kill switch (pam_config.actuator_enabled) is off: nothing may be granted on its devices. */
export const ACTUATOR_DISABLED = 'PAM actuator disabled for this organization';

const NO_HASH_REFUSAL =
  'The request carries no file hash for a specific executable, so an approval could not be tied to one file';

/**
 * Why an approval of this request may not be actuated, or null (spec 2: a specific executable approved without
 * its hash would approve whatever file sits at that path). A technician's approve and a rule's auto-approve
 * are refused alike.
 */
export function refusalOf(
  row: Pick<ElevationRow, 'flow_type' | 'target_executable_path' | 'target_executable_hash'>,
): string | null {
  if (row.flow_type === 'ai_tool_action') return null;
  return row.target_executable_path && !row.target_executable_hash ? NO_HASH_REFUSAL : null;
}

export function queueActuation(
  ctx: AppContext,
  row: ElevationRow,
  expiresAt: string,
  createdBy: string | null,
): string {
  const command = queueCommand(ctx, {
    deviceId: row.device_id,
    orgId: row.org_id,
    type: 'actuate_elevation',
    payload: {
      elevationRequestId: row.id,
      expiresAt,
      ...(row.target_executable_path ? { targetPath: row.target_executable_path } : {}),
      ...(row.command_line ? { commandLine: row.command_line } : {}),
      subjectUsername: row.subject_username,
    },
    createdBy,
  });
  return command.id;
}

export function queueCleanup(
  ctx: AppContext,
  row: Pick<ElevationRow, 'id' | 'device_id' | 'org_id'>,
  reason: 'revoked' | 'expired',
  createdBy: string | null,
): string {
  return queueCommand(ctx, {
    deviceId: row.device_id,
    orgId: row.org_id,
    type: 'revoke_elevation',
    payload: { elevationRequestId: row.id, reason },
    createdBy,
  }).id;
}

/**
 * A revoked or expired elevation whose `actuate_elevation` the device has not received yet (it was offline):
 * the command is cancelled, so the agent never grants it on its return. The cleanup is still sent; an agent
 * answers it as completed when there was nothing to remove.
 */
export function cancelUndeliveredActuation(
  ctx: AppContext,
  row: Pick<ElevationRow, 'actuation_command_id'>,
): void {
  if (row.actuation_command_id) cancelPendingCommand(ctx, row.actuation_command_id);
}

/**
 * The kill switch was turned off: grants still queued for devices that have not collected them (offline) are
 * cancelled, so switching it off stops elevations that are on their way too. Returns how many were cancelled.
 */
export function cancelQueuedActuations(ctx: AppContext, orgId: string): number {
  return cancelPendingActuationsOf(ctx, orgId);
}
