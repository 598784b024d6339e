import { randomUUID } from 'node:crypto';
import { statement, type Db } from '../../db/connection';

// The SQL of approval inboxes (approvers.ts decides who is eligible): who could approve a request in an
// organization, and the inbox slots (elevation_approvals) each eligible user gets.

/** An active user linked to the organization (platform, partner or organization association). */
export interface Candidate {
  user_id: string;
  email: string;
  role_id: string;
  /** Partner links: 'all' | 'selected' | 'none' and the selected organizations. */
  org_access: string | null;
  org_ids: string | null;
  /** Organization links: the user's restrictions (null or empty: none). */
  site_ids: string | null;
  device_group_ids: string | null;
}

/** Every active user associated with the organization, with what their association grants. */
export function approverCandidates(db: Db, orgId: string): Candidate[] {
  return statement(
    db,
    `SELECT u.id AS user_id, u.email, pa.role_id, NULL AS org_access, NULL AS org_ids, NULL AS site_ids,
            NULL AS device_group_ids
         FROM platform_admins pa JOIN users u ON u.id = pa.user_id WHERE u.status = 'active'
       UNION ALL
       SELECT u.id, u.email, pu.role_id, pu.org_access, pu.org_ids, NULL, NULL
         FROM partner_users pu JOIN users u ON u.id = pu.user_id
         JOIN organizations o ON o.partner_id = pu.partner_id AND o.id = @orgId
        WHERE u.status = 'active'
       UNION ALL
       SELECT u.id, u.email, ou.role_id, NULL, NULL, ou.site_ids, ou.device_group_ids
         FROM organization_users ou JOIN users u ON u.id = ou.user_id
        WHERE ou.org_id = @orgId AND u.status = 'active'`,
  ).all({ orgId }) as Candidate[];
}

export function insertApprovalSlots(db: Db, requestId: string, orgId: string, userIds: string[]): void {
  const insert = statement(
    db,
    `INSERT OR IGNORE INTO elevation_approvals (id, elevation_request_id, org_id, approver_user_id, created_at)
     VALUES (?, ?, ?, ?, ?)`,
  );
  const at = new Date().toISOString();
  for (const userId of userIds) insert.run(randomUUID(), requestId, orgId, userId, at);
}

/**
 * Closes the inbox after a decision: the decider's slot records the outcome (created when they were not
 * notified), every other pending slot expires.
 */
export function settleApprovalSlots(
  db: Db,
  requestId: string,
  orgId: string,
  decider: { userId: string; status: 'approved' | 'denied'; refusalReason: string | null } | null,
): void {
  const at = new Date().toISOString();
  if (decider) {
    insertApprovalSlots(db, requestId, orgId, [decider.userId]);
    statement(
      db,
      `UPDATE elevation_approvals SET status = ?, decided_at = ?, refusal_reason = ?
       WHERE elevation_request_id = ? AND approver_user_id = ?`,
    ).run(decider.status, at, decider.refusalReason, requestId, decider.userId);
  }
  statement(
    db,
    `UPDATE elevation_approvals SET status = 'expired' WHERE elevation_request_id = ? AND status = 'pending'`,
  ).run(requestId);
}
