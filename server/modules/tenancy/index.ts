// The tenancy module's public surface: what other modules may import; everything else is internal. Its routes are
// mounted by server/index.ts from routes.ts (the composition root), not re-exported here, so that importing this
// surface never pulls in another module's request handlers.
export {
  churnPartner,
  insertOrganization,
  insertPartner,
  insertSite,
  PARTNER_ADMIN_ROLE_NAME,
  partnersOffboardingSince,
  siteById,
} from './store';
export type { OrganizationRow, PartnerRow, SiteRow } from './rows';
export { partnerSettingsOfOrg } from './access-store';
