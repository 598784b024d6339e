// The public surface of the tenants feature: what the route table and other features may import.

export { TenantsPage } from './TenantsPage';
export { PARTNER_PLANS, PARTNER_TYPES, labelOf, partnerStatusOf } from './labels';
