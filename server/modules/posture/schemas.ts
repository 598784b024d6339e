import { z } from 'zod';
import { paginationQuery } from '../../http/pagination';
import { uuidField } from '../api-keys';

// Query shapes of the management posture report (spec 3, Limits: stalenessDays default 7, up to 365;
// drill-down limit up to 500).

const STALENESS_MESSAGE = 'stalenessDays must be a whole number from 1 to 365';

export const postureSummaryQuery = z.object({
  orgId: uuidField('orgId').optional(),
  stalenessDays: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return 7;
      const n = Number(raw);
      if (!/^\d+$/.test(raw.trim()) || !Number.isInteger(n) || n < 1 || n > 365) {
        ctx.addIssue({ code: 'custom', message: STALENESS_MESSAGE });
        return z.NEVER;
      }
      return n;
    }),
});

const text = (field: string, max: number) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`);

export const postureDevicesQuery = z.object({
  ...paginationQuery({ defaultLimit: 100, maxLimit: 500 }),
  product: text('product', 200),
  status: text('status', 100).optional(),
  orgId: uuidField('orgId').optional(),
});

export type PostureSummaryQuery = z.infer<typeof postureSummaryQuery>;
export type PostureDevicesQuery = z.infer<typeof postureDevicesQuery>;
