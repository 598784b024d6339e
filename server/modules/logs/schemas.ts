import { z } from 'zod';
import {
  DIAGNOSTIC_LEVELS,
  EVENT_LOG_CATEGORIES,
  EVENT_LOG_LEVELS,
  LIVE_EVENT_LEVELS,
} from '../../contract/devices';
import { paginationQuery } from '../../http/pagination';
import { commaList } from '../devices';

// Query shapes of the device log endpoints (spec 2, Agent and device logs): the stored diagnostic and event logs,
// and the live event-log queries answered by the agent itself.

/** An ISO 8601 date-time (offset required), normalised to UTC milliseconds so it compares with stored times. */
const isoTime = (field: string) =>
  z.iso
    .datetime({ offset: true, error: `${field} must be an ISO 8601 date-time, e.g. 2026-01-31T09:00:00Z` })
    .transform((value) => new Date(value).toISOString());

/** A window whose ends are both given must not be inverted (both are normalised ISO strings). */
const ordered = (from: string | undefined, to: string | undefined) =>
  from === undefined || to === undefined || from <= to;

export const diagnosticLogsQuery = z
  .object({
    ...paginationQuery({ defaultLimit: 100, maxLimit: 1000 }),
    level: commaList('level', DIAGNOSTIC_LEVELS).optional(),
    component: z.string().max(100, 'component must be at most 100 characters').optional(),
    since: isoTime('since').optional(),
    until: isoTime('until').optional(),
    search: z.string().max(500, 'search must be at most 500 characters').optional(),
  })
  .refine((q) => ordered(q.since, q.until), { message: 'since must not be after until', path: ['since'] });
export type DiagnosticLogsQuery = z.infer<typeof diagnosticLogsQuery>;

export const eventLogsQuery = z
  .object({
    ...paginationQuery({ defaultLimit: 100, maxLimit: 500 }),
    category: commaList('category', EVENT_LOG_CATEGORIES).optional(),
    level: commaList('level', EVENT_LOG_LEVELS).optional(),
    source: z.string().max(255, 'source must be at most 255 characters').optional(),
    startDate: isoTime('startDate').optional(),
    endDate: isoTime('endDate').optional(),
  })
  .refine((q) => ordered(q.startDate, q.endDate), {
    message: 'startDate must not be after endDate',
    path: ['startDate'],
  });
export type EventLogsQuery = z.infer<typeof eventLogsQuery>;

// ---- live queries ---------------------------------------------------------------------------------------------

const logName = z.string().min(1, 'name must be 1-255 characters').max(255, 'name must be 1-255 characters');

export const deviceParams = z.object({ deviceId: z.string() });
export const logParams = z.object({ deviceId: z.string(), name: logName });
export const recordParams = z.object({
  deviceId: z.string(),
  name: logName,
  recordId: z
    .string()
    .regex(/^\d{1,15}$/, 'recordId must be a non-negative integer')
    .transform((v) => Number.parseInt(v, 10)),
});

export const liveEventsQuery = z
  .object({
    ...paginationQuery({ defaultLimit: 50, maxLimit: 500 }),
    level: z
      .enum(LIVE_EVENT_LEVELS, { error: `level must be one of ${LIVE_EVENT_LEVELS.join(', ')}` })
      .optional(),
    source: z.string().min(1).max(255, 'source must be at most 255 characters').optional(),
    startTime: isoTime('startTime').optional(),
    endTime: isoTime('endTime').optional(),
    eventId: z
      .string()
      .regex(/^\d{1,10}$/, 'eventId must be a non-negative integer')
      .transform((v) => Number.parseInt(v, 10))
      .optional(),
  })
  .refine((q) => ordered(q.startTime, q.endTime), {
    message: 'startTime must not be after endTime',
    path: ['startTime'],
  });
export type LiveEventsQuery = z.infer<typeof liveEventsQuery>;
