import type { FleetCounters } from './agent-options';
import { MAX_LOGS_PER_REQUEST, type DeviceEvent, type DiagnosticLog } from './protocol';
import type { HttpAnswer } from './transport';

// What an agent has to tell the server and has not yet: diagnostic lines and OS events wait in bounded buffers
// and go out in batches. A transient failure keeps them for the next flush; a batch the server will never take
// is dropped so it cannot block every later one.

export interface OutboxSender {
  /** The signal of the agent's current run; null once stopped (nothing is sent then). */
  runSignal(): AbortSignal | null;
  enrolled(): boolean;
  request(method: string, path: string, body: unknown, signal: AbortSignal): Promise<HttpAnswer>;
  /** A batch the server refused for good, or a request that failed in transit. */
  onError(): void;
}

export interface OutboxOptions {
  method: 'POST' | 'PUT';
  /** The agent endpoint, e.g. `/logs` for /agents/:id/logs. */
  path: string;
  /** The body's array property, e.g. `logs`. */
  field: string;
  perRequest: number;
  /** A long outage must not grow the buffer without bound: beyond this, the oldest entries go first. */
  maxBuffered: number;
  onSent(count: number): void;
}

export class Outbox<T> {
  private buffered: T[] = [];
  private flushing = false;

  constructor(
    private readonly sender: OutboxSender,
    private readonly opts: OutboxOptions,
  ) {}

  push(...items: T[]): void {
    this.buffered.push(...items);
    if (this.buffered.length > this.opts.maxBuffered)
      this.buffered.splice(0, this.buffered.length - this.opts.maxBuffered);
  }

  async flush(): Promise<void> {
    if (this.flushing || !this.sender.enrolled()) return;
    this.flushing = true;
    try {
      let signal: AbortSignal | null;
      while (this.buffered.length > 0 && (signal = this.sender.runSignal())) {
        const batch = this.buffered.slice(0, this.opts.perRequest);
        const answer = await this.sender.request(
          this.opts.method,
          this.opts.path,
          { [this.opts.field]: batch },
          signal,
        );
        if (answer.status === 200 || answer.status === 201) {
          this.buffered.splice(0, batch.length);
          this.opts.onSent(batch.length);
        } else if (answer.status === 400 || answer.status === 413) {
          this.buffered.splice(0, batch.length);
          this.sender.onError();
        } else break;
      }
    } catch {
      if (this.sender.runSignal()) this.sender.onError();
    } finally {
      this.flushing = false;
    }
  }
}

const MAX_BUFFERED = 5_000;
const EVENTS_PER_REQUEST = 500;

/** Diagnostic lines for `POST /agents/:id/logs`, at most 500 per request (spec 2). */
export const diagnosticsOutbox = (sender: OutboxSender, counters: FleetCounters) =>
  new Outbox<DiagnosticLog>(sender, {
    method: 'POST',
    path: '/logs',
    field: 'logs',
    perRequest: MAX_LOGS_PER_REQUEST,
    maxBuffered: MAX_BUFFERED,
    onSent: (n) => (counters.logsSent += n),
  });

/** OS events for `PUT /agents/:id/eventlogs`. */
export const eventsOutbox = (sender: OutboxSender, counters: FleetCounters) =>
  new Outbox<DeviceEvent>(sender, {
    method: 'PUT',
    path: '/eventlogs',
    field: 'events',
    perRequest: EVENTS_PER_REQUEST,
    maxBuffered: MAX_BUFFERED,
    onSent: (n) => (counters.eventsSent += n),
  });
