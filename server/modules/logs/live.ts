import { z } from 'zod';
import type { AppContext } from '../../context';
import type { LiveEventLogDescriptor, LiveEventLogEntry, LiveEventLogPage } from '../../contract';
import type { AuthContext } from '../../http/auth-context';
import { HttpError, notFound } from '../../http/errors';
import type { PageRequest } from '../../http/pagination';
import { requireDevice } from '../devices';
import { LIVE_EVENT_LEVELS } from '../../contract/devices';
import type { LiveEventsQuery } from './schemas';

// Live event-log queries (spec 2; DESIGN §3): the request goes to the agent over its socket and the answer comes
// back within 30 seconds; nothing is stored. The hub rejects with 409 DEVICE_OFFLINE, 504 LIVE_QUERY_TIMEOUT or
// 502 AGENT_ERROR. The agent's answer is untrusted input: it is validated here, and anything malformed is a
// 502 AGENT_ERROR rather than passed on to the console.
//
// What an agent answers (the `result` of its command_result), per command:
//   event_logs_list  -> LiveEventLogDescriptor[]              (or {logs: [...]} / {data: [...]})
//   event_log_info   -> LiveEventLogDescriptor, or null when there is no such log   (or {log} / {data})
//   event_logs_query -> {events: LiveEventLogEntry[], total}  (or {data, pagination: {total}}), or null when
//                       there is no such log
//   event_log_get    -> LiveEventLogEntry, or null when there is no such record      (or {event} / {data})
// The wrapped forms are accepted so an agent that mirrors the HTTP shapes works too.
//
// These are reads: not audited per query or page, as no other read of the API is.

const descriptor = z.object({
  name: z.string().min(1).max(255),
  displayName: z.string().max(255),
  recordCount: z.number().int().nonnegative(),
  maxSize: z.number().nonnegative(),
  retentionDays: z.number().int(),
  lastWriteTime: z.string().max(64).nullable(),
});

const entry = z.object({
  recordId: z.number().int().nonnegative(),
  timeCreated: z.string().max(64),
  level: z.enum(LIVE_EVENT_LEVELS),
  source: z.string().max(255),
  eventId: z.number().int().nonnegative(),
  message: z.string(),
  category: z.string().max(255),
  user: z.string().max(255).nullable(),
  computer: z.string().max(255),
  rawXml: z.string(),
});

const MAX_ENTRIES = 500;
const MAX_LOGS = 1000;

const descriptorList = z.array(descriptor).max(MAX_LOGS);
const entryPage = z.union([
  z.object({ events: z.array(entry).max(MAX_ENTRIES), total: z.number().int().nonnegative() }),
  z.object({
    data: z.array(entry).max(MAX_ENTRIES),
    pagination: z.object({ total: z.number().int().nonnegative() }),
  }),
]);

/** Unwraps `{<key>: x}` or `{data: x}` around an answer; anything else is taken as the answer itself. */
function unwrap(value: unknown, key: string): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    if (keys.length === 1 && (keys[0] === key || keys[0] === 'data')) return record[keys[0]];
  }
  return value;
}

function malformed(ctx: AppContext, deviceId: string, commandType: string, error: z.ZodError): HttpError {
  const issue = error.issues[0];
  ctx.log.warn({ deviceId, commandType, issue }, 'malformed live query answer from agent');
  const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
  return new HttpError(502, `The agent sent a malformed answer${where}`, 'AGENT_ERROR');
}

async function ask<T>(
  ctx: AppContext,
  auth: AuthContext,
  deviceId: string,
  commandType: string,
  payload: Record<string, unknown>,
  parse: (answer: unknown) => z.ZodSafeParseResult<T>,
): Promise<T> {
  // Scope first: a device outside the caller's scope is 404 whether or not it is online.
  const device = requireDevice(ctx, auth, deviceId);
  const answer = await ctx.agentHub.request(device.id, commandType, payload);
  const parsed = parse(answer);
  if (!parsed.success) throw malformed(ctx, device.id, commandType, parsed.error);
  return parsed.data;
}

export async function listLiveLogs(
  ctx: AppContext,
  auth: AuthContext,
  deviceId: string,
): Promise<{ data: LiveEventLogDescriptor[] }> {
  const logs = await ask(ctx, auth, deviceId, 'event_logs_list', {}, (a) =>
    descriptorList.safeParse(unwrap(a, 'logs')),
  );
  return { data: logs };
}

export async function liveLogInfo(
  ctx: AppContext,
  auth: AuthContext,
  deviceId: string,
  logName: string,
): Promise<{ data: LiveEventLogDescriptor }> {
  const log = await ask(ctx, auth, deviceId, 'event_log_info', { logName }, (a) =>
    descriptor.nullable().safeParse(unwrap(a, 'log')),
  );
  if (!log) throw notFound('Event log not found');
  return { data: log };
}

export async function queryLiveEvents(
  ctx: AppContext,
  auth: AuthContext,
  deviceId: string,
  logName: string,
  query: LiveEventsQuery & PageRequest,
): Promise<LiveEventLogPage> {
  const payload: Record<string, unknown> = { logName, page: query.page, limit: query.limit };
  for (const key of ['level', 'source', 'eventId', 'startTime', 'endTime'] as const) {
    if (query[key] !== undefined) payload[key] = query[key];
  }
  const page = await ask(ctx, auth, deviceId, 'event_logs_query', payload, (a) =>
    entryPage.nullable().safeParse(a),
  );
  if (!page) throw notFound('Event log not found');
  const data = 'events' in page ? page.events : page.data;
  const total = 'events' in page ? page.total : page.pagination.total;
  // An agent that ignores `limit` does not get to flood the console.
  return { data: data.slice(0, query.limit), pagination: { page: query.page, limit: query.limit, total } };
}

export async function liveEvent(
  ctx: AppContext,
  auth: AuthContext,
  deviceId: string,
  logName: string,
  recordId: number,
): Promise<{ data: LiveEventLogEntry }> {
  const event = await ask(ctx, auth, deviceId, 'event_log_get', { logName, recordId }, (a) =>
    entry.nullable().safeParse(unwrap(a, 'event')),
  );
  if (!event) throw notFound('Event not found');
  return { data: event };
}
