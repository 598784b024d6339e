import { z } from 'zod';
import { paginationQuery } from '../../http/pagination';

// Request shapes of /api-keys (spec 1, API key). Limits come from the spec's table; the ones it leaves open
// (how many scopes, how long one may be) are generous bounds that keep a single row small.

export const API_KEY_STATUSES = ['active', 'expired', 'revoked'] as const;

const MAX_SCOPES = 100;
/** `resource:action` in lowercase words (`devices:read`, `pam:manage_policy`), or the lone wildcard `*`. */
const SCOPE_PATTERN = /^[a-z][a-z0-9_-]{0,49}:[a-z][a-z0-9_-]{0,49}$/;

export const apiKeyName = z
  .string({ error: 'name is required' })
  .trim()
  .min(1, 'name must be 1-255 characters')
  .max(255, 'name must be 1-255 characters');

// A partial wildcard such as `devices:*` is refused rather than stored: the scope check compares whole strings,
// so it would look like a grant and pass nothing.
export const apiKeyScopes = z
  .array(
    z
      .string()
      .refine(
        (s) => s === '*' || SCOPE_PATTERN.test(s),
        'each scope must have the form resource:action, or be *',
      ),
    { error: 'scopes must be an array of strings' },
  )
  .max(MAX_SCOPES, `at most ${MAX_SCOPES} scopes`)
  .transform((scopes) => [...new Set(scopes)]);

export const apiKeyRateLimit = z
  .number({ error: 'rateLimit must be an integer between 1 and 100000' })
  .int('rateLimit must be an integer between 1 and 100000')
  .min(1, 'rateLimit must be an integer between 1 and 100000')
  .max(100000, 'rateLimit must be an integer between 1 and 100000');

/** A future ISO 8601 date-time, normalised to UTC milliseconds so stored values compare as strings. */
export const futureDateTime = (field: string) =>
  z.iso
    .datetime({ offset: true, error: `${field} must be an ISO 8601 date-time` })
    .transform((value) => new Date(value).toISOString())
    .refine((iso) => Date.parse(iso) > Date.now(), `${field} must be in the future`);

export const uuidField = (field: string) =>
  z.uuid({
    error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a UUID`),
  });

export const createApiKeyBody = z.object({
  orgId: uuidField('orgId'),
  name: apiKeyName,
  scopes: apiKeyScopes.default([]),
  expiresAt: futureDateTime('expiresAt').nullable().optional(),
  rateLimit: apiKeyRateLimit.default(1000),
});

/** Unknown fields are dropped; a body with none of these is refused with "No updates provided". */
export const updateApiKeyBody = z.object({
  name: apiKeyName.optional(),
  scopes: apiKeyScopes.optional(),
  rateLimit: apiKeyRateLimit.optional(),
});

export const listApiKeysQuery = z.object({
  ...paginationQuery(),
  orgId: uuidField('orgId').optional(),
  status: z.enum(API_KEY_STATUSES, { error: 'status must be active, expired or revoked' }).optional(),
});

/** Any string: an id that is not a UUID simply matches no key (404), like any other unknown id. */
export const idParams = z.object({ id: z.string() });
