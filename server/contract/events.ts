import type { AccessReviewItemLiveEvent, AccessReviewLiveEvent } from './access-reviews';
import type { AuditCreatedEvent, Scope } from './common';
import type { ElevationRequest } from './pam';
import type { WebhookDeliveryLiveEvent } from './webhooks';

// Console live events (DESIGN §4, §7): the `{type:'event', event, data, orgId}` messages the console hub pushes,
// typed by event name. The hub forwards only these families (`elevation.*`, `device.*`, `audit.*`,
// `webhook.delivery.*`, `access_review.*`), each to the consoles whose scope covers its organization (a review's
// pushes: to the consoles of the review's partner or organization). Payloads are what server/events/bus.ts emits for the same names.

/** Data of a `device.*` event: the device after the change (same shape as the bus's DeviceEvent). */
export interface DeviceLiveEvent {
  deviceId: string;
  hostname: string;
  orgId: string;
  siteId: string | null;
  status: string;
}

/** Data of `device.presence_changed`: devices of one organization that went online or offline together. */
export interface DevicePresenceLiveEvent {
  /** Each device after its change; `status` is `online` or `offline`. */
  changes: DeviceLiveEvent[];
}

/** Event name -> the `data` of that event on the console socket. */
export interface ConsoleEventMap {
  'audit.created': AuditCreatedEvent;
  'device.enrolled': DeviceLiveEvent;
  'device.presence_changed': DevicePresenceLiveEvent;
  'device.updated': DeviceLiveEvent;
  'device.decommissioned': DeviceLiveEvent;
  /** The request as it stands after the change. */
  'elevation.requested': ElevationRequest;
  'elevation.auto_approved': ElevationRequest;
  'elevation.approved': ElevationRequest;
  'elevation.denied': ElevationRequest;
  'elevation.actuating': ElevationRequest;
  'elevation.enforcement_changed': ElevationRequest;
  'elevation.revoked': ElevationRequest;
  'elevation.expired': ElevationRequest;
  /** A delivery was queued (an event matched, a test, a manual retry); pushed to consoles that may read it. */
  'webhook.delivery.created': WebhookDeliveryLiveEvent;
  /** An attempt finished: delivered, retrying (with its next attempt) or failed. */
  'webhook.delivery.updated': WebhookDeliveryLiveEvent;
  /** A review was created / completed: the review as it now stands. */
  'access_review.created': AccessReviewLiveEvent;
  'access_review.completed': AccessReviewLiveEvent;
  /** A decision on one item: the item after it and the review's new status and counts. */
  'access_review.item_updated': AccessReviewItemLiveEvent;
}

export type ConsoleEventName = keyof ConsoleEventMap;

/** One pushed event on the wire, discriminated by `event`. */
export type ConsoleEventMessage = {
  [K in ConsoleEventName]: { type: 'event'; event: K; data: ConsoleEventMap[K]; orgId: string | null };
}[ConsoleEventName];

/** Every message on the console socket, as the console reads it. */
export type ConsoleSocketMessage = { type: 'connected'; userId: string; scope: Scope } | ConsoleEventMessage;
