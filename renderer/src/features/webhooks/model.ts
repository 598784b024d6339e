import type {
  WEBHOOK_EMITTED_EVENTS,
  WEBHOOK_EVENT_GROUPS,
  WEBHOOK_RECENT_OUTCOMES,
  Webhook,
  WebhookDeliveryStatus,
  WebhookStatus,
} from '../../../../server/contract';
import type { Tone } from '../../ui';
import { relativeTo } from '../../lib/format';
import { useSession } from '../../lib/session';

// What the webhook screens derive from the contract: the event catalog, tones and words for statuses, health
// figures, the signing secret, and whether the caller may change webhooks.

/**
 * The spec's event catalog as the picker groups it. The renderer may import only types from the server, so the
 * catalog is written out here; its type is the contract's, so any difference from it fails the typecheck.
 */
export const EVENT_GROUPS: typeof WEBHOOK_EVENT_GROUPS = {
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
};

/** The events Gatehouse sends today (the contract's list, written out for the same reason as the catalog). */
const EMITTED_EVENTS: typeof WEBHOOK_EMITTED_EVENTS = [
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
];
const EMITTED: ReadonlySet<string> = new Set(EMITTED_EVENTS);

/** Whether Gatehouse sends this catalog event today (the others belong to features it does not have). */
export const isSent = (event: string): boolean => EMITTED.has(event);

export const TEST_EVENT = 'webhook.test';

/** How many statuses the list's `recentOutcomes` carries: the sparkline's slots (the contract's type pins it). */
export const RECENT_OUTCOMES: typeof WEBHOOK_RECENT_OUTCOMES = 24;

export const EVENT_GROUP_ENTRIES = Object.entries(EVENT_GROUPS) as Array<[string, readonly string[]]>;

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
