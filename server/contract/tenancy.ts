// Partners, organizations and sites (spec 1, /orgs). Field names follow the spec.

export const PARTNER_TYPES = ['msp', 'enterprise', 'internal'] as const;
export type PartnerType = (typeof PARTNER_TYPES)[number];
export const PARTNER_PLANS = ['free', 'starter', 'community', 'pro', 'enterprise', 'unlimited'] as const;
export type PartnerPlan = (typeof PARTNER_PLANS)[number];
export const PARTNER_STATUSES = ['pending', 'active', 'suspended', 'churned', 'offboarding'] as const;
export type PartnerStatus = (typeof PARTNER_STATUSES)[number];
export const SERVICE_MANAGEMENT_MODES = ['native', 'external', 'off'] as const;
export type ServiceManagementMode = (typeof SERVICE_MANAGEMENT_MODES)[number];
export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface BusinessDay {
  start: string;
  end: string;
  closed?: boolean;
}

export interface PartnerSettings {
  timezone?: string;
  dateFormat?: 'MM/DD/YYYY' | 'DD/MM/YYYY' | 'YYYY-MM-DD';
  timeFormat?: '12h' | '24h';
  language?: 'en';
  businessHours?: {
    preset?: '24/7' | 'business' | 'extended' | 'custom';
    custom?: Partial<Record<Weekday, BusinessDay>>;
  };
  contact?: { name?: string; email?: string; phone?: string; website?: string };
  security?: { ipAllowlist?: string[]; [key: string]: unknown };
  [key: string]: unknown;
}

export interface Partner {
  id: string;
  name: string;
  slug: string;
  type: PartnerType;
  plan: PartnerPlan;
  maxOrganizations: number | null;
  maxDevices: number | null;
  settings: PartnerSettings;
  serviceManagementMode: ServiceManagementMode;
  serviceManagementPsaConnectionId: string | null;
  ssoConfig: Record<string, unknown>;
  billingEmail: string | null;
  status: PartnerStatus;
  /** When offboarding began; the reaper turns the partner `churned` after the drain window. */
  offboardingStartedAt: string | null;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

export const ORGANIZATION_TYPES = ['customer', 'internal'] as const;
export type OrganizationType = (typeof ORGANIZATION_TYPES)[number];
export const ORGANIZATION_STATUSES = ['active', 'suspended', 'trial', 'churned'] as const;
export type OrganizationStatus = (typeof ORGANIZATION_STATUSES)[number];

export interface OrganizationSettings {
  security?: { requireMfa?: boolean; allowedMfaMethods?: { sms?: boolean }; [key: string]: unknown };
  [key: string]: unknown;
}

export interface Organization {
  id: string;
  partnerId: string;
  name: string;
  slug: string;
  type: OrganizationType;
  status: OrganizationStatus;
  maxDevices: number | null;
  settings: OrganizationSettings;
  ssoConfig: Record<string, unknown>;
  contractStart: string | null;
  contractEnd: string | null;
  billingContact: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

export interface Site {
  id: string;
  orgId: string;
  name: string;
  address: Record<string, unknown>;
  timezone: string;
  contact: Record<string, unknown>;
  settings: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/** `GET /orgs/`: organizations in scope, ordered by name, no pagination. */
export interface OrganizationListResponse {
  data: Organization[];
}
