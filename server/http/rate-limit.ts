import type { Db } from '../db/connection';
import { HttpError } from './errors';

// Fixed-window counters in SQLite: shared by every request of the process and kept across restarts, so
// restarting the server does not hand an attacker a fresh budget.

export interface LimitRule {
  /** Counter namespace, e.g. `login:ip`. */
  bucket: string;
  limit: number;
  windowSeconds: number;
}

export interface LimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the window resets. */
  resetAt: number;
  retryAfterSeconds: number;
}

export class RateLimiter {
  private readonly upsert;

  constructor(db: Db) {
    // One statement: start a new window when the old one ended, otherwise count up.
    this.upsert =
      db.prepare(`INSERT INTO rate_limits (bucket, subject, window_start, count) VALUES (@bucket, @subject, @now, 1)
      ON CONFLICT (bucket, subject) DO UPDATE SET
        count = CASE WHEN window_start <= @now - @window THEN 1 ELSE count + 1 END,
        window_start = CASE WHEN window_start <= @now - @window THEN @now ELSE window_start END
      RETURNING window_start, count`);
  }

  hit(rule: LimitRule, subject: string, nowMs = Date.now()): LimitState {
    const now = Math.floor(nowMs / 1000);
    const row = this.upsert.get({
      bucket: rule.bucket,
      subject: subject.toLowerCase(),
      now,
      window: rule.windowSeconds,
    }) as {
      window_start: number;
      count: number;
    };
    const resetAt = row.window_start + rule.windowSeconds;
    return {
      allowed: row.count <= rule.limit,
      limit: rule.limit,
      remaining: Math.max(0, rule.limit - row.count),
      resetAt,
      retryAfterSeconds: Math.max(1, resetAt - now),
    };
  }

  /** Counts a hit for every (rule, subject) pair and throws 429 when any is over its limit. */
  enforce(checks: Array<[LimitRule, string | null | undefined]>, message: string): void {
    let worst: LimitState | null = null;
    for (const [rule, subject] of checks) {
      if (!subject) continue;
      const state = this.hit(rule, subject);
      if (!state.allowed && (!worst || state.retryAfterSeconds > worst.retryAfterSeconds)) worst = state;
    }
    if (worst) {
      throw new HttpError(
        429,
        message,
        'RATE_LIMITED',
        { retryAfterSeconds: worst.retryAfterSeconds },
        {
          'Retry-After': String(worst.retryAfterSeconds),
        },
      );
    }
  }
}

/** Login and MFA limits (spec 1 leaves the numbers open; these stop guessing without bothering a technician). */
export const AUTH_LIMITS = {
  loginPerIp: { bucket: 'login:ip', limit: 30, windowSeconds: 15 * 60 },
  loginPerEmail: { bucket: 'login:email', limit: 10, windowSeconds: 15 * 60 },
  mfaPerIp: { bucket: 'mfa:ip', limit: 30, windowSeconds: 15 * 60 },
  mfaPerUser: { bucket: 'mfa:user', limit: 10, windowSeconds: 15 * 60 },
  setupPerIp: { bucket: 'setup:ip', limit: 10, windowSeconds: 15 * 60 },
} satisfies Record<string, LimitRule>;
