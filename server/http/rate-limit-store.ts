import { statement, type Db } from '../db/connection';

// The rate_limits table, the request layer's own: one counter row per (bucket, subject), read and written by the
// request limiter (rate-limit.ts) and the secret guard (guard.ts), and emptied of long-over windows by housekeeping.

export interface CounterRow {
  window_start: number;
  count: number;
}

export function readCounter(db: Db, bucket: string, subject: string): CounterRow | undefined {
  return statement(db, 'SELECT window_start, count FROM rate_limits WHERE bucket = ? AND subject = ?').get(
    bucket,
    subject,
  ) as CounterRow | undefined;
}

export function writeCounter(db: Db, bucket: string, subject: string, row: CounterRow): void {
  statement(
    db,
    `INSERT INTO rate_limits (bucket, subject, window_start, count) VALUES (?, ?, ?, ?)
     ON CONFLICT (bucket, subject) DO UPDATE SET window_start = excluded.window_start, count = excluded.count`,
  ).run(bucket, subject, row.window_start, row.count);
}

export function removeCounter(db: Db, bucket: string, subject: string): void {
  statement(db, 'DELETE FROM rate_limits WHERE bucket = ? AND subject = ?').run(bucket, subject);
}

/**
 * Counts one hit in a fixed window, in one statement: a new window starts when the old one ended (`now` and
 * `window` in seconds), otherwise the count goes up. Returns the counter after the hit.
 */
export function countFixedWindow(
  db: Db,
  hit: { bucket: string; subject: string; now: number; window: number },
): CounterRow {
  return statement(
    db,
    `INSERT INTO rate_limits (bucket, subject, window_start, count) VALUES (@bucket, @subject, @now, 1)
     ON CONFLICT (bucket, subject) DO UPDATE SET
       count = CASE WHEN window_start <= @now - @window THEN 1 ELSE count + 1 END,
       window_start = CASE WHEN window_start <= @now - @window THEN @now ELSE window_start END
     RETURNING window_start, count`,
  ).get(hit) as CounterRow;
}

/** A sliding-window counter: this aligned window's count and the previous window's. */
export interface SlidingRow extends CounterRow {
  prev_count: number;
}

export function readSliding(db: Db, bucket: string, subject: string): SlidingRow | undefined {
  return statement(
    db,
    'SELECT window_start, count, prev_count FROM rate_limits WHERE bucket = ? AND subject = ?',
  ).get(bucket, subject) as SlidingRow | undefined;
}

export function writeSliding(
  db: Db,
  row: { bucket: string; subject: string; start: number; count: number; prev: number },
): void {
  statement(
    db,
    `INSERT INTO rate_limits (bucket, subject, window_start, count, prev_count)
     VALUES (@bucket, @subject, @start, @count, @prev) ON CONFLICT (bucket, subject) DO UPDATE SET
     window_start = excluded.window_start, count = excluded.count, prev_count = excluded.prev_count`,
  ).run(row);
}

/** Drops counters whose window started before `cutoff` (Unix seconds). */
export function purgeCountersBefore(db: Db, cutoff: number): void {
  statement(db, 'DELETE FROM rate_limits WHERE window_start < ?').run(cutoff);
}
