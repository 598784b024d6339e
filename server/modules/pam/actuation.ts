import type { AppContext } from '../../context';
import { queueCommand } from '../agents/commands';
import type { ElevationRow } from './store';

// The device side of an elevation (DESIGN §3): `actuate_elevation` grants it, `revoke_elevation` removes it.
// The payload names what to elevate and until when; the credential never crosses the wire (the agent elevates
// locally). Both are queued inside the caller's transaction: the command is pushed to a connected agent at once,
// so the queueing is the last step of each transaction.

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
