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
  const { db } = rt.ctx;
  let running = 0;
  const state = { stopped: false };
  // A previous process's claims are dead (the data directory is held by one process at a time).
  releaseAbandonedAttempts(db, rt.now());

  const settled = (count: number) => {
    running -= count;
    // Slots are free: there may be more due work.
    rt.wake();
  };
  const recorder = createRecorder(rt, state, settled);

  const pass = () => {
    if (state.stopped || running >= rt.concurrency) return;
    // Attempts running here are not due (their lease is in the future), so every row found is free to claim.
    // One transaction for the pass's claims: one commit, however many attempts start.
    const claimed = transaction(db, () => {
      const now = rt.now();
      const leaseUntil = now + rt.attemptTimeoutMs + LEASE_MARGIN_MS;
      return dueDeliveries(db, now, rt.concurrency - running).filter((due) =>
        claimDelivery(db, due.id, due.attempt, now, leaseUntil),
      );
    });
    for (const due of claimed) {
      running++;
      attempt(rt, due.id, due.attempt).then(
        (finished) => (finished && !state.stopped ? recorder.add(finished) : settled(1)),
        (err: unknown) => {
          rt.ctx.log.error({ err, deliveryId: due.id }, 'webhook attempt failed');
          settled(1);
        },
      );
    }
  };

  return {
    pass,
    stop: () => {
      state.stopped = true;
    },
  };
}

/** A sent attempt waiting to be recorded. */
interface FinishedAttempt {
  subject: AttemptSubject;
  claimed: number;
  result: AttemptResult;
  policy: WebhookRetryPolicy;
}

/**
 * Records finished attempts together, one transaction per turn of the event loop: under load many attempts end
 * in the same turn, and one commit for all of them is most of the dispatcher's throughput. Each is recorded in
 * its own savepoint, so one that fails to record does not undo the others.
 */
function createRecorder(
  rt: WebhookRuntime,
  state: { stopped: boolean },
  settled: (count: number) => void,
): { add(finished: FinishedAttempt): void } {
  let batch: FinishedAttempt[] = [];
  const flush = () => {
    const taken = batch;
    batch = [];
    // An attempt cut short by the shutdown is not recorded: it stays in flight and is due at the next start.
    if (!state.stopped)
      transaction(rt.ctx.db, () => {
        for (const finished of taken) {
          try {
            transaction(rt.ctx.db, () => record(rt, finished));
          } catch (err) {
            rt.ctx.log.error(
              { err, deliveryId: finished.subject.delivery.id },
              'webhook outcome not recorded',
            );
          }
        }
      });
    settled(taken.length);
  };
  return {
    add: (finished) => {
      if (batch.push(finished) === 1) setImmediate(flush);
    },
  };
}

/** Sends one claimed attempt; null when its delivery is gone (deleted with its webhook meanwhile). */
async function attempt(
  rt: WebhookRuntime,
  deliveryId: string,
  claimed: number,
): Promise<FinishedAttempt | null> {
  const subject = attemptSubject(rt.ctx.db, deliveryId);
  if (!subject) return null;
  const result = await send(rt, subject);
  const policy = subject.webhook.retry_policy
    ? (JSON.parse(subject.webhook.retry_policy) as WebhookRetryPolicy)
    : DEFAULT_RETRY_POLICY;
  return { subject, claimed, result, policy };
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

function record(rt: WebhookRuntime, { subject, claimed, result, policy }: FinishedAttempt): void {
  const { db, bus } = rt.ctx;
  const { delivery, webhook } = subject;
  const updated = recordAttempt(db, delivery.id, claimed, outcomeOf(rt, result, claimed + 1, policy));
  if (!updated) return;
  countAttempt(db, webhook.id, result.ok, new Date(rt.now()).toISOString());
  bus.emit('webhook.delivery.updated', updated.org_id, toDelivery(updated));
}
