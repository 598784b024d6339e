import type { Paginated } from '../common';
import type { Contact, ContactRole } from '../contacts';
import type {
  Organization,
  OrganizationSettings,
  OrganizationStatus,
  OrganizationType,
  Partner,
  PartnerPlan,
  PartnerStatus,
  PartnerType,
  Site,
} from '../tenancy';
import type { Endpoint } from './endpoint';

// The tenancy endpoints (spec 1: partners, organizations, sites; spec 3: an organization's contacts). A create
// sends the fields that are set, an edit only what changed (renderer/src/lib/write-body.ts), so every field but a
// create's name and slug may be absent; null clears a field.

interface TenantFields<Type extends string> {
  name: string;
  slug: string;
  type: Type;
  /** Null: no cap. */
  maxDevices: number | null;
}

export interface PartnerFields extends TenantFields<PartnerType> {
  plan: PartnerPlan;
  maxOrganizations: number | null;
  billingEmail: string | null;
}

export interface OrganizationFields extends TenantFields<OrganizationType> {
  status: OrganizationStatus;
  contractStart: string | null;
  contractEnd: string | null;
}

/** A create sends the fields that are set, always its name and slug. */
type Creating<Fields extends { name: string; slug: string }> = Partial<Fields> &
  Pick<Fields, 'name' | 'slug'>;

export type NewPartnerBody = Creating<PartnerFields>;
/** `settings`: a section of the partner's settings (the step-up policy, spec 2), merged by the server. */
export type PartnerPatch = Partial<PartnerFields> & {
  status?: PartnerStatus;
  settings?: Record<string, unknown>;
};

/** `partnerId`: the owning partner, chosen by platform administrators; `settings`: the sign-in policy. */
export type NewOrganizationBody = Creating<OrganizationFields> & {
  partnerId?: string;
  settings?: OrganizationSettings;
};
export type OrganizationPatch = Partial<OrganizationFields> & { settings?: OrganizationSettings };

/** The console's own keys of a site's free-form address and contact sit beside any others it found stored. */
export interface SiteFields {
  name: string;
  timezone: string;
  address: Record<string, unknown>;
  contact: Record<string, unknown>;
}

export type NewSiteBody = SiteFields & { orgId: string };
export type SitePatch = Partial<SiteFields>;

/** Changed fields only; null clears one (no site: organization-level; no roles: none). */
export interface ContactPatch {
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  mobile?: string | null;
  title?: string | null;
  siteId?: string | null;
  roles?: ContactRole[] | null;
}

export interface TenantEndpoints {
  /** The console also asks for one row alone, to learn whether any partner exists. */
  'POST /orgs/partners': Endpoint<Partner, NewPartnerBody>;
  'GET /orgs/partners/:id': Endpoint<Partner>;
  'PATCH /orgs/partners/:id': Endpoint<Partner, PartnerPatch>;
  'DELETE /orgs/partners/:id': Endpoint<{ success: true }>;
  'POST /orgs/organizations': Endpoint<Organization, NewOrganizationBody>;
  'GET /orgs/organizations/:id': Endpoint<Organization>;
  'PATCH /orgs/organizations/:id': Endpoint<Organization, OrganizationPatch>;
  'DELETE /orgs/organizations/:id': Endpoint<{ success: true }>;
  'GET /orgs/organizations/:id/contacts': Endpoint<
    Paginated<Contact>,
    undefined,
    { page: number; limit: number }
  >;
  'POST /orgs/sites': Endpoint<Site, NewSiteBody>;
  'PATCH /orgs/sites/:id': Endpoint<Site, SitePatch>;
  'DELETE /orgs/sites/:id': Endpoint<{ success: true }>;
  'PATCH /orgs/contacts/:contactId': Endpoint<Contact, ContactPatch>;
}
