import type { Logger } from 'pino';
import type {
  AccessReviewItemLiveEvent,
  AccessReviewLiveEvent,
  AuditCreatedEvent,
  ElevationRequest,
  WebhookDeliveryLiveEvent,
} from '../contract';
import { afterCommit } from '../db/after-commit';
import type { Db } from '../db/connection';

// The typed in-process event bus, the one event mechanism of the server. Listeners come in two kinds:
// - `on` / `onAny`: side effects (console pushes, webhooks, notifications). They run after the emitting
//   transaction commits (DESIGN §6: a change that rolls back is never announced) and never make the publisher
//   fail: each runs in its own try/catch.
// - `onWithinTransaction`: part of the emitter's write (PAM maps a command result to the elevation's enforcement
//   state in the transaction that records the result). They run at once, inside the emitter's transaction; a
//   throw rolls the whole write back, so they must touch nothing but SQLite.
// Strict: a publish inside a transaction not opened by transaction() throws (afterCommit refuses), since its commit
// cannot be observed and announcing now could announce a change that later rolls back. Lint keeps bare
// db.transaction() out of server/ (except server/db/), so every write that publishes goes through transaction().

export interface SessionEvent {
  userId: string;
  email: string;
}

/** A device changed state (spec 2 Events, Device group); orgId on the message scopes console pushes. */
export interface DeviceEvent {
  deviceId: string;
  hostname: string;
  orgId: string;
  siteId: string | null;
  status: string;
}

/**
 * Devices of one organization that went online or offline together (issue 18): presence changes are written in
 * batches, each announced once, so 7,000 agents stopping at once is a few transactions and pushes, not 7,000.
 * Each change's status is `online` or `offline`.
 */
export interface DevicePresenceEvent {
  changes: DeviceEvent[];
}

export interface CommandFinishedEvent {
  commandId: string;
  deviceId: string;
  /** The command type (`actuate_elevation`, `revoke_elevation`, `self_uninstall`, ...). */
  type: string;
  status: 'completed' | 'failed' | 'timeout';
  error: string | null;
}

/** Event name to payload. Later modules add their events here (`elevation.*`, `device.*`, ...). */
export interface EventMap {
  'audit.created': AuditCreatedEvent;
  'user.login': SessionEvent;
  'user.logout': SessionEvent;
  /** Every access token of the user was invalidated (disable, removal, role change, password reset, offboarding). */
  'user.sessions_revoked': { userId: string };
  /** One session (refresh family) of the user was revoked, e.g. a copied refresh token was presented again. */
  'user.session_revoked': { userId: string; sessionId: string };
  'device.enrolled': DeviceEvent;
  'device.presence_changed': DevicePresenceEvent;
  'device.updated': DeviceEvent;
  'device.decommissioned': DeviceEvent;
  /** Privileged access (spec 2 Events; DESIGN §5): the request as it stands after the change. */
  'elevation.requested': ElevationRequest;
  'elevation.auto_approved': ElevationRequest;
  'elevation.approved': ElevationRequest;
  'elevation.denied': ElevationRequest;
  'elevation.actuating': ElevationRequest;
  'elevation.enforcement_changed': ElevationRequest;
  'elevation.revoked': ElevationRequest;
  'elevation.expired': ElevationRequest;
  /** An agent reported the end of one of its stored commands (not pushed to consoles: no pushed prefix). */
  'agent.command_finished': CommandFinishedEvent;
  /** A webhook delivery was queued / an attempt of it finished (console pushes; server/modules/webhooks). */
  'webhook.delivery.created': WebhookDeliveryLiveEvent;
  'webhook.delivery.updated': WebhookDeliveryLiveEvent;
  /** Access reviews (server/modules/access-reviews): pushed to consoles of the review's partner or organization. */
  'access_review.created': AccessReviewLiveEvent;
  'access_review.item_updated': AccessReviewItemLiveEvent;
  'access_review.completed': AccessReviewLiveEvent;
}

export type EventName = keyof EventMap;

export interface BusMessage<K extends EventName = EventName> {
  event: K;
  /** The organization the event belongs to; null for platform-level events (system scope only). */
  orgId: string | null;
  data: EventMap[K];
  at: string;
}

type Listener<K extends EventName> = (message: BusMessage<K>) => void;
type AnyListener = (message: BusMessage) => void;

export class EventBus {
  private readonly listeners = new Map<EventName, Set<AnyListener>>();
  private readonly wildcard = new Set<AnyListener>();
  private readonly within = new Map<EventName, Set<AnyListener>>();

  constructor(
    private readonly log: Logger,
    private readonly db: Db,
  ) {}

  /** Subscribes to one event, delivered after commit; returns the unsubscribe function. */
  on<K extends EventName>(event: K, listener: Listener<K>): () => void {
    return subscribe(this.listeners, event, listener as AnyListener);
  }

  /** Subscribes to every event, delivered after commit (the console hub filters by name and scope). */
  onAny(listener: AnyListener): () => void {
    this.wildcard.add(listener);
    return () => this.wildcard.delete(listener);
  }

  /** Subscribes to one event inside the emitter's transaction: SQLite writes only; a throw fails the emitter. */
  onWithinTransaction<K extends EventName>(event: K, listener: Listener<K>): () => void {
    return subscribe(this.within, event, listener as AnyListener);
  }

  emit<K extends EventName>(event: K, orgId: string | null, data: EventMap[K]): void {
    const message = { event, orgId, data, at: new Date().toISOString() } as BusMessage;
    for (const listener of [...(this.within.get(event) ?? [])]) listener(message);
    afterCommit(this.db, () => this.deliver(message));
  }

  private deliver(message: BusMessage): void {
    for (const listener of [...(this.listeners.get(message.event) ?? []), ...this.wildcard]) {
      try {
        listener(message);
      } catch (err) {
        this.log.error({ err, event: message.event }, 'event listener failed');
      }
    }
  }
}

function subscribe(
  registry: Map<EventName, Set<AnyListener>>,
  event: EventName,
  listener: AnyListener,
): () => void {
  const set = registry.get(event) ?? new Set<AnyListener>();
  set.add(listener);
  registry.set(event, set);
  return () => set.delete(listener);
}
