// Partner provisioning (spec 3, Partner provisioning interface): keys of a partner's service principal, managed
// by partner administrators under /partner-keys, and the /partner-api endpoints those keys call with
// `X-API-Key: psk_...`. Rotation and revocation are Gatehouse's own contract (the spec leaves them open).

export const PARTNER_KEY_SCOPES = [
  'organizations:read',
  'organizations:write',
  'sites:read',
  'sites:write',
  'enrollment-keys:write',
] as const;
export type PartnerKeyScope = (typeof PARTNER_KEY_SCOPES)[number];

/** The write bucket of the partner interface never exceeds this many writes per hour, whatever the key asks. */
export const PARTNER_WRITE_CAP_PER_HOUR = 120;

export type PartnerKeyStatus = 'active' | 'expired' | 'revoked';

export interface PartnerKey {
  id: string;
  partnerId: string;
  name: string;
  /** `psk_` and the first characters of the secret, for recognising a key in a list. */
  keyPrefix: string;
  scopes: PartnerKeyScope[];
  rateLimit: number;
  expiresAt: string | null;
  status: PartnerKeyStatus;
  lastUsedAt: string | null;
  createdBy: string;
  createdAt: string;
}

/** `POST /partner-keys` and `POST /partner-keys/:id/rotate`: the raw key, shown this once. */
export interface PartnerKeyCreated extends PartnerKey {
  key: string;
}

/** Cursor pages of /partner-api lists. */
export interface CursorPage<T> {
  data: T[];
  nextCursor: string | null;
  hasMore: boolean;
}

export interface PartnerApiOrganization {
  id: string;
  name: string;
  slug: string;
  type: 'customer' | 'internal';
  status: 'active' | 'suspended' | 'trial' | 'churned';
  createdAt: string;
}

export interface PartnerApiSite {
  orgId: string;
  siteId: string;
  name: string;
  timezone: string;
  createdAt: string;
}

export interface PartnerApiEnrollmentKey {
  id: string;
  orgId: string;
  siteId: string | null;
  name: string;
  maxUsage: number;
  expiresAt: string;
  /** The raw enrollment key, shown this once. */
  key: string;
}
