import { randomUUID } from 'node:crypto';
import { statement, type Db } from '../../db/connection';

// The store of agent consequences of partner status (spec 1, Partner status). Offboarding queues an uninstall for
// every device of the partner (agents, narrowed to heartbeats, collect it); reactivation before the reaper
// finalizes cancels the ones nobody collected yet; churn severs the remaining credentials. All of these run inside
// the caller's transaction, next to the status flip they belong to.

/** `created_by` of the uninstalls offboarding queues: reactivation cancels exactly these, not an operator's. */
export const OFFBOARDING_COMMAND_AUTHOR = 'partner-offboarding';

const PARTNER_DEVICES = `SELECT d.id FROM devices d JOIN organizations o ON o.id = d.org_id WHERE o.partner_id = ?`;

/** Queues `self_uninstall {removeConfig: true}` for each live device of the partner that has none pending. */
export function queuePartnerUninstalls(db: Db, partnerId: string, at: string): number {
  const devices = statement(
    db,
    `SELECT d.id, d.org_id FROM devices d JOIN organizations o ON o.id = d.org_id
       WHERE o.partner_id = ? AND d.status <> 'decommissioned'
         AND NOT EXISTS (SELECT 1 FROM device_commands c WHERE c.device_id = d.id AND c.type = 'self_uninstall'
                         AND c.status IN ('pending', 'sent'))`,
  ).all(partnerId) as Array<{ id: string; org_id: string }>;
  const insert = statement(
    db,
    `INSERT INTO device_commands (id, device_id, org_id, type, payload, status, created_by, created_at)
     VALUES (?, ?, ?, 'self_uninstall', '{"removeConfig":true}', 'pending', ?, ?)`,
  );
  for (const device of devices)
    insert.run(randomUUID(), device.id, device.org_id, OFFBOARDING_COMMAND_AUTHOR, at);
  return devices.length;
}

/** Cancels the offboarding uninstalls no agent has collected yet; returns how many. */
export function cancelPartnerUninstalls(db: Db, partnerId: string, at: string): number {
  return statement(
    db,
    `UPDATE device_commands SET status = 'cancelled', completed_at = ?
     WHERE status = 'pending' AND type = 'self_uninstall' AND created_by = ? AND device_id IN (${PARTNER_DEVICES})`,
  ).run(at, OFFBOARDING_COMMAND_AUTHOR, partnerId).changes;
}

/** Churn: every agent credential of the partner stops working for good (the hash no token can produce). */
export function severPartnerAgents(db: Db, partnerId: string): number {
  return statement(
    db,
    `UPDATE devices SET agent_token_hash = 'revoked:' || id, agent_token_prev_hash = NULL
     WHERE id IN (${PARTNER_DEVICES}) AND agent_token_hash NOT LIKE 'revoked:%'`,
  ).run(partnerId).changes;
}

/** True when the partner had devices and every one of them has uninstalled (is decommissioned). */
export function partnerFullyUninstalled(db: Db, partnerId: string): boolean {
  const row = statement(
    db,
    `SELECT count(*) AS total, sum(d.status <> 'decommissioned') AS remaining
     FROM devices d JOIN organizations o ON o.id = d.org_id WHERE o.partner_id = ?`,
  ).get(partnerId) as { total: number; remaining: number | null };
  return row.total > 0 && (row.remaining ?? 0) === 0;
}
