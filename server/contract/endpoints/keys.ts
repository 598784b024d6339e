import type { Paginated } from '../common';
import type {
  ApiKey,
  ApiKeyCreated,
  ApiKeyRotated,
  ApiKeyStatus,
  EnrollmentKey,
  EnrollmentKeyCreated,
} from '../keys';
import type { PartnerKey, PartnerKeyCreated, PartnerKeyScope } from '../partner-api';
import type { Endpoint } from './endpoint';

// /api-keys and /enrollment-keys (spec 1), /partner-keys (spec 3).

/** One page of API keys or enrollment keys; `status` narrows API keys, `expired` enrollment keys. */
export interface KeyListQuery {
  page: number;
  limit: number;
  orgId?: string;
  status?: ApiKeyStatus;
  expired?: 'true' | 'false';
}

export interface CreateApiKeyBody {
  orgId: string;
  name: string;
  scopes: string[];
  rateLimit: number;
  expiresAt?: string;
}

/** Only the fields that changed. */
export interface UpdateApiKeyBody {
  name?: string;
  scopes?: string[];
  rateLimit?: number;
}

/** Without `expiresAt` the key expires after the server's default lifetime. */
export interface CreateEnrollmentKeyBody {
  orgId: string;
  siteId?: string;
  name: string;
  maxUsage: number;
  expiresAt?: string;
}

/** Omitted fields are kept; `maxUsage: null` lifts the limit. */
export interface RotateEnrollmentKeyBody {
  maxUsage?: number | null;
  expiresAt?: string;
}

export interface CreatePartnerKeyBody {
  name: string;
  scopes: PartnerKeyScope[];
  rateLimit: number;
  expiresAt?: string;
}

export interface KeyEndpoints {
  'GET /api-keys': Endpoint<Paginated<ApiKey>, undefined, KeyListQuery>;
  'POST /api-keys': Endpoint<ApiKeyCreated, CreateApiKeyBody>;
  'PATCH /api-keys/:id': Endpoint<ApiKey, UpdateApiKeyBody>;
  'POST /api-keys/:id/rotate': Endpoint<ApiKeyRotated>;
  'DELETE /api-keys/:id': Endpoint<{ success: true }>;
  'GET /enrollment-keys': Endpoint<Paginated<EnrollmentKey>, undefined, KeyListQuery>;
  'POST /enrollment-keys': Endpoint<EnrollmentKeyCreated, CreateEnrollmentKeyBody>;
  'POST /enrollment-keys/:id/rotate': Endpoint<EnrollmentKeyCreated, RotateEnrollmentKeyBody>;
  'DELETE /enrollment-keys/:id': Endpoint<{ success: true }>;
  'GET /partner-keys': Endpoint<{ data: PartnerKey[] }>;
  'POST /partner-keys': Endpoint<PartnerKeyCreated, CreatePartnerKeyBody>;
  'POST /partner-keys/:id/rotate': Endpoint<PartnerKeyCreated>;
  'DELETE /partner-keys/:id': Endpoint<PartnerKey>;
}
