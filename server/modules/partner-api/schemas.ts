import { z } from 'zod';
import { PARTNER_KEY_SCOPES } from '../../contract/partner-api';
import { futureDateTime, uuidField } from '../api-keys';

// Request shapes of /partner-keys and /partner-api (spec 3, Partner provisioning interface; Limits).

export const createPartnerKeyBody = z.object({
  name: z
    .string({ error: 'name is required' })
    .trim()
    .min(1, 'name must be 1-255 characters')
    .max(255, 'name must be 1-255 characters'),
  scopes: z
    .array(
      z.enum(PARTNER_KEY_SCOPES, { error: `each scope must be one of ${PARTNER_KEY_SCOPES.join(', ')}` }),
      {
        error: 'scopes must be an array',
      },
    )
    .min(1, 'scopes must not be empty')
    .transform((s) => [...new Set(s)]),
  rateLimit: z
    .number({ error: 'rateLimit must be an integer between 1 and 100000' })
    .int('rateLimit must be an integer between 1 and 100000')
    .min(1, 'rateLimit must be an integer between 1 and 100000')
    .max(100000, 'rateLimit must be an integer between 1 and 100000')
    .optional(),
  expiresAt: futureDateTime('expiresAt').optional(),
});
export type CreatePartnerKeyBody = z.infer<typeof createPartnerKeyBody>;

export const partnerKeyParams = z.object({ id: uuidField('id') });

const MAX_PAGE = 500;
export const cursorQuery = z.object({
  limit: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return 100;
      const n = Number(raw);
      if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE) {
        ctx.addIssue({ code: 'custom', message: `limit must be an integer between 1 and ${MAX_PAGE}` });
        return z.NEVER;
      }
      return n;
    }),
  cursor: z.string().max(512).optional(),
});
export const siteListQuery = cursorQuery.extend({ orgId: uuidField('orgId').optional() });

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const provisionOrganizationBody = z.object({
  name: z.string({ error: 'name is required' }).trim().min(1, 'name is required').max(255),
  slug: z
    .string({ error: 'slug is required' })
    .trim()
    .min(1, 'slug is required')
    .max(100)
    .regex(SLUG, 'slug must contain only lowercase letters, digits and single hyphens'),
  type: z.enum(['customer', 'internal']).optional(),
  status: z.enum(['active', 'trial'], { error: "status must be 'active' or 'trial'" }).optional(),
});

export const provisionSiteBody = z.object({
  orgId: uuidField('orgId'),
  name: z.string({ error: 'name is required' }).trim().min(1, 'name is required').max(255),
  timezone: z.string().trim().max(50).optional(),
  address: z.record(z.string(), z.unknown()).optional(),
  contact: z.record(z.string(), z.unknown()).optional(),
});

export const provisionEnrollmentKeyBody = z.object({
  orgId: uuidField('orgId'),
  siteId: uuidField('siteId').optional(),
  name: z.string({ error: 'name is required' }).trim().min(1, 'name is required').max(255),
  maxUsage: z
    .number({ error: 'maxUsage must be an integer between 1 and 100000' })
    .int('maxUsage must be an integer between 1 and 100000')
    .min(1, 'maxUsage must be an integer between 1 and 100000')
    .max(100000, 'maxUsage must be an integer between 1 and 100000'),
  ttlMinutes: z
    .number({ error: 'ttlMinutes must be an integer between 1 and 525600' })
    .int('ttlMinutes must be an integer between 1 and 525600')
    .min(1, 'ttlMinutes must be an integer between 1 and 525600')
    .max(525600, 'ttlMinutes must be an integer between 1 and 525600'),
});
