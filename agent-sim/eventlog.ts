import type { AgentIdentity } from './identity';
import {
  catalogFor,
  LOG_NAMES,
  xmlLevel,
  type EventTemplate,
  type LiveLevel,
  type LogName,
} from './event-catalog';
import { SHAPES, DISPLAY, mix32, escapeXml, LEVEL_ALIASES } from './eventlog-shapes';
import type { DeviceEvent } from './protocol';
import { pickWeighted, Rng } from './random';

// One simulated machine's operating-system logs, answering the live event-log commands (DESIGN §3,
// `event_logs_list`, `event_log_info`, `event_logs_query`, `event_log_get`) with the shapes of spec 2 (live event
// log entry and descriptor). A log is generated lazily, on first use, from (seed, index, log name): record N
// always reads the same, so a fleet of thousands costs nothing until someone opens a log. New records are
// appended while the agent runs; they are what the agent reports in its event-log bursts.

export interface LiveEventLogEntry {
  recordId: number;
  timeCreated: string;
  level: LiveLevel;
  source: string;
  eventId: number;
  message: string;
  category: string;
  user: string | null;
  computer: string;
  rawXml: string;
}

export interface LiveEventLogDescriptor {
  name: string;
  displayName: string;
  recordCount: number;
  maxSize: number;
  retentionDays: number;
  lastWriteTime: string | null;
}

export interface EventQuery {
  level?: string | undefined;
  source?: string | undefined;
  eventId?: number | string | undefined;
  startTime?: string | undefined;
  endTime?: string | undefined;
  page?: number | undefined;
  limit?: number | undefined;
}

export interface EventPage {
  events: LiveEventLogEntry[];
  total: number;
  page: number;
  limit: number;
}

export const MAX_QUERY_LIMIT = 1000;

/**
 * A log holds no records, only what determines them: a record's content follows from (seed, index, log, record
 * id) and its time from its position (initial records) or from when it was written (stored as a number). So a
 * fleet of thousands keeps a few numbers per log; entries are generated when asked for, and cached only for logs
 * someone queries.
 */
interface Log {
  name: LogName;
  /** Record id of the first initial record. */
  base: number;
  initialCount: number;
  /** Spacing of the initial records, leading up to the anchor. */
  stepMs: number;
  /** Per-log salt for the initial records' timing wobble. */
  salt: number;
  /** Records rolled off the front (ids below base + dropped are gone). */
  dropped: number;
  /** Times of the records written while the agent ran, oldest first (after `droppedAppended` rolled off). */
  appended: number[];
  droppedAppended: number;
  cache: Map<number, LiveEventLogEntry> | null;
}

const weighted = new WeakMap<readonly EventTemplate[], ReadonlyArray<readonly [EventTemplate, number]>>();

/** A log's templates with their weights, built once per catalogue list: a fleet starting up picks millions. */
function weightedTemplates(
  templates: readonly EventTemplate[],
): ReadonlyArray<readonly [EventTemplate, number]> {
  let pairs = weighted.get(templates);
  if (!pairs) {
    pairs = templates.map((t) => [t, t.weight] as const);
    weighted.set(templates, pairs);
  }
  return pairs;
}

export class EventLogStore {
  private readonly logs = new Map<LogName, Log>();
  private readonly computer: string;
  private readonly appendRng: Rng;

  constructor(
    private readonly identity: AgentIdentity,
    private readonly seed: number,
    private readonly index: number,
    /** The moment the initial records lead up to. */
    private readonly anchorMs = Date.now(),
  ) {
    this.computer =
      identity.osType === 'windows'
        ? `${identity.hostname}.${identity.domain.toLowerCase()}.local`
        : identity.hostname;
    this.appendRng = Rng.of(seed, index, 'eventlog-append');
  }

  /** The four logs in a stable order, resolving a name case-insensitively. */
  resolveName(name: string): LogName | null {
    return LOG_NAMES.find((n) => n.toLowerCase() === name.trim().toLowerCase()) ?? null;
  }

  list(): LiveEventLogDescriptor[] {
    return LOG_NAMES.map((name) => this.describe(this.open(name)));
  }

  info(name: string): LiveEventLogDescriptor | null {
    const resolved = this.resolveName(name);
    return resolved ? this.describe(this.open(resolved)) : null;
  }

