import { z } from 'zod';
import { paginationQuery } from '../../http/pagination';
import { futureDateTime, uuidField } from '../api-keys';

// Request shapes of /enrollment-keys (spec 1, Enrollment key; limits: name 1-255, maxUsage 1-100000).

const MAX_USAGE_MESSAGE = 'maxUsage must be an integer between 1 and 100000';

export const maxUsage = z
  .number({ error: MAX_USAGE_MESSAGE })
  .int(MAX_USAGE_MESSAGE)
  .min(1, MAX_USAGE_MESSAGE)
  .max(100000, MAX_USAGE_MESSAGE);

export const createEnrollmentKeyBody = z.object({
  /** Required for partner and system scope; inferred for organization scope (checked by the service). */
  orgId: uuidField('orgId').optional(),
  siteId: uuidField('siteId').nullable().optional(),
  name: z
    .string({ error: 'name is required' })
    .trim()
    .min(1, 'name must be 1-255 characters')
    .max(255, 'name must be 1-255 characters'),
  maxUsage: maxUsage.default(1),
  expiresAt: futureDateTime('expiresAt').optional(),
});

/** Omitted fields are kept; `maxUsage: null` lifts the limit. */
export const rotateEnrollmentKeyBody = z.object({
  maxUsage: maxUsage.nullable().optional(),
  expiresAt: futureDateTime('expiresAt').optional(),
});

export const listEnrollmentKeysQuery = z.object({
  ...paginationQuery(),
  orgId: uuidField('orgId').optional(),
  expired: z.enum(['true', 'false'], { error: 'expired must be true or false' }).optional(),
});
