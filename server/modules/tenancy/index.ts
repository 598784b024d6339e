// The tenancy module's public surface: what other modules may import; everything else is internal. Its routes are
// mounted by server/index.ts from routes.ts (the composition root), not re-exported here, so that importing this
// surface never pulls in another module's request handlers.
export {
  churnPartner,
  countOrganizations,
  insertOrganization,
  insertPartner,
  insertSite,
  organizationById,
  organizationsAfter,
  organizationSlugTaken,
  PARTNER_ADMIN_ROLE_NAME,
  partnerById,
  partnerOrganizationRows,
  partnersOffboardingSince,
  siteById,
  sitesAfter,
  sitesOfOrganizations,
  updateOrganizationRow,
  updateSiteRow,
  type KeysetPosition,
} from './store';
export type { OrganizationRow, PartnerRow, SiteRow } from './rows';
export { toOrganization, toSite } from './rows';
export { canonicalTimeZone } from './schemas';
export { partnerSettingsOfOrg } from './access-store';
