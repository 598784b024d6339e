import { statement, type Db } from '../../db/connection';

// The tenancy SQL read on every request (server/http/scope.ts, server/http/tenant-guard.ts) and by PAM's step-up
// policy: which organizations and sites are live, what a partner user's association grants, what an organization
// user is limited to, what blocks a partner and the partner settings an organization inherits. Kept apart from
// store.ts so the request layer depends on nothing but these reads.

export interface PartnerLink {
  org_access: 'all' | 'selected' | 'none';
  /** JSON array of organization ids, read when org_access is 'selected'. */
  org_ids: string;
}

export function partnerLinkOf(db: Db, partnerId: string | null, userId: string): PartnerLink | undefined {
  return statement(
    db,
    'SELECT org_access, org_ids FROM partner_users WHERE partner_id = ? AND user_id = ?',
  ).get(partnerId, userId) as PartnerLink | undefined;
}

/** The ids of the partner's organizations that are not deleted. */
export function liveOrgIdsOfPartner(db: Db, partnerId: string | null): string[] {
  return (
    statement(db, 'SELECT id FROM organizations WHERE partner_id = ? AND deleted_at IS NULL').all(
      partnerId,
    ) as Array<{ id: string }>
  ).map((r) => r.id);
}

export function liveOrg(db: Db, orgId: string): { id: string; partner_id: string } | undefined {
  return statement(db, 'SELECT id, partner_id FROM organizations WHERE id = ? AND deleted_at IS NULL').get(
    orgId,
  ) as { id: string; partner_id: string } | undefined;
}

/** A site whose organization is not deleted. */
export function liveSite(db: Db, siteId: string): { id: string; org_id: string } | undefined {
  return statement(
    db,
    `SELECT s.id, s.org_id FROM sites s JOIN organizations o ON o.id = s.org_id
     WHERE s.id = ? AND o.deleted_at IS NULL`,
  ).get(siteId) as { id: string; org_id: string } | undefined;
}

/** An organization user's association limits as stored (JSON id lists or null). */
export function orgUserLimits(
  db: Db,
  orgId: string,
  userId: string,
): { site_ids: string | null; device_group_ids: string | null } | undefined {
  return statement(
    db,
    'SELECT site_ids, device_group_ids FROM organization_users WHERE org_id = ? AND user_id = ?',
  ).get(orgId, userId) as { site_ids: string | null; device_group_ids: string | null } | undefined;
}

/** What the partner guard reads: the status, the deletion mark and the IP allowlist (JSON text or null). */
export function partnerGate(
  db: Db,
  partnerId: string,
): { status: string; deleted_at: string | null; allowlist: string | null } | undefined {
  return statement(
    db,
    `SELECT status, deleted_at, json_extract(settings, '$.security.ipAllowlist') AS allowlist
     FROM partners WHERE id = ?`,
  ).get(partnerId) as { status: string; deleted_at: string | null; allowlist: string | null } | undefined;
}

/** The settings (JSON text) of the partner an organization belongs to. */
export function partnerSettingsOfOrg(db: Db, orgId: string): { settings: string } | undefined {
  return statement(
    db,
    'SELECT p.settings FROM organizations o JOIN partners p ON p.id = o.partner_id WHERE o.id = ?',
  ).get(orgId) as { settings: string } | undefined;
}
