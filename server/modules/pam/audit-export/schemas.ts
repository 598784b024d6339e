import { z } from 'zod';
import { ELEVATION_EVENT_TYPES, ELEVATION_EXPORT_LIMITS } from '../../../contract/pam';

// The query of GET /pam/elevation-audit/export and the row it exports (spec 2, Privileged access endpoints).
// `from` and `to` are validated by the service, not here, so that every window rule answers with the same code
// (EXPORT_WINDOW_INVALID) whichever of them fails.

export const EXPORT_SCHEMA_VERSION = '1';
/**
 * Events are written in the transaction that makes the change, so once this much time has passed nothing new can
 * appear with an earlier `occurred_at` (the margin covers the gap between stamping and committing).
 */
export const SETTLE_MARGIN_MS = 2000;

const uuid = (field: string) =>
  z.uuid({
    error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a UUID`),
  });

const LIMIT_MESSAGE = `limit must be an integer from 1 to ${ELEVATION_EXPORT_LIMITS.maxLimit}`;

export const exportQuery = z.object({
  from: z.string().max(64, 'from must be an ISO 8601 date-time with offset').optional(),
  to: z.string().max(64, 'to must be an ISO 8601 date-time with offset').optional(),
  orgId: uuid('orgId').optional(),
  format: z.enum(['csv', 'jsonl'], { error: 'format must be csv or jsonl' }).default('csv'),
  siteId: uuid('siteId').optional(),
  deviceId: uuid('deviceId').optional(),
  elevationRequestId: uuid('elevationRequestId').optional(),
  eventType: z
    .enum(ELEVATION_EVENT_TYPES, { error: `eventType must be one of ${ELEVATION_EVENT_TYPES.join(', ')}` })
    .optional(),
  limit: z
    .string()
    .regex(/^\d{1,7}$/, LIMIT_MESSAGE)
    .optional()
    .transform((raw, ctx) => {
      const n = raw === undefined ? ELEVATION_EXPORT_LIMITS.defaultLimit : Number(raw);
      if (n < 1 || n > ELEVATION_EXPORT_LIMITS.maxLimit) {
        ctx.addIssue({ code: 'custom', message: LIMIT_MESSAGE });
        return z.NEVER;
      }
      return n;
    }),
  cursor: z.string().optional(),
});
export type ExportQuery = z.infer<typeof exportQuery>;
export type ExportFormat = ExportQuery['format'];

/** The columns of both formats, in order. The CSV header row is exactly this list. */
export const EXPORT_COLUMNS = [
  'seq',
  'eventId',
  'eventType',
  'occurredAt',
  'orgId',
  'siteId',
  'deviceId',
  'deviceHostname',
  'elevationRequestId',
  'flowType',
  'status',
  'enforcementStatus',
  'actorType',
  'actorId',
  'actorName',
  'subjectUsername',
  'targetExecutablePath',
  'targetExecutableHash',
  'targetExecutableSigner',
  'toolName',
  'riskTier',
  'riskLevel',
  'decisionSource',
  'pamRuleId',
  'pamRuleName',
  'assuranceLevel',
  'assuranceMethod',
  'reason',
] as const;
export type ExportColumn = (typeof EXPORT_COLUMNS)[number];

/** One exported event (schema version 1). Request-level columns carry the request's current values. */
export interface ElevationAuditRow {
  seq: number;
  eventId: string;
  eventType: string;
  occurredAt: string;
  orgId: string;
  siteId: string | null;
  deviceId: string;
  deviceHostname: string | null;
  elevationRequestId: string;
  flowType: string | null;
  status: string;
  enforcementStatus: string | null;
  actorType: string;
  actorId: string | null;
  actorName: string | null;
  subjectUsername: string | null;
  targetExecutablePath: string | null;
  targetExecutableHash: string | null;
  targetExecutableSigner: string | null;
  toolName: string | null;
  riskTier: number | null;
  riskLevel: string | null;
  decisionSource: string | null;
  pamRuleId: string | null;
  pamRuleName: string | null;
  assuranceLevel: number | null;
  assuranceMethod: string | null;
  /** `details.reason` of the event, when it has one. */
  reason: string | null;
}

// Compile-time guard: the row type and the column list name the same fields.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
export const COLUMNS_MATCH_ROW: Same<keyof ElevationAuditRow, ExportColumn> = true;
