import type { WebhookRetryPolicy } from '../../contract/webhooks';

// Retries (spec 2 Limits): by default 5 retries, the first after 1000 ms, doubling, at most 300000 ms apart:
// delay = min(initial * multiplier^n, max) for the n-th failure counted from 0, so 1, 2, 4, 8 and 16 seconds.
// A webhook may carry its own policy (spec 2 Webhook `retryPolicy`).

export const DEFAULT_RETRY_POLICY: WebhookRetryPolicy = {
  maxRetries: 5,
  initialDelayMs: 1000,
  backoffMultiplier: 2,
  maxDelayMs: 300_000,
};

/** The timeout of one attempt (spec 2: 30 seconds). */
export const ATTEMPT_TIMEOUT_MS = 30_000;

/**
 * What happens after a failed attempt, given how many attempts have now been made: another attempt after `delayMs`,
 * or none (the delivery fails: the dead letter, visible and retryable by hand).
 */
export function nextRetry(
  policy: WebhookRetryPolicy,
  attemptsMade: number,
): { retry: true; delayMs: number } | { retry: false } {
  const retriesUsed = attemptsMade - 1;
  if (retriesUsed >= policy.maxRetries) return { retry: false };
  const delayMs = Math.min(
    policy.initialDelayMs * policy.backoffMultiplier ** retriesUsed,
    policy.maxDelayMs,
  );
  return { retry: true, delayMs: Math.round(delayMs) };
}
