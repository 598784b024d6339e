import { z } from 'zod';
import { SAVED_FILTER_LIMITS as LIMITS } from '../../contract/filters';

// Request shapes of /filters (spec 2, Saved filters; limits: name 1-200, description up to 1000, preview limit
// 1-100 default 10). `conditions` is taken as any JSON here and validated by parseConditionGroup in the service,
// which guards nesting depth and size before it recurses.

const filterName = z
  .string({ error: 'name is required' })
  .trim()
  .min(1, `name must be 1-${LIMITS.name} characters`)
  .max(LIMITS.name, `name must be 1-${LIMITS.name} characters`);

/** Blank descriptions are stored as null. */
const filterDescription = z
  .string({ error: 'description must be a string or null' })
  .trim()
  .max(LIMITS.description, `description must be at most ${LIMITS.description} characters`)
  .transform((d) => (d === '' ? null : d))
  .nullable();

const CONDITIONS_DOC =
  "A condition group {operator: 'AND' | 'OR', conditions: [{field, operator, value?} | group, ...]}: at least one " +
  'element per group, nested at most 32 levels, at most 500 conditions (spec 2, Saved filter)';

const conditions = z
  .unknown()
  .refine((v) => v !== undefined, 'conditions is required')
  .meta({ description: CONDITIONS_DOC });

export const createFilterBody = z.object({
  name: filterName,
  description: filterDescription.optional(),
  conditions,
  /** Required for partner and system scope, ignored for organization scope (checked by the service). */
  orgId: z.string({ error: 'orgId must be a string' }).optional(),
});

/** Unknown fields are dropped; a body with none of these is refused with "No updates provided". */
export const updateFilterBody = z.object({
  name: filterName.optional(),
  description: filterDescription.optional(),
  conditions: z.unknown().optional().meta({ description: CONDITIONS_DOC }),
});

export const listFiltersQuery = z.object({
  search: z.string({ error: 'search must be a string' }).trim().max(200, 'search is too long').optional(),
});

const LIMIT_MESSAGE = 'limit must be an integer between 1 and 100';
const previewLimit = z
  .number({ error: LIMIT_MESSAGE })
  .int(LIMIT_MESSAGE)
  .min(1, LIMIT_MESSAGE)
  .max(100, LIMIT_MESSAGE);

export const previewBody = z.object({
  conditions,
  limit: previewLimit.default(10),
});

export const savedPreviewQuery = z.object({
  limit: z
    .string({ error: LIMIT_MESSAGE })
    .regex(/^\d{1,3}$/, LIMIT_MESSAGE)
    .transform(Number)
    .pipe(previewLimit)
    .default(10),
});

/** Any string: an id that is not a UUID simply matches no filter (404), like any other unknown id. */
export const filterIdParams = z.object({ id: z.string() });
