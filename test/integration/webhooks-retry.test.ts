import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextRetry, DEFAULT_RETRY_POLICY } from '../../server/modules/webhooks/retry';
import { createWebhook, deliveryWhere, startWebhookWorld, type WebhookWorld } from '../support/webhook-world';

// Retries (spec 2 Webhook delivery, Limits): a failed attempt is retried after min(initial * multiplier^n, max),
// by default 1, 2, 4, 8 and 16 seconds; after the last retry the delivery is failed (the dead letter), and a
// manual retry of it is a new pending record of the same event. One server runs on a clock the test moves, so
// the default schedule is checked to the millisecond without waiting for it; another runs on real time with a
// webhook's own short policy.

describe('the default backoff, on a clock the test moves', () => {
  let clock = Date.parse('2026-01-01T00:00:00.000Z');
  let world: WebhookWorld;

  beforeAll(async () => {
    world = await startWebhookWorld({ webhooks: { now: () => clock } });
    world.receiver.reply = () => ({ status: 503, body: 'busy' });
  });
  afterAll(async () => {
    await world?.dispose();
  });

  it('retries after 1, 2, 4, 8 and 16 seconds, then fails', async () => {
    expect([1, 2, 3, 4, 5].map((n) => nextRetry(DEFAULT_RETRY_POLICY, n))).toEqual(
      [1000, 2000, 4000, 8000, 16000].map((delayMs) => ({ retry: true, delayMs })),
    );
    expect(nextRetry(DEFAULT_RETRY_POLICY, 6)).toEqual({ retry: false });

    const hook = await createWebhook(world, { events: ['device.online'] });
    const test = await world.server.api.post(`/webhooks/${hook.id}/test`, {}, world.admin);
    const id = test.body.delivery.id as string;
    for (const [index, delay] of [1000, 2000, 4000, 8000, 16000].entries()) {
      const attempt = index + 1;
      const retrying = await deliveryWhere(world, hook.id, (d) => d.id === id && d.attempt === attempt);
      expect(retrying).toMatchObject({ status: 'retrying', responseStatus: 503, responseBody: 'busy' });
      expect(Date.parse(retrying.nextAttemptAt as string)).toBe(clock + delay);
      // Not due yet: passes of the dispatcher go by without an attempt.
      await new Promise((r) => setTimeout(r, 150));
      expect(world.receiver.requests).toHaveLength(attempt);
      clock += delay;
    }
    const failed = await deliveryWhere(world, hook.id, (d) => d.id === id && d.status === 'failed');
    expect(failed).toMatchObject({ attempt: 6, nextAttemptAt: null, errorMessage: 'HTTP 503' });
    expect(world.receiver.requests).toHaveLength(6);
    const detail = await world.server.api.get(`/webhooks/${hook.id}`, world.admin);
    expect(detail.body).toMatchObject({ successCount: 0, failureCount: 6, lastSuccessAt: null });
    expect(detail.body.deliveryStats).toMatchObject({ total: 1, failed: 1 });
  });
});

describe('retries on real time, the dead letter and a manual retry', () => {
  let world: WebhookWorld;

  beforeAll(async () => {
    world = await startWebhookWorld();
  });
  afterAll(async () => {
    await world?.dispose();
  });

  it("follows a webhook's own policy and is delivered once the receiver recovers", async () => {
    const hook = await createWebhook(world, {
      events: ['device.online'],
      retryPolicy: { maxRetries: 4, initialDelayMs: 200, backoffMultiplier: 2, maxDelayMs: 10_000 },
    });
    let calls = 0;
    world.receiver.reply = () => (++calls <= 3 ? { status: 500, body: 'down' } : { status: 204 });
    const test = await world.server.api.post(`/webhooks/${hook.id}/test`, {}, world.admin);
    const delivered = await deliveryWhere(world, hook.id, (d) => d.status === 'delivered');
    expect(delivered).toMatchObject({ id: test.body.delivery.id, attempt: 4, responseStatus: 204 });
    const times = world.receiver.requests.map((r) => r.at);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    // 200, 400 and 800 ms apart, give or take the dispatcher's 50 ms passes (never earlier than scheduled).
    expect(gaps).toHaveLength(3);
    [200, 400, 800].forEach((delay, i) => expect(gaps[i]).toBeGreaterThanOrEqual(delay - 5));
    // Every attempt carried the same event id and body: a receiver can dedupe.
    expect(new Set(world.receiver.requests.map((r) => r.headers['x-service-event-id'])).size).toBe(1);
    expect(new Set(world.receiver.requests.map((r) => r.body)).size).toBe(1);
  });

  it('fails after the last retry; a manual retry is a new pending record of the same event', async () => {
    const { api } = world.server;
    world.receiver.reply = () => ({ status: 500, body: 'still down' });
    const hook = await createWebhook(world, {
      events: ['device.online'],
      retryPolicy: { maxRetries: 2, initialDelayMs: 20, backoffMultiplier: 2, maxDelayMs: 100 },
    });
    await api.post(`/webhooks/${hook.id}/test`, {}, world.admin);
    const failed = await deliveryWhere(world, hook.id, (d) => d.status === 'failed');
    expect(failed.attempt).toBe(3);

    const early = await api.post(`/webhooks/${hook.id}/test`, {}, world.admin);
    const notFailed = await api.post(`/webhooks/${hook.id}/retry/${early.body.delivery.id}`, {}, world.admin);
    expect(notFailed.status).toBe(400);
    expect(notFailed.body.error).toBe('Only failed deliveries can be retried');
    const unknown = await api.post(
      `/webhooks/${hook.id}/retry/00000000-0000-4000-8000-000000000000`,
      {},
      world.admin,
    );
    expect(unknown.status).toBe(404);

    world.receiver.reply = () => ({ status: 200, body: 'back' });
    const retried = await api.post(`/webhooks/${hook.id}/retry/${failed.id}`, {}, world.admin);
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({
      message: expect.any(String),
      delivery: { status: 'pending', attempt: 0 },
    });
    expect(retried.body.delivery.id).not.toBe(failed.id);
    const redelivered = await deliveryWhere(
      world,
      hook.id,
      (d) => d.id === retried.body.delivery.id && d.status === 'delivered',
    );
    expect(redelivered.eventId).toBe(failed.eventId);
    expect(redelivered.payload).toEqual(failed.payload);
    // The dead letter stays as it was: failed, visible.
    const original = await deliveryWhere(world, hook.id, (d) => d.id === failed.id);
    expect(original.status).toBe('failed');
  });
});
