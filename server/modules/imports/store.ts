import { statement, type Db } from '../../db/connection';

// SQL of organization external links: an organization's identity in the tool it came from, unique per partner
// and system, which makes a re-import find what an earlier import created.

export interface OrgLinkRow {
  org_id: string;
  external_system: string;
  external_id: string;
}

export function organizationLinksOfPartner(db: Db, partnerId: string): OrgLinkRow[] {
  return statement(
    db,
    'SELECT org_id, external_system, external_id FROM organization_external_links WHERE partner_id = ?',
  ).all(partnerId) as OrgLinkRow[];
}

export function insertOrganizationLink(
  db: Db,
  link: { partnerId: string; orgId: string; system: string; externalId: string; at: string },
): void {
  statement(
    db,
    `INSERT INTO organization_external_links (partner_id, org_id, external_system, external_id, created_at)
     VALUES (?, ?, ?, ?, ?)`,
  ).run(link.partnerId, link.orgId, link.system, link.externalId, link.at);
}
