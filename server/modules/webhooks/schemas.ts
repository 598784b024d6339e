import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_MAX_HEADERS, WEBHOOK_TEST_EVENT } from '../../contract/webhooks';
import { paginationQuery } from '../../http/pagination';

// Request shapes of /webhooks (spec 2 Webhook, Webhooks endpoints). The URL is a plain string here: whether it
// may be a target is the service's question (address.ts), answered with the spec's 'Invalid webhook URL'.

const name = z
  .string({ error: 'name is required' })
  .trim()
  .min(1, 'name must be 1-255 characters')
  .max(255, 'name must be 1-255 characters');
const url = z.string({ error: 'url is required' }).max(2048, 'url is too long');
const secret = z
  .string({ error: 'secret must be a string' })
  .min(1, 'secret must not be empty')
  .max(512, 'secret must be at most 512 characters');

const eventType = z.enum(WEBHOOK_EVENT_TYPES as [string, ...string[]], {
  error: 'events must name event types of the catalog',
});
const events = z
  .array(eventType, { error: 'events must be an array of event types' })
  .min(1, 'events must name at least one event type')
  .transform((list) => [...new Set(list)]);

/**
 * Names the sender sets itself: a custom header may not replace them (it would forge the signature or break the
 * request), and hop-by-hop or framing headers are the HTTP client's business.
 */
const RESERVED_HEADERS = new Set(
  [
    'content-type',
    'content-length',
    'user-agent',
    'host',
    'connection',
    'transfer-encoding',
    'te',
    'upgrade',
    'keep-alive',
    'expect',
  ].concat(
    ['delivery-id', 'event-id', 'event-type', 'timestamp', 'signature', 'signature-timestamp'].map(
      (h) => `x-service-${h}`,
    ),
  ),
);
const header = z.object({
  key: z
    .string({ error: 'header key is required' })
    .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, 'header key must be an HTTP header name')
    .refine((k) => !RESERVED_HEADERS.has(k.toLowerCase()), 'header key names a header the sender sets'),
  value: z
    .string({ error: 'header value is required' })
    .max(1000, 'header value must be at most 1000 characters')
    .regex(/^[^\r\n\0]*$/, 'header value must be one line'),
});
const headers = z
  .array(header, { error: 'headers must be an array of {key, value}' })
  .max(WEBHOOK_MAX_HEADERS, `at most ${WEBHOOK_MAX_HEADERS} headers`);

const retryPolicy = z.object({
  maxRetries: z.number().int().min(0).max(10),
  initialDelayMs: z.number().int().min(10).max(3_600_000),
  backoffMultiplier: z.number().min(1).max(10),
  maxDelayMs: z.number().int().min(10).max(86_400_000),
});

export const createWebhookBody = z.object({
  name,
  url,
  secret: secret.optional(),
  events,
  headers: headers.optional(),
  retryPolicy: retryPolicy.optional(),
  /** Required for partner and system scope, ignored for organization scope (checked by the service). */
  orgId: z.string({ error: 'orgId must be a string' }).optional(),
});

export const updateWebhookBody = z.object({
  name: name.optional(),
  url: url.optional(),
  /** A new secret, or null to stop signing. */
  secret: secret.nullable().optional(),
  events: events.optional(),
  headers: headers.optional(),
  /** `failed` is the server's to set; a caller pauses and resumes. */
  status: z.enum(['active', 'paused'], { error: "status must be 'active' or 'paused'" }).optional(),
  retryPolicy: retryPolicy.nullable().optional(),
});

const webhookStatus = z.enum(['active', 'paused', 'failed'], {
  error: "status must be 'active', 'paused' or 'failed'",
});
const deliveryStatus = z.enum(['pending', 'delivered', 'failed', 'retrying'], {
  error: "status must be 'pending', 'delivered', 'failed' or 'retrying'",
});

export const listWebhooksQuery = z.object({
  ...paginationQuery(),
  status: webhookStatus.optional(),
  orgId: z.string().optional(),
});

export const listDeliveriesQuery = z.object({
  ...paginationQuery({ defaultLimit: 50, maxLimit: 100 }),
  status: deliveryStatus.optional(),
});

export const testWebhookBody = z.object({
  event: z
    .enum([WEBHOOK_TEST_EVENT, ...WEBHOOK_EVENT_TYPES] as [string, ...string[]], {
      error: 'event must be webhook.test or an event type of the catalog',
    })
    .default(WEBHOOK_TEST_EVENT),
  payload: z.unknown().optional(),
});

/** Any string: an id that is not a UUID matches nothing (404), like any other unknown id. */
export const webhookIdParams = z.object({ id: z.string() });
export const retryParams = z.object({ id: z.string(), deliveryId: z.string() });
