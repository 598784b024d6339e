import type { ElevationOutcome, OsType, RiskLevel } from '../../contract';
import { statement, type Db } from '../../db/connection';
import type { Clause } from '../devices';

// The Overview's SQL: aggregates over elevation requests (`r`) and devices (`d`), each narrowed by the caller's
// visibility clauses (devices/access.ts), and the presence-change log behind the 24-hour chart.

const where = (clauses: readonly Clause[]) => ({
  sql: clauses.map((c) => c.sql).join(' AND ') || '1 = 1',
  params: clauses.flatMap((c) => c.params),
});

/**
 * What became of a request, in one place: a person approved it (decision_source human, whatever happened to the
 * grant since), a policy or rule approved it, it was denied, or nobody decided it in time.
 */
const OUTCOME_SQL = `CASE
    WHEN r.status = 'pending' THEN 'pending'
    WHEN r.status = 'denied' THEN 'denied'
    WHEN r.decision_source = 'human' THEN 'approved'
    WHEN r.decision_source IN ('software_policy', 'pam_rule') THEN 'auto_approved'
    ELSE 'expired' END`;

export function pendingByRisk(
  db: Db,
  clauses: readonly Clause[],
): Array<{ risk: RiskLevel; count: number; oldest: string }> {
  const w = where(clauses);
  return statement(
    db,
    `SELECT r.risk_level AS risk, COUNT(*) AS count, MIN(r.requested_at) AS oldest
       FROM elevation_requests r WHERE r.status = 'pending' AND ${w.sql} GROUP BY r.risk_level`,
  ).all(...w.params) as Array<{ risk: RiskLevel; count: number; oldest: string }>;
}

const LIVE_GRANT = "r.status IN ('approved', 'auto_approved', 'actuating') AND r.expires_at > ?";

export function activeGrantCount(db: Db, clauses: readonly Clause[], now: string): number {
  const w = where(clauses);
  return (
    statement(db, `SELECT COUNT(*) AS n FROM elevation_requests r WHERE ${LIVE_GRANT} AND ${w.sql}`).get(
      now,
      ...w.params,
    ) as { n: number }
  ).n;
}

export interface GrantRow {
  id: string;
  device_id: string;
  hostname: string;
  subject_username: string | null;
  target_executable_path: string | null;
  tool_name: string | null;
  risk_level: RiskLevel;
  expires_at: string;
}

export function grantsEndingSoonest(
  db: Db,
  clauses: readonly Clause[],
  now: string,
  limit: number,
): GrantRow[] {
  const w = where(clauses);
  return statement(
    db,
    `SELECT r.id, r.device_id, d.hostname, r.subject_username, r.target_executable_path, r.tool_name,
         r.risk_level, r.expires_at
       FROM elevation_requests r JOIN devices d ON d.id = r.device_id
       WHERE ${LIVE_GRANT} AND ${w.sql} ORDER BY r.expires_at ASC, r.id LIMIT ?`,
  ).all(now, ...w.params, limit) as GrantRow[];
}

/** Requests raised since `since`, counted per UTC day and outcome. */
export function outcomesPerDay(
  db: Db,
  clauses: readonly Clause[],
  since: string,
): Array<{ day: string; outcome: ElevationOutcome; count: number }> {
  const w = where(clauses);
  return statement(
    db,
    `SELECT substr(r.requested_at, 1, 10) AS day, ${OUTCOME_SQL} AS outcome, COUNT(*) AS count
       FROM elevation_requests r WHERE r.requested_at >= ? AND ${w.sql} GROUP BY day, outcome`,
  ).all(since, ...w.params) as Array<{ day: string; outcome: ElevationOutcome; count: number }>;
}

const LIVE_DEVICE = "d.status != 'decommissioned'";

export function deviceStatusCounts(db: Db, clauses: readonly Clause[]): Array<{ status: string; n: number }> {
  const w = where(clauses);
  return statement(
    db,
    `SELECT d.status, COUNT(*) AS n FROM devices d WHERE ${LIVE_DEVICE} AND ${w.sql} GROUP BY d.status`,
  ).all(...w.params) as Array<{ status: string; n: number }>;
}

/** The devices a presence series counts: enrolled, not removed, with their state now. */
export function presenceDevices(
  db: Db,
  clauses: readonly Clause[],
): Array<{ id: string; online: number; enrolled_at: string }> {
  const w = where(clauses);
  return statement(
    db,
    `SELECT d.id, d.status = 'online' AS online, d.enrolled_at FROM devices d WHERE ${LIVE_DEVICE} AND ${w.sql}`,
  ).all(...w.params) as Array<{ id: string; online: number; enrolled_at: string }>;
}

/** Presence changes of those devices since `since`, in time order. */
export function presenceChangesSince(
  db: Db,
  clauses: readonly Clause[],
  since: string,
): Array<{ device_id: string; online: number; at: string }> {
  const w = where(clauses);
  return statement(
    db,
    `SELECT c.device_id, c.online, c.at FROM device_presence_changes c JOIN devices d ON d.id = c.device_id
       WHERE c.at >= ? AND ${LIVE_DEVICE} AND ${w.sql} ORDER BY c.at, c.rowid`,
  ).all(since, ...w.params) as Array<{ device_id: string; online: number; at: string }>;
}

export function recordPresenceChange(db: Db, deviceId: string, online: boolean, at: string): void {
  statement(
    db,
    // A device removed meanwhile (its row gone) has nothing left to chart.
    `INSERT INTO device_presence_changes (device_id, online, at)
       SELECT id, ?, ? FROM devices WHERE id = ?`,
  ).run(online ? 1 : 0, at, deviceId);
}

/** Removes changes older than `cutoff`; returns how many. */
export function prunePresenceChanges(db: Db, cutoff: string): number {
  return statement(db, 'DELETE FROM device_presence_changes WHERE at < ?').run(cutoff).changes;
}

/** Visible devices per platform, architecture and agent version. */
export function agentVersionGroups(
  db: Db,
  clauses: readonly Clause[],
): Array<{ os_type: OsType; architecture: string; agent_version: string; n: number }> {
  const w = where(clauses);
  return statement(
    db,
    `SELECT d.os_type, d.architecture, d.agent_version, COUNT(*) AS n FROM devices d
       WHERE ${LIVE_DEVICE} AND ${w.sql} GROUP BY d.os_type, d.architecture, d.agent_version`,
  ).all(...w.params) as Array<{ os_type: OsType; architecture: string; agent_version: string; n: number }>;
}
