import type { Request, Response } from 'express';
import type { Db } from '../../db/connection';
import { sha256Hex } from '../../crypto';
import type { ApiKeyAuth } from '../../http/auth-context';
import { HttpError, unauthorized } from '../../http/errors';
import type { SecretGuard } from '../../http/guard';
import type { RateLimiter } from '../../http/rate-limit';
import { addApiKeyUsage, apiKeyCredential, markApiKeyExpired } from './store';

// X-API-Key authentication in the order spec 1 gives: header, `svc_` prefix, hash lookup, status, expiry (written
// to storage), the hourly sliding window, asynchronous usage, then the organization context. The hash lookup goes
// through the secret guard: keys that match nothing are guesses, counted per address; revoked and expired keys
// are real keys and are not.

export const API_KEY_HEADER = 'x-api-key';
export const API_KEY_PREFIX = 'svc_';
const WINDOW_SECONDS = 3600;

export class ApiKeyAuthenticator {
  private pendingUsage = new Map<string, { count: number; at: string }>();
  private flushScheduled = false;

  constructor(
    private readonly db: Db,
    private readonly limiter: RateLimiter,
    private readonly guard: SecretGuard,
  ) {}

  authenticate(req: Request, res: Response): ApiKeyAuth {
    const raw = req.get(API_KEY_HEADER);
    if (!raw) throw unauthorized('Missing X-API-Key header');
    if (!raw.startsWith(API_KEY_PREFIX)) throw unauthorized('Invalid API key format');
    const key = this.guard.check({ kind: 'api_key', req }, () => apiKeyCredential(this.db, sha256Hex(raw)));
    if (!key) throw unauthorized('Invalid API key');
    if (key.status === 'revoked') throw unauthorized('API key is revoked');
    if (key.status === 'expired') throw unauthorized('API key is expired');
    if (key.expires_at && Date.parse(key.expires_at) <= Date.now()) {
      markApiKeyExpired(this.db, key.id, new Date().toISOString());
      throw unauthorized('API key is expired');
    }
    const state = this.limiter.slidingHit(
      { bucket: 'api-key', limit: key.rate_limit, windowSeconds: WINDOW_SECONDS },
      key.id,
    );
    res.set({
      'X-RateLimit-Limit': String(state.limit),
      'X-RateLimit-Remaining': String(state.remaining),
      'X-RateLimit-Reset': String(state.resetAt),
    });
    if (!state.allowed) {
      throw new HttpError(
        429,
        'Rate limit exceeded',
        undefined,
        { retryAfterSeconds: state.retryAfterSeconds },
        { 'Retry-After': String(state.retryAfterSeconds) },
      );
    }
    this.recordUse(key.id);
    return {
      kind: 'api_key',
      scope: 'organization',
      orgId: key.org_id,
      partnerId: key.partner_id,
      mfa: false,
      apiKeyId: key.id,
      keyName: key.name,
      scopes: JSON.parse(key.scopes) as string[],
    };
  }

  /** Usage is counted in memory and written on the next turn of the event loop, batched per key. */
  private recordUse(id: string): void {
    const entry = this.pendingUsage.get(id);
    const at = new Date().toISOString();
    if (entry) {
      entry.count++;
      entry.at = at;
    } else this.pendingUsage.set(id, { count: 1, at });
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  /** Writes pending usage now (also called at shutdown). Rotation resets usage, so a revoked key gains nothing. */
  flush(): void {
    this.flushScheduled = false;
    const batch = this.pendingUsage;
    if (!batch.size) return;
    this.pendingUsage = new Map();
    try {
      addApiKeyUsage(this.db, batch);
    } catch {
      // Usage statistics are informational; losing one batch must not fail anything.
    }
  }

  /** Forgets usage counted for a key that is being rotated, so the new key starts from zero. */
  discardPending(id: string): void {
    this.pendingUsage.delete(id);
  }
}
