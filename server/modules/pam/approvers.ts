import { randomUUID } from 'node:crypto';
import { statement, type Db } from '../../db/connection';
import { effectivePermissions, grantsPermission, PERMISSIONS } from '../../http/permissions';
import { parseRestriction } from '../../http/scope';
import { canSeeDevice, type DeviceRef, type DeviceVisibility } from '../devices/access';

// Who is told about a pending request (spec 2: "mobile approval requests sent to eligible technicians"): every
// active user who could approve it — holds `pam:approve` and could see the request's device (its organization,
// and the sites and device groups an organization user is limited to). Each gets an inbox slot
// (elevation_approvals); the first decision wins and the other slots expire.

interface Candidate {
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

function coversOrg(c: Candidate, orgId: string): boolean {
  if (c.org_access === null) return true;
  if (c.org_access === 'all') return true;
  if (c.org_access !== 'selected' || !c.org_ids) return false;
  return (JSON.parse(c.org_ids) as string[]).includes(orgId);
}

/** What the candidate would see of the device's organization, as the device visibility rule states it. */
function visibilityOf(c: Candidate, orgId: string): DeviceVisibility {
  return {
    scope: { kind: 'some', orgIds: new Set(coversOrg(c, orgId) ? [orgId] : []) },
    sites: parseRestriction(c.site_ids),
    deviceGroups: parseRestriction(c.device_group_ids),
  };
}

/** Users who may approve a request about this device, except the request's own subject. */
export function eligibleApprovers(db: Db, device: DeviceRef, subject: string | null): string[] {
  const candidates = statement(
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
  ).all({ orgId: device.orgId }) as Candidate[];
  const approves = new Map<string, boolean>();
  const holds = (roleId: string) => {
    let value = approves.get(roleId);
    if (value === undefined) {
      value = grantsPermission(effectivePermissions(db, roleId), PERMISSIONS.PAM_APPROVE);
      approves.set(roleId, value);
    }
    return value;
  };
  const ids = new Set<string>();
  for (const c of candidates) {
    if (!holds(c.role_id) || !canSeeDevice(db, visibilityOf(c, device.orgId), device)) continue;
    if (isSubject(c.email, subject)) continue;
    ids.add(c.user_id);
  }
  return [...ids];
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

/**
 * The bare account name of `DOMAIN\name`, `name@domain` or `name`, without the admin-account affix of either
 * common convention (`jdoe-admin`, `jdoe.adm`; `adm-jdoe`, `admin_jdoe`).
 */
function accountName(value: string): string {
  const bare = value.trim().toLowerCase().split('\\').pop()!.split('@')[0]!;
  return bare.replace(/[-_.]adm(in)?$/, '').replace(/^adm(in)?[-_.](?=.)/, '');
}

/**
 * Whether a console user is the subject of a request. Machine accounts and console accounts are different
 * namespaces; we link them by the account name (`CORP\jdoe-admin` and `jdoe@corp.example` are the same person).
 * A false positive only stops someone approving, never lets anyone approve, so the loose match is the safe way.
 */
export function isSubject(email: string, subject: string | null): boolean {
  if (!subject) return false;
  return accountName(subject) !== '' && accountName(subject) === accountName(email);
}
