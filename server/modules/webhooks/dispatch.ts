import { transaction } from '../../db/after-commit';
import type { WebhookRetryPolicy } from '../../contract/webhooks';
import { checkTarget, parseTarget } from './address';
import { DEFAULT_RETRY_POLICY, nextRetry } from './retry';
import type { WebhookRuntime } from './runtime';
import { refusedAttempt, sendAttempt, type AttemptResult } from './sender';
import {
  attemptSubject,
  claimDelivery,
  countAttempt,
  deliveryById,
  dueDeliveries,
  recordAttempt,
  releaseAbandonedAttempts,
  toDelivery,
  type AttemptOutcome,
  type AttemptSubject,
} from './store';

// The dispatcher works the delivery queue (the webhook_deliveries table). Each attempt is claimed by
// compare-and-swap, which also leases it (next_attempt_at moves past the attempt's timeout), then the URL is
// checked again after DNS, the request is sent to the checked address, and the outcome is recorded by a second
// compare-and-swap on the claimed attempt count: an attempt is recorded at most once, and one cut short by a
// crash is due again after the restart. A receiver may then see an event twice (it was sent, the answer was
// lost); it dedupes by X-Service-Event-Id, and the delivery is still recorded delivered only once.

/** Past the attempt's own timeout, a claim is abandoned and the delivery due again. */
const LEASE_MARGIN_MS = 5_000;
const UNSAFE = 'Unsafe webhook URL';

export interface Dispatcher {
  /** Looks for due deliveries and starts as many attempts as the concurrency allows. */
  pass(): void;
  /**
   * Starts nothing more and records nothing more: an attempt cut short by the shutdown is not the receiver's
   * failure. It stays in flight in SQLite and is due again at the next start.
   */
  stop(): void;
}

export function createDispatcher(rt: WebhookRuntime): Dispatcher {
  let running = 0;
  const state = { stopped: false };
  // A previous process's claims are dead (the data directory is held by one process at a time).
  releaseAbandonedAttempts(rt.ctx.db, rt.now());

  const pass = () => {
    if (state.stopped || running >= rt.concurrency) return;
    // Attempts running here are not due (their lease is in the future), so every row found is free to claim.
    for (const due of dueDeliveries(rt.ctx.db, rt.now(), rt.concurrency - running)) {
      const now = rt.now();
      if (!claimDelivery(rt.ctx.db, due.id, due.attempt, now, now + rt.attemptTimeoutMs + LEASE_MARGIN_MS))
        continue;
      running++;
      void attempt(rt, due.id, due.attempt, state)
        .catch((err: unknown) => rt.ctx.log.error({ err, deliveryId: due.id }, 'webhook attempt failed'))
        .finally(() => {
          running--;
          // The slot is free: there may be more due work.
          rt.wake();
        });
    }
  };

  return {
    pass,
    stop: () => {
      state.stopped = true;
    },
  };
}

/** Sends one claimed attempt and records its outcome. */
async function attempt(
  rt: WebhookRuntime,
  deliveryId: string,
  claimed: number,
  state: { stopped: boolean },
): Promise<void> {
  const subject = attemptSubject(rt.ctx.db, deliveryId);
  if (!subject) return; // deleted with its webhook meanwhile
  const result = await send(rt, subject);
  if (state.stopped) return;
  const policy = subject.webhook.retry_policy
    ? (JSON.parse(subject.webhook.retry_policy) as WebhookRetryPolicy)
    : DEFAULT_RETRY_POLICY;
  record(rt, subject, claimed, result, policy);
}

async function send(rt: WebhookRuntime, { delivery, webhook }: AttemptSubject): Promise<AttemptResult> {
  const target = parseTarget(webhook.url, rt.allowPrivate);
  if (!target) return refusedAttempt(UNSAFE);
  const checked = await checkTarget(target, rt.resolver, rt.allowPrivate);
  if (checked.verdict === 'unsafe') return refusedAttempt(UNSAFE);
  if (checked.verdict === 'unresolved') return refusedAttempt(`Could not resolve ${target.host}`);
  let secret: string | null;
  try {
    secret = webhook.secret_sealed === null ? null : rt.ctx.secretBox.open(webhook.secret_sealed);
  } catch {
    // Sealed under another encryption key (a data directory moved without its key): never send unsigned instead.
    return refusedAttempt('Signing secret cannot be read');
  }
  return sendAttempt({
    target,
    addresses: checked.addresses,
    body: delivery.payload,
    deliveryId: delivery.id,
    eventId: delivery.event_id,
    eventType: delivery.event,
    secret,
    headers: JSON.parse(webhook.headers) as Array<{ key: string; value: string }>,
    timeoutMs: rt.attemptTimeoutMs,
    ca: rt.ca,
    agent: rt.agent,
    now: rt.now,
  });
}

function outcomeOf(
  rt: WebhookRuntime,
  result: AttemptResult,
  attemptsMade: number,
  policy: WebhookRetryPolicy,
): AttemptOutcome {
  const now = rt.now();
  const common = {
    responseStatus: result.status,
    responseBody: result.body,
    responseTimeMs: result.timeMs,
    errorMessage: result.error,
    requestHeaders: result.requestHeaders && JSON.stringify(result.requestHeaders),
    responseHeaders: result.responseHeaders && JSON.stringify(result.responseHeaders),
  };
  if (result.ok)
    return { ...common, status: 'delivered', nextAttemptAt: null, deliveredAt: new Date(now).toISOString() };
  const next = nextRetry(policy, attemptsMade);
  return next.retry
    ? { ...common, status: 'retrying', nextAttemptAt: now + next.delayMs, deliveredAt: null }
    : { ...common, status: 'failed', nextAttemptAt: null, deliveredAt: null };
}

function record(
  rt: WebhookRuntime,
  { delivery, webhook }: AttemptSubject,
  claimed: number,
  result: AttemptResult,
  policy: WebhookRetryPolicy,
): void {
  const { db, bus } = rt.ctx;
  const outcome = outcomeOf(rt, result, claimed + 1, policy);
  transaction(db, () => {
    if (!recordAttempt(db, delivery.id, claimed, outcome)) return;
    countAttempt(db, webhook.id, result.ok, new Date(rt.now()).toISOString());
    const updated = deliveryById(db, delivery.id);
    if (updated) bus.emit('webhook.delivery.updated', updated.org_id, toDelivery(updated));
  });
}
