import { z } from 'zod';
import { ACCESS_REVIEW_NOTES_MAX } from '../../contract/access-reviews';

// Request shapes of /access-reviews (spec 1). Ids in the path are plain strings: one that names nothing is the
// spec's 404 'Access review not found', whatever its shape.

const id = z.string().min(1).max(100);
export const reviewParams = z.object({ id });
export const itemParams = z.object({ id, itemId: id });

/**
 * An ISO 8601 date or date-time. A bare date (what a date picker gives) means the end of that day in UTC, so a
 * review due "today" is not overdue while today lasts.
 */
const dueDate = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })], {
    error: 'dueDate must be an ISO 8601 date or date-time, e.g. 2026-12-31',
  })
  .transform((value) => new Date(value.length === 10 ? `${value}T23:59:59.999Z` : value).toISOString());

export const createReviewBody = z.object({
  name: z
    .string({ error: 'name is required' })
    .trim()
    .min(1, 'name must be 1-255 characters')
    .max(255, 'name must be 1-255 characters'),
  description: z.string().trim().max(2000, 'description must be at most 2000 characters').optional(),
  dueDate: dueDate.optional(),
  reviewerId: z.uuid('reviewerId must be a UUID').optional(),
});

export const decideItemBody = z.object({
  decision: z.enum(['approved', 'revoked', 'pending'], {
    error: 'decision must be approved, revoked or pending',
  }),
  notes: z
    .string()
    .max(ACCESS_REVIEW_NOTES_MAX, `notes must be at most ${ACCESS_REVIEW_NOTES_MAX} characters`)
    .nullable()
    .optional(),
});

export type CreateReviewBody = z.infer<typeof createReviewBody>;
export type DecideItemBody = z.infer<typeof decideItemBody>;
