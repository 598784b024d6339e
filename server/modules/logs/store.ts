import type { DeviceEventLogEntry, DiagnosticLogEntry } from '../../contract';
import type { Db } from '../../db/connection';
import { pagedQuery } from '../../db/paged';
import type { PageRequest } from '../../http/pagination';
import { likeContains } from '../../db/like';
import type { Clause } from '../devices';

// SQL for the stored device logs (spec 2). Both tables are read one device at a time through their
// (device_id, timestamp) index, newest first; rowid breaks ties between entries of the same instant.

interface DiagnosticRow {
  id: string;
  device_id: string;
  org_id: string;
  timestamp: string;
  level: DiagnosticLogEntry['level'];
  component: string;
  message: string;
  fields: string;
  agent_version: string | null;
  created_at: string;
}

interface EventRow {
  id: string;
  device_id: string;
  org_id: string;
  timestamp: string;
  level: DeviceEventLogEntry['level'];
  category: DeviceEventLogEntry['category'];
  source: string;
  event_id: string | null;
  message: string;
  details: string;
  created_at: string;
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

const toDiagnostic = (r: DiagnosticRow): DiagnosticLogEntry => ({
  id: r.id,
  deviceId: r.device_id,
  orgId: r.org_id,
  timestamp: r.timestamp,
  level: r.level,
  component: r.component,
  message: r.message,
  fields: parseObject(r.fields),
  agentVersion: r.agent_version,
  createdAt: r.created_at,
});

const toEvent = (r: EventRow): DeviceEventLogEntry => ({
  id: r.id,
  deviceId: r.device_id,
  orgId: r.org_id,
  timestamp: r.timestamp,
  level: r.level,
  category: r.category,
  source: r.source,
  eventId: r.event_id,
  message: r.message,
  details: parseObject(r.details),
  createdAt: r.created_at,
});

export interface DiagnosticFilter {
  level?: string[] | undefined;
  component?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
  search?: string | undefined;
}

export interface EventFilter {
  category?: string[] | undefined;
  level?: string[] | undefined;
  source?: string | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
}

const inList = (column: string, values: string[]): Clause => ({
  sql: `${column} IN (SELECT value FROM json_each(?))`,
  params: [JSON.stringify(values)],
});

function page<T>(
  db: Db,
  table: string,
  deviceId: string,
  clauses: Clause[],
  request: PageRequest,
): { rows: T[]; total: number } {
  const all: Clause[] = [{ sql: 'device_id = ?', params: [deviceId] }, ...clauses];
  return pagedQuery<T>(db, {
    select: '*',
    from: table,
    where: all.map((c) => c.sql),
    params: all.flatMap((c) => c.params),
    orderBy: 'timestamp DESC, rowid DESC',
    page: request,
  });
}

export function diagnosticLogs(
  db: Db,
  deviceId: string,
  filter: DiagnosticFilter,
  request: PageRequest,
): { data: DiagnosticLogEntry[]; total: number } {
  const clauses: Clause[] = [];
  if (filter.level) clauses.push(inList('level', filter.level));
  if (filter.component !== undefined) clauses.push({ sql: 'component = ?', params: [filter.component] });
  if (filter.since) clauses.push({ sql: 'timestamp >= ?', params: [filter.since] });
  if (filter.until) clauses.push({ sql: 'timestamp <= ?', params: [filter.until] });
  if (filter.search)
    clauses.push({ sql: "message LIKE ? ESCAPE '\\'", params: [likeContains(filter.search)] });
  const { rows, total } = page<DiagnosticRow>(db, 'diagnostic_logs', deviceId, clauses, request);
  return { data: rows.map(toDiagnostic), total };
}

export function eventLogs(
  db: Db,
  deviceId: string,
  filter: EventFilter,
  request: PageRequest,
): { data: DeviceEventLogEntry[]; total: number } {
  const clauses: Clause[] = [];
  if (filter.category) clauses.push(inList('category', filter.category));
  if (filter.level) clauses.push(inList('level', filter.level));
  if (filter.source !== undefined) clauses.push({ sql: 'source = ?', params: [filter.source] });
  if (filter.startDate) clauses.push({ sql: 'timestamp >= ?', params: [filter.startDate] });
  if (filter.endDate) clauses.push({ sql: 'timestamp <= ?', params: [filter.endDate] });
  const { rows, total } = page<EventRow>(db, 'device_event_logs', deviceId, clauses, request);
  return { data: rows.map(toEvent), total };
}