  /** Newest first, filtered, one page. `null` when the log does not exist. */
  query(name: string, q: EventQuery): EventPage | null {
    const resolved = this.resolveName(name);
    if (!resolved) return null;
    const log = this.open(resolved);
    log.cache ??= new Map();
    const levels = q.level
      ? new Set(
          q.level
            .split(',')
            .map((l) => LEVEL_ALIASES[l.trim().toLowerCase()])
            .filter((l): l is LiveLevel => l !== undefined),
        )
      : null;
    const source = q.source?.trim().toLowerCase() || null;
    const eventId = q.eventId === undefined || q.eventId === '' ? null : Number(q.eventId);
    const start = q.startTime ? Date.parse(q.startTime) : null;
    const end = q.endTime ? Date.parse(q.endTime) : null;
    const page = Math.max(1, Math.floor(q.page ?? 1));
    const limit = Math.min(MAX_QUERY_LIMIT, Math.max(1, Math.floor(q.limit ?? 50)));
    const matches: LiveEventLogEntry[] = [];
    for (let id = this.lastId(log); id >= this.firstId(log); id--) {
      const r = this.entry(log, id);
      if (levels && !levels.has(r.level)) continue;
      if (source && !r.source.toLowerCase().includes(source)) continue;
      if (eventId !== null && r.eventId !== eventId) continue;
      const at = Date.parse(r.timeCreated);
      if (start !== null && !Number.isNaN(start) && at < start) continue;
      if (end !== null && !Number.isNaN(end) && at > end) continue;
      matches.push(r);
    }
    return { events: matches.slice((page - 1) * limit, page * limit), total: matches.length, page, limit };
  }

  get(name: string, recordId: number): LiveEventLogEntry | null {
    const resolved = this.resolveName(name);
    if (!resolved || !Number.isInteger(recordId)) return null;
    const log = this.open(resolved);
    if (recordId < this.firstId(log) || recordId > this.lastId(log)) return null;
    return this.entry(log, recordId);
  }

  /**
   * New activity on the machine: `count` records spread over the logs by how busy each is, stamped `now`.
   * Returns them oldest first. A full log rolls its oldest records off.
   */
  append(
    count: number,
    now = Date.now(),
  ): Array<{ log: LogName; entry: LiveEventLogEntry; template: EventTemplate }> {
    const out: Array<{ log: LogName; entry: LiveEventLogEntry; template: EventTemplate }> = [];
    for (let i = 0; i < count; i++) {
      const name = this.appendRng.weighted(LOG_NAMES.map((n) => [n, SHAPES[n].activity] as const));
      const log = this.open(name);
      log.appended.push(now - (count - 1 - i) * 137);
      while (this.lastId(log) - this.firstId(log) + 1 > SHAPES[name].capacity) {
        log.cache?.delete(this.firstId(log));
        if (log.dropped >= log.initialCount + log.droppedAppended) {
          log.appended.shift();
          log.droppedAppended++;
        }
        log.dropped++;
      }
      const id = this.lastId(log);
      out.push({ log: name, entry: this.entry(log, id), template: this.templateOf(log, id) });
    }
    return out;
  }

  /** The most recent noteworthy records (warning and worse, plus security audits), for a first report. */
  recentNotable(limit: number): Array<{ log: LogName; entry: LiveEventLogEntry; template: EventTemplate }> {
    const found: Array<{ log: Log; id: number; atMs: number; template: EventTemplate }> = [];
    for (const name of LOG_NAMES) {
      const log = this.open(name);
      let taken = 0;
      // Looks back a bounded distance: a quiet log simply contributes nothing.
      const stop = Math.max(this.firstId(log), this.lastId(log) - limit * 8);
      for (let id = this.lastId(log); id >= stop && taken < limit; id--) {
        const template = this.templateOf(log, id);
        if (template.level === 'information' && name !== 'Security') continue;
        // Its time, to the millisecond as the entry will carry it; the entry itself is built only if kept.
        found.push({ log, id, atMs: Math.floor(this.timeOf(log, id)), template });
        taken++;
      }
    }
    return found
      .sort((a, b) => b.atMs - a.atMs)
      .slice(0, limit)
      .map(({ log, id, template }) => ({ log: log.name, entry: this.entry(log, id), template }));
  }

  /** A live record as a stored device event (spec 2): `info` for information and verbose, the OS id as text. */
  static toDeviceEvent(entry: LiveEventLogEntry, template: EventTemplate, log: LogName): DeviceEvent {
    const level = entry.level === 'information' || entry.level === 'verbose' ? 'info' : entry.level;
    return {
      timestamp: entry.timeCreated,
      level,
      category: template.category,
      source: entry.source,
      eventId: String(entry.eventId),
      message: entry.message,
      details: {
        log,
        recordId: entry.recordId,
        task: entry.category,
        user: entry.user,
        computer: entry.computer,
      },
    };
  }

