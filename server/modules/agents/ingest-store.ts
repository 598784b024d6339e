import { timeOrderedId } from '../../db/ids';
import { statement, type Db } from '../../db/connection';

// What agents report in bulk: diagnostic logs, device event logs, the software inventory. Free functions of the
// database over the statement cache; the caller wraps each submission in one transaction.

/** Rows per multi-row INSERT of agent logs (spec 2: inserts in groups of 100). */
export const LOG_CHUNK = 100;

/** The device a submission comes from. */
export interface LogOwner {
  deviceId: string;
  orgId: string;
}

export interface DiagnosticLogEntry {
  timestamp: string;
  level: string;
  component: string;
  message: string;
  /** JSON object. */
  fields: string;
  agentVersion: string;
}

export interface DeviceEventEntry {
  timestamp: string;
  level: string;
  category: string;
  source: string;
  eventId: string | null;
  message: string;
  /** JSON object. */
  details: string;
}

export interface SoftwareEntry {
  name: string;
  version: string | null;
  publisher: string | null;
}

/**
 * The text of `INSERT ... VALUES (...), (...)` for 1..LOG_CHUNK rows, built once per size: the texts are the same
 * for every database, and the statement cache finds a reused string faster than a freshly built one.
 */
function multiRowInsert(head: string, columns: number): (rows: number) => string {
  const tuple = `(${Array.from({ length: columns }, () => '?').join(', ')})`;
  const texts: string[] = [];
  return (rows) => (texts[rows] ??= `${head} VALUES ${Array.from({ length: rows }, () => tuple).join(', ')}`);
}

const diagnosticInsert = multiRowInsert(
  `INSERT INTO diagnostic_logs (id, device_id, org_id, timestamp, level, component, message, fields,
    agent_version, created_at)`,
  10,
);

// Duplicates per (device, source, event id) are ignored by the table's unique index (spec 2).
const eventInsert = multiRowInsert(
  `INSERT OR IGNORE INTO device_event_logs (id, device_id, org_id, timestamp, level, category, source,
    event_id, message, details, created_at)`,
  11,
);

/** Calls `write(start, end)` for consecutive slices of at most LOG_CHUNK entries. */
function inChunks(count: number, write: (start: number, end: number) => void): void {
  for (let start = 0; start < count; start += LOG_CHUNK) write(start, Math.min(count, start + LOG_CHUNK));
}

/** Stores diagnostic log lines, LOG_CHUNK rows per statement. */
export function insertDiagnosticLogs(
  db: Db,
  owner: LogOwner,
  entries: DiagnosticLogEntry[],
  at: string,
): void {
  inChunks(entries.length, (start, end) => {
    const params: unknown[] = [];
    for (let i = start; i < end; i++) {
      const log = entries[i]!;
      params.push(
        timeOrderedId(),
        owner.deviceId,
        owner.orgId,
        log.timestamp,
        log.level,
        log.component,
        log.message,
        log.fields,
        log.agentVersion,
        at,
      );
    }
    statement(db, diagnosticInsert(end - start)).run(...params);
  });
}

/** Stores device events, LOG_CHUNK rows per statement; returns how many were new (not duplicates). */
export function insertDeviceEvents(db: Db, owner: LogOwner, entries: DeviceEventEntry[], at: string): number {
  let inserted = 0;
  inChunks(entries.length, (start, end) => {
    const params: unknown[] = [];
    for (let i = start; i < end; i++) {
      const event = entries[i]!;
      params.push(
        timeOrderedId(),
        owner.deviceId,
        owner.orgId,
        event.timestamp,
        event.level,
        event.category,
        event.source,
        event.eventId,
        event.message,
        event.details,
        at,
      );
    }
    inserted += statement(db, eventInsert(end - start)).run(...params).changes;
  });
  return inserted;
}

/**
 * The device's inventory becomes exactly `software`; a name reported twice keeps its last entry. Only what changed is
 * written: agents report their whole inventory again and again, mostly unchanged, and every row inserted or deleted
 * also moves the filter links kept by triggers (migration 0018).
 */
export function replaceDeviceSoftware(db: Db, deviceId: string, software: SoftwareEntry[]): void {
  const wanted = new Map<string, SoftwareEntry>();
  for (const item of software) wanted.set(item.name, item);
  const current = statement(
    db,
    'SELECT name, version, publisher FROM device_software WHERE device_id = ?',
  ).all(deviceId) as SoftwareEntry[];
  for (const row of current) {
    const next = wanted.get(row.name);
    wanted.delete(row.name);
    if (!next) {
      statement(db, 'DELETE FROM device_software WHERE device_id = ? AND name = ?').run(deviceId, row.name);
    } else if (next.version !== row.version || next.publisher !== row.publisher) {
      statement(
        db,
        'UPDATE device_software SET version = ?, publisher = ? WHERE device_id = ? AND name = ?',
      ).run(next.version, next.publisher, deviceId, row.name);
    }
  }
  const insert = statement(
    db,
    'INSERT INTO device_software (device_id, name, version, publisher) VALUES (?, ?, ?, ?)',
  );
  for (const item of wanted.values()) insert.run(deviceId, item.name, item.version, item.publisher);
}
