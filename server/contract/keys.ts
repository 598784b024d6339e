// API keys and enrollment keys (spec 1). The raw key appears only in create and rotate responses.

export type ApiKeyStatus = 'active' | 'expired' | 'revoked';

/**
 * API-key scopes that `*` does not include: a key holds them only when they are granted by name. Spec 1 lets `*`
 * pass every scope check; deciding elevation requests (respond, revoke, actuate) is carved out, because a
 * wildcard key minted for reading or provisioning automation must not silently become an approver of
 * administrator rights on every device of its organization. Granting one still needs the creator to hold it.
 */
export const EXPLICIT_API_KEY_SCOPES = ['pam:approve'] as const;
export type ExplicitApiKeyScope = (typeof EXPLICIT_API_KEY_SCOPES)[number];

export interface ApiKey {
  id: string;
  orgId: string;
  name: string;
  keyPrefix: string;
  scopes: string[];
  expiresAt: string | null;
  rateLimit: number;
  createdBy: string;
  createdAt: string;
  status: ApiKeyStatus;
  lastUsedAt: string | null;
  usageCount: number;
}

/** `POST /api-keys`: the full key, shown once, with a warning saying so. */
export interface ApiKeyCreated extends ApiKey {
  key: string;
  warning: string;
}

/** `POST /api-keys/:id/rotate`: the new full key, shown once (spec 1: the warning is a create-only field). */
export interface ApiKeyRotated extends ApiKey {
  key: string;
}

export interface EnrollmentKey {
  id: string;
  orgId: string;
  siteId: string | null;
  name: string;
  usageCount: number;
  maxUsage: number | null;
  expiresAt: string;
  createdBy: string;
  createdAt: string;
  /** Derived: past expiresAt, or usageCount >= maxUsage. */
  expired: boolean;
  exhausted: boolean;
}

export interface EnrollmentKeyCreated extends EnrollmentKey {
  key: string;
}