  private firstId(log: Log): number {
    return log.base + log.dropped;
  }

  private lastId(log: Log): number {
    return log.base + log.initialCount + log.droppedAppended + log.appended.length - 1;
  }

  private timeOf(log: Log, id: number): number {
    const k = id - log.base;
    if (k < log.initialCount) {
      // Evenly spread with a little seeded wobble, so times increase with the record id as in a real log.
      const wobble = (mix32(log.salt + k) / 4294967296) * 0.9;
      return Math.floor(this.anchorMs - (log.initialCount - k - wobble) * log.stepMs);
    }
    return log.appended[k - log.initialCount - log.droppedAppended]!;
  }

  private entry(log: Log, id: number): LiveEventLogEntry {
    const cached = log.cache?.get(id);
    if (cached) return cached;
    const entry = this.generate(log, id, this.timeOf(log, id));
    log.cache?.set(id, entry);
    return entry;
  }

  private describe(log: Log): LiveEventLogDescriptor {
    return {
      name: log.name,
      displayName: DISPLAY[this.identity.osType][log.name],
      recordCount: this.lastId(log) - this.firstId(log) + 1,
      maxSize: SHAPES[log.name].maxSize,
      retentionDays: SHAPES[log.name].retentionDays,
      lastWriteTime: new Date(this.timeOf(log, this.lastId(log))).toISOString(),
    };
  }

  private open(name: LogName): Log {
    let log = this.logs.get(name);
    if (log) return log;
    const rng = Rng.of(this.seed, this.index, 'eventlog', name);
    const shape = SHAPES[name];
    const initialCount = rng.int(shape.initial[0], shape.initial[1]);
    log = {
      name,
      base: rng.int(1_000, 90_000),
      initialCount,
      stepMs: (shape.spanDays * 86_400_000) / initialCount,
      salt: rng.int(0, 2 ** 31),
      dropped: 0,
      appended: [],
      droppedAppended: 0,
      cache: null,
    };
    this.logs.set(name, log);
    return log;
  }

  /**
   * A record's template, from an integer hash of (the log's seeded salt, the record id): a fleet starting up
   * looks at hundreds of records per agent for its first report (recentNotable), and a keyed SHA-256 generator
   * for each was a sixth of the simulator's time. The record's content still comes from its own keyed Rng.
   */
  private templateOf(log: Log, recordId: number): EventTemplate {
    const roll = mix32(log.salt ^ mix32(recordId)) / 4294967296;
    return pickWeighted(weightedTemplates(catalogFor(this.identity.osType)[log.name]), roll);
  }

  private generate(log: Log, recordId: number, atMs: number): LiveEventLogEntry {
    const { name } = log;
    const rng = Rng.of(this.seed, this.index, 'record', name, recordId);
    const template = this.templateOf(log, recordId);
    const rendered = template.render(rng, this.identity);
    const timeCreated = new Date(Math.floor(atMs)).toISOString();
    const processId = rng.int(4, 9000);
    const threadId = rng.int(4, 20000);
    const keywords = template.auditFailure
      ? '0x8010000000000000'
      : template.source === 'Microsoft-Windows-Security-Auditing'
        ? '0x8020000000000000'
        : '0x80000000000000';
    const data = Object.entries(rendered.data)
      .map(([k, v]) => `<Data Name="${escapeXml(k)}">${escapeXml(v)}</Data>`)
      .join('');
    const security = rendered.user ? `<Security UserID="${escapeXml(rendered.user)}"/>` : '<Security/>';
    const rawXml =
      `<Event xmlns="http://schemas.microsoft.com/win/2004/08/events/event"><System>` +
      `<Provider Name="${escapeXml(template.source)}"/><EventID>${template.eventId}</EventID><Version>0</Version>` +
      `<Level>${xmlLevel(template)}</Level><Task>0</Task><Opcode>0</Opcode><Keywords>${keywords}</Keywords>` +
      `<TimeCreated SystemTime="${timeCreated}"/><EventRecordID>${recordId}</EventRecordID><Correlation/>` +
      `<Execution ProcessID="${processId}" ThreadID="${threadId}"/><Channel>${name}</Channel>` +
      `<Computer>${escapeXml(this.computer)}</Computer>${security}</System>` +
      `<EventData>${data}<Data Name="Message">${escapeXml(rendered.message)}</Data></EventData></Event>`;
    return {
      recordId,
      timeCreated,
      level: template.level,
      source: template.source,
      eventId: template.eventId,
      message: rendered.message,
      category: template.task,
      user: rendered.user,
      computer: this.computer,
      rawXml,
    };
  }
}
