import type { Db } from '../../db/connection';
import { effectivePermissions, grantsPermission, PERMISSIONS } from '../../http/permissions';
import { parseRestriction } from '../../http/scope';
import { canSeeDevice, type DeviceRef, type DeviceVisibility } from '../devices';
import { approverCandidates, type Candidate } from './approval-store';

// Who is told about a pending request (spec 2: "mobile approval requests sent to eligible technicians"): every
// active user who could approve it — holds `pam:approve` and could see the request's device (its organization,
// and the sites and device groups an organization user is limited to). Each gets an inbox slot
// (elevation_approvals, approval-store.ts); the first decision wins and the other slots expire.

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
  const candidates = approverCandidates(db, device.orgId);
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
