import { randomUUID } from 'node:crypto';
import { afterCommit, transaction } from '../../db/after-commit';
import type { EventName } from '../../events/bus';
import type { WebhookEmittedEvent, WebhookEventType, WebhookPayload } from '../../contract/webhooks';
import type { WebhookRuntime } from './runtime';
import { activeWebhooksOf, insertDelivery, toDelivery, type DeliveryRow } from './store';

// From events to queued deliveries (spec 2 Events, Webhook delivery). Each bus event of the catalog becomes one
// webhook event (one id, one body) and a `pending` delivery, attempt 0, for every active webhook of its
// organization that subscribes to the type. The rows are written inside the transaction of the change they
// announce, so a committed change always has its deliveries and a rolled-back one never does; a crash between the
// two cannot happen. The dispatcher is woken and consoles are told only after that commit.

/** Bus events the server emits today and the webhook event types they are delivered as. */
const ROUTED = {
  'device.enrolled': ['device.enrolled'],
  'device.updated': ['device.updated'],
  'device.decommissioned': ['device.decommissioned'],
  // The catalog names a sign-in twice (user.* and session.*); a webhook gets whichever it subscribed to.
  'user.login': ['user.login', 'session.login'],
  'user.logout': ['user.logout', 'session.logout'],
  'elevation.approved': ['elevation.approved'],
  'elevation.denied': ['elevation.denied'],
} as const satisfies Partial<Record<EventName, readonly WebhookEventType[]>>;

/** A batch of presence changes (`device.presence_changed`) is delivered as one event per device. */
const PRESENCE_TYPES = { online: 'device.online', offline: 'device.offline' } as const;

type Routed =
  (typeof ROUTED)[keyof typeof ROUTED][number] | (typeof PRESENCE_TYPES)[keyof typeof PRESENCE_TYPES];
type SameSet<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
/** Compile time: ROUTED delivers exactly the contract's WEBHOOK_EMITTED_EVENTS (the console's "sent" marks). */
export type RoutedMatchesContract = Holds<SameSet<Routed, WebhookEmittedEvent>>;

function newDelivery(webhookId: string, orgId: string, payload: WebhookPayload, now: number): DeliveryRow {
  return {
    id: randomUUID(),
    webhook_id: webhookId,
    org_id: orgId,
    status: 'pending',
    event: payload.type,
    event_id: payload.id,
    payload: JSON.stringify(payload),
    response_status: null,
    response_body: null,
    response_time_ms: null,
    error_message: null,
    attempt: 0,
    next_attempt_at: now,
    in_flight: 0,
    created_at: new Date(now).toISOString(),
    delivered_at: null,
    request_headers: null,
    response_headers: null,
  };
}

/** Queues one delivery (inside the caller's transaction); consoles hear of it and the dispatcher wakes after commit. */
export function queueDelivery(
  rt: WebhookRuntime,
  webhookId: string,
  orgId: string,
  payload: WebhookPayload,
): DeliveryRow {
  const row = newDelivery(webhookId, orgId, payload, rt.now());
  insertDelivery(rt.ctx.db, row);
  rt.ctx.bus.emit('webhook.delivery.created', orgId, toDelivery(row));
  afterCommit(rt.ctx.db, () => rt.wake());
  return row;
}

/** A new pending record of a failed delivery: same event id and body, so the receiver can tell it is the same event. */
export function requeueDelivery(rt: WebhookRuntime, failed: DeliveryRow): DeliveryRow {
  return queueDelivery(rt, failed.webhook_id, failed.org_id, JSON.parse(failed.payload) as WebhookPayload);
}

/** For each webhook event type an event becomes, the active webhooks of the organization subscribed to it. */
function subscribersOf(
  rt: WebhookRuntime,
  types: readonly string[],
  orgId: string,
): Array<{ type: string; webhookIds: string[] }> {
  const webhooks = activeWebhooksOf(rt.ctx.db, orgId);
  if (webhooks.length === 0) return [];
  const subscribed = webhooks.map((w) => ({ id: w.id, events: new Set(JSON.parse(w.events) as string[]) }));
  return types
    .map((type) => ({ type, webhookIds: subscribed.filter((w) => w.events.has(type)).map((w) => w.id) }))
    .filter((t) => t.webhookIds.length > 0);
}

/**
 * Queues `data` as one webhook event per matched type for the organization's subscribed webhooks (inside the
 * emitter's transaction, in a savepoint of its own: a webhook bug is logged and rolled back alone, never fails the
 * emitter's write).
 */
function fanOut(
  rt: WebhookRuntime,
  orgId: string,
  types: readonly string[],
  at: string,
  data: unknown,
): void {
  try {
    // Most events of most organizations have no subscriber: one indexed read, nothing written.
    const matched = subscribersOf(rt, types, orgId);
    if (matched.length === 0) return;
    transaction(rt.ctx.db, () => {
      for (const { type, webhookIds } of matched) {
        // One event id per event and type, shared by every webhook that gets it.
        const payload: WebhookPayload = { id: randomUUID(), type, timestamp: at, orgId, data };
        for (const webhookId of webhookIds) queueDelivery(rt, webhookId, orgId, payload);
      }
    });
  } catch (err) {
    rt.ctx.log.error({ err, types }, 'webhook fan-out failed');
  }
}

/** Subscribes the fan-out to the bus; returns the unsubscribe function. */
export function subscribeWebhookEvents(rt: WebhookRuntime): () => void {
  const { bus } = rt.ctx;
  const offs = Object.entries(ROUTED).map(([event, types]) =>
    bus.onWithinTransaction(event as EventName, (message) => {
      if (message.orgId === null || !types) return;
      fanOut(rt, message.orgId, types, message.at, message.data);
    }),
  );
  offs.push(
    bus.onWithinTransaction('device.presence_changed', ({ orgId, at, data }) => {
      // One read for the batch; an organization without presence webhooks (most) costs nothing more.
      if (orgId === null || subscribersOf(rt, Object.values(PRESENCE_TYPES), orgId).length === 0) return;
      for (const change of data.changes) {
        const type = change.status === 'online' ? PRESENCE_TYPES.online : PRESENCE_TYPES.offline;
        fanOut(rt, orgId, [type], at, change);
      }
    }),
  );
  return () => offs.forEach((off) => off());
}
