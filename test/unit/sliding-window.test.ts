import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/db/connection';
import { loadMigrations, migrate } from '../../server/db/migrate';
import { RateLimiter, type LimitRule } from '../../server/http/rate-limit';

// RateLimiter.slidingHit, the API-key window (spec 1 §2): the previous aligned hour counts in proportion to how
// much of it still overlaps the last hour. Every call passes an explicit clock.

const HOUR = 3600;
const rule: LimitRule = { bucket: 'api-key', limit: 10, windowSeconds: HOUR };
/** An aligned window start, in seconds. */
const T0 = 1_800_000_000 - (1_800_000_000 % HOUR);
const at = (seconds: number) => (T0 + seconds) * 1000;

let dir: string;
let db: Db;
let limiter: RateLimiter;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-sliding-'));
  db = openDatabase(join(dir, 'g.db'));
  migrate(db, loadMigrations());
  limiter = new RateLimiter(db);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const hits = (n: number, seconds: number, subject = 'key-1') =>
  Array.from({ length: n }, () => limiter.slidingHit(rule, subject, at(seconds)));

const stored = (subject = 'key-1') =>
  db
    .prepare('SELECT window_start, count, prev_count FROM rate_limits WHERE bucket = ? AND subject = ?')
    .get(rule.bucket, subject);

describe('RateLimiter.slidingHit', () => {
  it('admits `limit` requests in a fresh window, counting remaining down, with the window end as reset', () => {
    const states = hits(10, 100);
    expect(states.map((s) => s.allowed)).toEqual(Array(10).fill(true));
    expect(states.map((s) => s.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    for (const s of states) expect(s).toMatchObject({ limit: 10, resetAt: T0 + HOUR });
    expect(stored()).toEqual({ window_start: T0, count: 10, prev_count: 0 });
  });

  it('refuses the next request without counting it; Retry-After runs past the window until the hits slide out', () => {
    hits(10, 100);
    const refused = limiter.slidingHit(rule, 'key-1', at(100));
    expect(refused).toEqual({
      allowed: false,
      limit: 10,
      remaining: 0,
      resetAt: T0 + HOUR,
      // To the end of this window, then until 1 of the 10 hits has slid out of the next one (360 s).
      retryAfterSeconds: HOUR - 100 + 360,
    });
    // Refusals do not eat into the budget: a client that keeps knocking is not pushed further back.
    for (let i = 0; i < 5; i++) limiter.slidingHit(rule, 'key-1', at(200 + i));
    expect(stored()).toEqual({ window_start: T0, count: 10, prev_count: 0 });
  });

  it('weighs the previous window by its remaining overlap', () => {
    hits(10, 3000);
    // Half-way through the next window, the previous 10 weigh 5: five more fit.
    const half = hits(6, HOUR + 1800);
    expect(half.map((s) => s.allowed)).toEqual([true, true, true, true, true, false]);
    expect(half.map((s) => s.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    expect(half[0]!.resetAt).toBe(T0 + 2 * HOUR);
    expect(stored()).toEqual({ window_start: T0 + HOUR, count: 5, prev_count: 10 });
  });

  it('floors fractional remaining budgets', () => {
    hits(10, 0);
    // At a quarter of the next window the previous 10 weigh 7.5: used 7.5 + 1 leaves 1.5, shown as 1.
    const [first, second, third] = hits(3, HOUR + 900);
    expect(first).toMatchObject({ allowed: true, remaining: 1 });
    expect(second).toMatchObject({ allowed: true, remaining: 0 });
    // 7.5 + 2 = 9.5 used; one more would make 10.5.
    expect(third).toMatchObject({ allowed: false, remaining: 0 });
  });

  it('tells a refused client when enough of the previous window has slid out, and admits it then', () => {
    hits(10, 0);
    hits(5, HOUR + 1800);
    const refused = limiter.slidingHit(rule, 'key-1', at(HOUR + 1800));
    expect(refused.allowed).toBe(false);
    // 10 * (1 - e/3600) + 5 + 1 <= 10 once e >= 2160 s into the window: 360 s after the refusal at 1800 s.
    expect(refused.retryAfterSeconds).toBe(360);
    expect(limiter.slidingHit(rule, 'key-1', at(HOUR + 1800 + 359)).allowed).toBe(false);
    expect(limiter.slidingHit(rule, 'key-1', at(HOUR + 1800 + 360)).allowed).toBe(true);
  });

  it('forgets everything older than the previous window', () => {
    hits(10, 100);
    const later = limiter.slidingHit(rule, 'key-1', at(2 * HOUR + 10));
    expect(later).toMatchObject({ allowed: true, remaining: 9, resetAt: T0 + 3 * HOUR });
    expect(stored()).toEqual({ window_start: T0 + 2 * HOUR, count: 1, prev_count: 0 });
  });

  it('keeps one window per subject and per bucket', () => {
    hits(10, 100, 'key-1');
    expect(limiter.slidingHit(rule, 'key-1', at(101)).allowed).toBe(false);
    expect(limiter.slidingHit(rule, 'key-2', at(101))).toMatchObject({ allowed: true, remaining: 9 });
    const other = { ...rule, bucket: 'other' };
    expect(limiter.slidingHit(other, 'key-1', at(101))).toMatchObject({ allowed: true, remaining: 9 });
  });

  it('applies a changed limit to the counts already made (a key whose rateLimit was raised or lowered)', () => {
    hits(5, 100);
    expect(limiter.slidingHit({ ...rule, limit: 5 }, 'key-1', at(101))).toMatchObject({
      allowed: false,
      remaining: 0,
    });
    expect(limiter.slidingHit({ ...rule, limit: 7 }, 'key-1', at(102))).toMatchObject({
      allowed: true,
      limit: 7,
      remaining: 1,
    });
  });

  it('never answers a Retry-After below one second', () => {
    // Ten hits late in the previous hour; a moment before enough of them slide out the wait rounds up to 1 s.
    hits(10, HOUR - 1);
    const refused = limiter.slidingHit(rule, 'key-1', at(HOUR + 360 - 0.2));
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBe(1);
  });

  it('tells a client whose current window is full to wait until a retry will pass', () => {
    hits(10, 100);
    const refused = limiter.slidingHit(rule, 'key-1', at(100));
    expect(refused.allowed).toBe(false);
    // Retrying exactly when told must pass, and a moment earlier must not.
    const retryAt = 100 + refused.retryAfterSeconds;
    expect(limiter.slidingHit(rule, 'key-1', at(retryAt - 5)).allowed).toBe(false);
    expect(limiter.slidingHit(rule, 'key-1', at(retryAt)).allowed).toBe(true);
  });
});
