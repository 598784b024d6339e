import { statement, type Db } from '../../db/connection';

// The device_commands rows (commands.ts holds their rules). Free functions of the database over the statement
// cache: claims run on every heartbeat. Callers decide transactions.

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

export interface NewCommand {
  id: string;
  deviceId: string;
  orgId: string;
  type: string;
  /** JSON object. */
  payload: string;
  createdBy: string | null;
  at: string;
}

export interface CommandFinish {
  id: string;
  status: 'completed' | 'failed' | 'timeout';
  /** JSON, or null when the agent sent none. */
  result: string | null;
  error: string | null;
  at: string;
}

/** Stores a `pending` command. */
export function insertCommandRow(db: Db, command: NewCommand): void {
  statement(
    db,
    `INSERT INTO device_commands (id, device_id, org_id, type, payload, status, created_by, created_at)
     VALUES (@id, @deviceId, @orgId, @type, @payload, 'pending', @createdBy, @at)`,
  ).run(command);
}

export function commandRow(db: Db, id: string): DeviceCommandRow | undefined {
  return statement(db, 'SELECT * FROM device_commands WHERE id = ?').get(id) as DeviceCommandRow | undefined;
}

/**
 * Hands the device's pending commands over (pending -> sent) in one statement. Narrowed agents collect only their
 * uninstall: offboarding narrows an agent to it (spec 1, Partner status), and so does decommissioning.
 */
export function claimPendingCommandRows(
  db: Db,
  deviceId: string,
  at: string,
  narrowed: boolean,
): ClaimedCommand[] {
  const sql = narrowed
    ? `UPDATE device_commands SET status = 'sent', sent_at = @at
       WHERE device_id = @deviceId AND status = 'pending' AND type = 'self_uninstall'
       RETURNING rowid AS seq, id, type, payload`
    : `UPDATE device_commands SET status = 'sent', sent_at = @at
       WHERE device_id = @deviceId AND status = 'pending' RETURNING rowid AS seq, id, type, payload`;
  return statement(db, sql).all({ deviceId, at }) as ClaimedCommand[];
}

/** A command pushed over the agent's socket is `sent` (unless something already moved it on). */
export function markCommandRowSent(db: Db, id: string, at: string): void {
  statement(
    db,
    "UPDATE device_commands SET status = 'sent', sent_at = @at WHERE id = @id AND status = 'pending'",
  ).run({ id, at });
}

/** Cancels a command its agent has not received yet (still pending); false when it was no longer pending. */
export function cancelPendingCommandRow(db: Db, id: string, at: string): boolean {
  return (
    statement(
      db,
      "UPDATE device_commands SET status = 'cancelled', completed_at = @at WHERE id = @id AND status = 'pending'",
    ).run({ id, at }).changes === 1
  );
}

/** Cancels every command still waiting for the device; returns how many. */
export function cancelPendingCommandRowsOfDevice(db: Db, deviceId: string, at: string): number {
  return statement(
    db,
    `UPDATE device_commands SET status = 'cancelled', completed_at = @at
     WHERE device_id = @deviceId AND status = 'pending'`,
  ).run({ deviceId, at }).changes;
}

/** Cancels the organization's elevation actuations still waiting for their agents; returns how many. */
export function cancelPendingActuationRows(db: Db, orgId: string, at: string): number {
  return statement(
    db,
    `UPDATE device_commands SET status = 'cancelled', completed_at = @at
     WHERE org_id = @orgId AND type = 'actuate_elevation' AND status = 'pending'`,
  ).run({ orgId, at }).changes;
}

/** Stores the agent's result of a command that has not ended yet. */
export function finishCommandRow(db: Db, finish: CommandFinish): void {
  statement(
    db,
    `UPDATE device_commands SET status = @status, result = @result, error = @error, completed_at = @at
     WHERE id = @id AND status IN ('pending', 'sent')`,
  ).run(finish);
}
