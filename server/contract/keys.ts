// API keys and enrollment keys (spec 1). The raw key appears only in create and rotate responses.

export type ApiKeyStatus = 'active' | 'expired' | 'revoked';

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
