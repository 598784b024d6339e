import { transaction } from '../db/after-commit';
import type { Db } from '../db/connection';
import { HttpError } from './errors';
import { countFixedWindow, readSliding, writeSliding } from './rate-limit-store';

// Fixed-window counters in SQLite: shared by every request of the process and kept across restarts, so
// restarting the server does not hand an attacker a fresh budget. These limit how often something may be asked
// for (registrations, reset emails, SMS codes, an API key's hourly budget). Guesses at secrets are not limited
// here but by the secret guard (guard.ts), which counts failures only.

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
  constructor(private readonly db: Db) {}

  /**
   * Sliding window (API keys, spec 1): the previous aligned window counts in proportion to how much of it still
   * overlaps the last `windowSeconds`. A refused request is not counted, so a client that backs off recovers.
   */
  slidingHit(rule: LimitRule, subject: string, nowMs = Date.now()): LimitState {
    const now = nowMs / 1000;
    const window = rule.windowSeconds;
    const start = Math.floor(now / window) * window;
    return transaction(this.db, (): LimitState => {
      const row = readSliding(this.db, rule.bucket, subject);
      const count = row?.window_start === start ? row.count : 0;
      const prev =
        row?.window_start === start ? row.prev_count : row?.window_start === start - window ? row.count : 0;
      const elapsed = now - start;
      const weight = 1 - elapsed / window;
      const used = prev * weight + count;
      const resetAt = start + window;
      const allowed = used + 1 <= rule.limit;
      if (allowed) {
        writeSliding(this.db, { bucket: rule.bucket, subject, start, count: count + 1, prev });
      }
      const remaining = Math.max(0, Math.floor(rule.limit - used - (allowed ? 1 : 0)));
      // When refused: the time until enough of the previous window has slid out, or until this one ends.
      let retry = resetAt - now;
      if (!allowed && prev > 0 && count + 1 <= rule.limit) {
        retry = window * (1 - (rule.limit - count - 1) / prev) - elapsed;
      } else if (!allowed && count > 0) {
        // This window alone is full: after it ends it becomes the previous window and must slide out far enough.
        retry = resetAt - now + window * Math.max(0, 1 - (rule.limit - 1) / count);
      }
      return {
        allowed,
        limit: rule.limit,
        remaining,
        resetAt: Math.ceil(resetAt),
        retryAfterSeconds: Math.max(1, Math.ceil(retry)),
      };
    });
  }

  /**
   * Admits a request through a sliding window or throws 429. Only admitted requests are counted, so a storm of
   * refused retries never extends the window nor eats the next one's budget. The Retry-After it sends is the time
   * until there is room again plus a random 0..`spreadSeconds`: a crowd refused in the same second comes back
   * spread over that span instead of all at the instant the window reopens (and refused again together).
   */
  admit(
    rule: LimitRule,
    subject: string,
    message: string,
    options: { spreadSeconds?: number; nowMs?: number; random?: () => number } = {},
  ): void {
    let state: LimitState;
    try {
      state = this.slidingHit(rule, subject, options.nowMs);
    } catch {
      // Without its counters the limiter cannot protect anything: refuse rather than let requests through.
      throw new HttpError(503, 'Service temporarily unavailable');
    }
    if (state.allowed) return;
    const spread = Math.max(0, Math.floor(options.spreadSeconds ?? 0));
    const retryAfterSeconds =
      state.retryAfterSeconds + Math.floor((options.random ?? Math.random)() * (spread + 1));
    throw new HttpError(
      429,
      message,
      'RATE_LIMITED',
      { retryAfterSeconds },
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }

  hit(rule: LimitRule, subject: string, nowMs = Date.now()): LimitState {
    const now = Math.floor(nowMs / 1000);
    const row = countFixedWindow(this.db, {
      bucket: rule.bucket,
      subject: subject.toLowerCase(),
      now,
      window: rule.windowSeconds,
    });
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
      let state: LimitState;
      try {
        state = this.hit(rule, subject);
      } catch {
        // Without its counters the limiter cannot protect anything: refuse rather than let requests through.
        throw new HttpError(503, 'Service temporarily unavailable');
      }
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

/** Request limits of the public account endpoints (sign-in guesses are the secret guard's, see guard.ts). */
export const AUTH_LIMITS = {
  // Spec 1 limits: 3 partner and 5 user registrations per IP per hour.
  registerPartnerPerIp: { bucket: 'register-partner:ip', limit: 3, windowSeconds: 3600 },
  registerUserPerIp: { bucket: 'register-user:ip', limit: 5, windowSeconds: 3600 },
  passwordResetPerIp: { bucket: 'password-reset:ip', limit: 10, windowSeconds: 3600 },
  passwordResetPerEmail: { bucket: 'password-reset:email', limit: 3, windowSeconds: 3600 },
  smsSendPerUser: { bucket: 'sms-send:user', limit: 5, windowSeconds: 15 * 60 },
} satisfies Record<string, LimitRule>;
