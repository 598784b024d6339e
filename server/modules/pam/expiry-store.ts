import type { ElevationStatus, EnforcementStatus } from '../../contract';
import { statement, type Db } from '../../db/connection';

// The SQL of enforcement (enforcement.ts): the request a command result belongs to, and what the expiry enforcer
// sweeps, at most BATCH rows of each kind per pass.

const BATCH = 500;

/** The request a command was sent for, with its device's hostname. */
export interface Target {
  id: string;
  device_id: string;
  org_id: string;
  hostname: string;
  status: ElevationStatus;
  enforcement_status: EnforcementStatus | null;
}

export function requestByCommand(
  db: Db,
  column: 'actuation_command_id' | 'cleanup_command_id',
  commandId: string,
): Target | undefined {
  return statement(
    db,
    `SELECT r.id, r.device_id, r.org_id, d.hostname, r.status, r.enforcement_status FROM elevation_requests r
       JOIN devices d ON d.id = r.device_id WHERE r.${column} = ?`,
  ).get(commandId) as Target | undefined;
}

export interface ExpiringRow {
  id: string;
  device_id: string;
  org_id: string;
  status: ElevationStatus;
  enforcement_status: EnforcementStatus | null;
  actuation_command_id: string | null;
  /** The status of the actuation command (ended windows only). */
  actuation_command_status?: string | null;
}

/** Live grants whose window ended at `at`, with the status of their actuation command. */
export function endedWindows(db: Db, at: string): ExpiringRow[] {
  return statement(
    db,
    `SELECT r.id, r.device_id, r.org_id, r.status, r.enforcement_status, r.actuation_command_id,
         c.status AS actuation_command_status
       FROM elevation_requests r LEFT JOIN device_commands c ON c.id = r.actuation_command_id
       WHERE r.status IN ('approved', 'auto_approved', 'actuating') AND r.expires_at <= ? LIMIT ${BATCH}`,
  ).all(at) as ExpiringRow[];
}

/** Pending requests nobody decided since `cutoff`. */
export function undecidedSince(db: Db, cutoff: string): ExpiringRow[] {
  return statement(
    db,
    `SELECT id, device_id, org_id, status, enforcement_status, actuation_command_id FROM elevation_requests
       WHERE status = 'pending' AND requested_at <= ? LIMIT ${BATCH}`,
  ).all(cutoff) as ExpiringRow[];
}

/** Dispatched actuations whose agent did not confirm before their deadline. */
export function unconfirmedActuations(db: Db, at: string): ExpiringRow[] {
  return statement(
    db,
    `SELECT id, device_id, org_id, status, enforcement_status, actuation_command_id FROM elevation_requests
       WHERE enforcement_status = 'dispatched' AND actuation_deadline <= ? AND status IN ('actuating')
       LIMIT ${BATCH}`,
  ).all(at) as ExpiringRow[];
}
