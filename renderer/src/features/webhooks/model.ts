import {
  WEBHOOK_EMITTED_EVENTS,
  WEBHOOK_EVENT_GROUPS,
  type Webhook,
  type WebhookDeliveryStatus,
  type WebhookStatus,
} from '../../../../server/contract';
import type { Tone } from '../../ui';
import { relativeTo } from '../../lib/format';
import { useSession } from '../../lib/session';

// What the webhook screens derive from the contract: the event catalog, tones and words for statuses, health
// figures, the signing secret, and whether the caller may change webhooks.

const EMITTED: ReadonlySet<string> = new Set(WEBHOOK_EMITTED_EVENTS);

/** Whether Gatehouse sends this catalog event today (the others belong to features it does not have). */
export const isSent = (event: string): boolean => EMITTED.has(event);

/** The spec's event catalog as the picker groups it. */
export const EVENT_GROUP_ENTRIES = Object.entries(WEBHOOK_EVENT_GROUPS) as Array<[string, readonly string[]]>;

export const ALL_EVENTS: readonly string[] = EVENT_GROUP_ENTRIES.flatMap(([, events]) => events);

export const STATUS_TONE: Record<WebhookStatus, Tone> = { active: 'ok', paused: 'muted', failed: 'bad' };

export const DELIVERY_TONE: Record<WebhookDeliveryStatus, Tone> = {
  delivered: 'ok',
  pending: 'muted',
  retrying: 'warn',
  failed: 'bad',
};

/** The share of finished deliveries that arrived, as a whole percent; null before any finished. */
export function successRate(hook: Pick<Webhook, 'successCount' | 'failureCount'>): number | null {
  const finished = hook.successCount + hook.failureCount;
  return finished === 0 ? null : Math.round((hook.successCount / finished) * 100);
}

export function rateTone(rate: number | null): Tone {
  if (rate === null) return 'muted';
  return rate >= 95 ? 'ok' : rate >= 80 ? 'warn' : 'bad';
}

/** Tones of the latest delivery statuses, oldest first as the list sends them (the sparkline reads left to right). */
export function outcomeTones(statuses: readonly WebhookDeliveryStatus[]): Tone[] {
  return statuses.map((status) => DELIVERY_TONE[status]);
}

const SECRET_BYTES = 32;

/**
 * A signing secret made in the browser (`whsec_` and 64 hex digits from crypto.getRandomValues): the server
 * stores it sealed and never shows it again, so the console shows it once, right after sending it.
 */
export function newSigningSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(SECRET_BYTES));
  return `whsec_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** Writes to webhooks need organizations:write (the routes' permission); without it the screens are read-only. */
export function useCanWriteWebhooks(): boolean {
  return useSession((s) => s.user?.permissions.includes('organizations:write') ?? false);
}

/** A partner or system caller sees several organizations: the list names each webhook's. */
export function useSpansOrganizations(): boolean {
  return useSession((s) => s.user !== null && s.user.scope !== 'organization');
}

/**
 * How long ago a past moment was, against a clock that ticks every few seconds: a moment newer than the last
 * tick is "just now", never "in 6s".
 */
export function ago(iso: string, now: number): string {
  return relativeTo(Math.min(Date.parse(iso), now), now);
}

export const DEFAULT_RETRY = {
  maxRetries: 5,
  initialDelayMs: 1000,
  backoffMultiplier: 2,
  maxDelayMs: 300_000,
};
