import type { Logger } from 'pino';
import type { AuditCreatedEvent, ElevationRequest } from '../contract';

// The typed in-process event bus. Publishers never wait on or fail because of a subscriber: each listener runs
// in its own try/catch. Audit, console pushes, webhooks and notifications all subscribe here.

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
  'device.online': DeviceEvent;
  'device.offline': DeviceEvent;
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

  constructor(private readonly log: Logger) {}

  /** Subscribes to one event; returns the unsubscribe function. */
  on<K extends EventName>(event: K, listener: Listener<K>): () => void {
    const set = this.listeners.get(event) ?? new Set<AnyListener>();
    set.add(listener as AnyListener);
    this.listeners.set(event, set);
    return () => set.delete(listener as AnyListener);
  }

  /** Subscribes to every event (the console hub filters by name and scope). */
  onAny(listener: AnyListener): () => void {
    this.wildcard.add(listener);
    return () => this.wildcard.delete(listener);
  }

  emit<K extends EventName>(event: K, orgId: string | null, data: EventMap[K]): void {
    const message: BusMessage<K> = { event, orgId, data, at: new Date().toISOString() };
    for (const listener of [...(this.listeners.get(event) ?? []), ...this.wildcard]) {
      try {
        listener(message as BusMessage);
      } catch (err) {
        this.log.error({ err, event }, 'event listener failed');
      }
    }
  }
}
