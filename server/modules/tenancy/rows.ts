import type {
  Organization,
  OrganizationStatus,
  OrganizationType,
  Partner,
  PartnerPlan,
  PartnerStatus,
  PartnerType,
  ServiceManagementMode,
  Site,
} from '../../contract';

// The stored rows of partners, organizations and sites, and their API shapes (spec 1).

export interface PartnerRow {
  id: string;
  name: string;
  slug: string;
  type: PartnerType;
  plan: PartnerPlan;
  max_organizations: number | null;
  max_devices: number | null;
  settings: string;
  service_management_mode: string;
  service_management_psa_connection_id: string | null;
  sso_config: string;
  billing_email: string | null;
  status: PartnerStatus;
  offboarding_started_at: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface OrganizationRow {
  id: string;
  partner_id: string;
  name: string;
  slug: string;
  type: OrganizationType;
  status: OrganizationStatus;
  max_devices: number | null;
  settings: string;
  sso_config: string;
  contract_start: string | null;
  contract_end: string | null;
  billing_contact: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface SiteRow {
  id: string;
  org_id: string;
  name: string;
  address: string;
  timezone: string;
  contact: string;
  settings: string;
  created_at: string;
  updated_at: string;
}

/** Stored JSON objects are checked by json_valid; anything that is not an object reads as `{}`. */
export function parseObject(text: string | null): Record<string, unknown> {
  if (!text) return {};
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

const MODES: readonly string[] = ['native', 'external', 'off'];

/** Spec 1: an unrecognised or missing mode is read as `native`. */
export function readMode(stored: string | null): ServiceManagementMode {
  return stored && MODES.includes(stored) ? (stored as ServiceManagementMode) : 'native';
}

export function toPartner(row: PartnerRow): Partner {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    type: row.type,
    plan: row.plan,
    maxOrganizations: row.max_organizations,
    maxDevices: row.max_devices,
    settings: parseObject(row.settings),
    serviceManagementMode: readMode(row.service_management_mode),
    serviceManagementPsaConnectionId: row.service_management_psa_connection_id,
    ssoConfig: parseObject(row.sso_config),
    billingEmail: row.billing_email,
    status: row.status,
    offboardingStartedAt: row.offboarding_started_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deletedAt: row.deleted_at,
  };
}

export function toOrganization(row: OrganizationRow): Organization {
  return {
    id: row.id,
    partnerId: row.partner_id,
    name: row.name,
    slug: row.slug,
    type: row.type,
    status: row.status,
    maxDevices: row.max_devices,
    settings: parseObject(row.settings),
    ssoConfig: parseObject(row.sso_config),
    contractStart: row.contract_start,
    contractEnd: row.contract_end,
    billingContact: parseObject(row.billing_contact),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deletedAt: row.deleted_at,
  };
}

export function toSite(row: SiteRow): Site {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    address: parseObject(row.address),
    timezone: row.timezone,
    contact: parseObject(row.contact),
    settings: parseObject(row.settings),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export type PartnerColumns = Partial<Omit<PartnerRow, 'id' | 'created_at'>>;
export type OrganizationColumns = Partial<Omit<OrganizationRow, 'id' | 'partner_id' | 'created_at'>>;
export type SiteColumns = Partial<Omit<SiteRow, 'id' | 'org_id' | 'created_at'>>;
