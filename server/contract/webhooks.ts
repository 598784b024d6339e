// Webhooks (spec 2 "Webhook", "Webhook delivery", Webhooks endpoints, Events, Limits). Field names are the
// spec's. The console builds its screens from these types; the server validates requests with the zod schemas in
// server/modules/webhooks/schemas.ts.

/** The spec's event catalog, grouped as the spec groups it (the console's event picker shows these groups). */
export const WEBHOOK_EVENT_GROUPS = {
  Device: ['device.enrolled', 'device.online', 'device.offline', 'device.updated', 'device.decommissioned'],
  Alert: ['alert.triggered', 'alert.acknowledged', 'alert.resolved', 'alert.escalated'],
  Script: ['script.started', 'script.completed', 'script.failed'],
  Automation: ['automation.started', 'automation.completed', 'automation.failed'],
  Policy: ['policy.evaluated', 'policy.violation', 'policy.compliant'],
  Patch: ['patch.available', 'patch.approved', 'patch.installed', 'patch.failed', 'patch.rollback'],
  'Privileged access': ['elevation.approved', 'elevation.denied'],
  Other: [
    'security.score_changed',
    'remote.session.started',
    'remote.session.ended',
    'remote.file.transferred',
    'user.login',
    'user.logout',
    'session.login',
    'session.logout',
  ],
} as const;

export type WebhookEventGroup = keyof typeof WEBHOOK_EVENT_GROUPS;
/** An event a webhook can subscribe to. */
export type WebhookEventType = (typeof WEBHOOK_EVENT_GROUPS)[WebhookEventGroup][number];
/** Test deliveries use this type (spec 2 Events); it is not subscribed to, every webhook can be tested. */
/** The most custom headers one webhook may send. */
export const WEBHOOK_MAX_HEADERS = 20;

export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = Object.values(WEBHOOK_EVENT_GROUPS).flat();

/**
 * The catalog events Gatehouse sends today. The rest of the catalog (alerts, scripts, automation, policy, patches,
 * security score, remote sessions) belongs to features Gatehouse does not have: a webhook may subscribe to them
 * (the spec's catalog is the contract) and the console shows them as not sent yet. pipeline.ts checks at compile
 * time that this list and what it routes are the same.
 */
export const WEBHOOK_EMITTED_EVENTS = [
  'device.enrolled',
  'device.online',
  'device.offline',
  'device.updated',
  'device.decommissioned',
  'elevation.approved',
  'elevation.denied',
  'user.login',
  'user.logout',
  'session.login',
  'session.logout',
] as const satisfies readonly WebhookEventType[];
export type WebhookEmittedEvent = (typeof WEBHOOK_EMITTED_EVENTS)[number];

/** API vocabulary (spec 2 Webhook `status`); `failed` is never set by the server today, only accepted as state. */
export type WebhookStatus = 'active' | 'paused' | 'failed';
export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed' | 'retrying';

export interface WebhookHeader {
  key: string;
  value: string;
}

/** Optional per-webhook override of the default backoff (5 retries, 1000 ms, x2, at most 300000 ms). */
export interface WebhookRetryPolicy {
  maxRetries: number;
  initialDelayMs: number;
  backoffMultiplier: number;
  maxDelayMs: number;
}

export interface Webhook {
  id: string;
  orgId: string;
  name: string;
  url: string;
  /** The secret is write-only: responses only say whether one is set. */
  hasSecret: boolean;
  events: string[];
  headers: WebhookHeader[];
  status: WebhookStatus;
  retryPolicy: WebhookRetryPolicy | null;
  successCount: number;
  failureCount: number;
  lastDeliveryAt: string | null;
  lastSuccessAt: string | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

/** How many of a webhook's latest delivery statuses the list carries (the console's sparkline). */
export const WEBHOOK_RECENT_OUTCOMES = 24;

/**
 * GET /webhooks: each webhook with, beyond the spec, `recentOutcomes`: the statuses of its latest
 * WEBHOOK_RECENT_OUTCOMES deliveries, newest last (empty without deliveries), so a list page shows health at a
 * glance without a request per row.
 */
export interface WebhookListItem extends Webhook {
  recentOutcomes: WebhookDeliveryStatus[];
}

export interface WebhookDeliveryStats {
  total: number;
  pending: number;
  delivered: number;
  failed: number;
  retrying: number;
  lastDeliveredAt: string | null;
}

/** GET /webhooks/:id */
export interface WebhookDetail extends Webhook {
  deliveryStats: WebhookDeliveryStats;
}

/** The JSON body every attempt of a delivery sends, byte for byte the same on each retry. */
export interface WebhookPayload {
  /** The event's id: the same on every attempt and on a manual retry, so receivers dedupe by it. */
  id: string;
  type: string;
  timestamp: string;
  orgId: string;
  data: unknown;
}

export interface WebhookDelivery {
  id: string;
  webhookId: string;
  orgId: string;
  status: WebhookDeliveryStatus;
  event: string;
  eventId: string;
  payload: WebhookPayload;
  responseStatus: number | null;
  /** At most 1000 characters. */
  responseBody: string | null;
  responseTimeMs: number | null;
  errorMessage: string | null;
  /** Attempts made so far (0 while the first is pending). */
  attempt: number;
  /** When the next attempt is due; null once delivered or failed. */
  nextAttemptAt: string | null;
  createdAt: string;
  deliveredAt: string | null;
  /**
   * Beyond the spec's record (issue 12 item 5, the log's request and response detail): the headers the latest
   * attempt sent, signature included, and the headers the receiver answered with, cut to 4 KB of JSON. Null
   * before the first attempt, and for an attempt refused before sending (request) or without a response.
   */
  requestHeaders: Record<string, string> | null;
  responseHeaders: Record<string, string> | null;
}

/** POST /webhooks/:id/test (202). */
export interface WebhookTestResponse {
  message: string;
  delivery: Pick<WebhookDelivery, 'id' | 'webhookId' | 'status' | 'event' | 'attempt'>;
}

/** POST /webhooks/:id/retry/:deliveryId (202): the new delivery record. */
export interface WebhookRetryResponse {
  message: string;
  delivery: Pick<WebhookDelivery, 'id' | 'status' | 'attempt'>;
}

/** Data of the console pushes `webhook.delivery.created` and `webhook.delivery.updated`. */
export type WebhookDeliveryLiveEvent = WebhookDelivery;
