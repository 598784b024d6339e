import type { AppContext } from '../../context';
import { transaction } from '../../db/after-commit';
import type { DeviceEvent } from '../../events/bus';
import { setDeviceOffline, setDeviceOnline, type StaleDevice } from './device-store';

// Online/offline bookkeeping shared by heartbeats, the agent socket and the presence job. A device is online while
// its socket is open or its last heartbeat is recent. Transitions are written in batches, one transaction each,
// and announced once per organization and batch (`device.presence_changed`): a fleet that stops or comes back at
// once costs a few transactions and pushes, not one UPDATE, event and broadcast per agent (issue 18).

type DeviceEventName = 'device.enrolled' | 'device.updated' | 'device.decommissioned';

interface DeviceIdentity {
  id: string;
  hostname: string;
  org_id: string;
  site_id: string | null;
}

function deviceEvent(device: DeviceIdentity, status: string): DeviceEvent {
  return {
    deviceId: device.id,
    hostname: device.hostname,
    orgId: device.org_id,
    siteId: device.site_id,
    status,
  };
}

export function emitDeviceEvent(
  ctx: Pick<AppContext, 'bus'>,
  event: DeviceEventName,
  device: DeviceIdentity,
  status: string,
): void {
  ctx.bus.emit(event, device.org_id, deviceEvent(device, status));
}

/** Announces presence changes already written, one `device.presence_changed` per organization. */
export function emitPresenceChanges(
  ctx: Pick<AppContext, 'bus'>,
  changed: ReadonlyArray<{ device: DeviceIdentity; online: boolean }>,
): void {
  const byOrg = new Map<string, DeviceEvent[]>();
  for (const { device, online } of changed) {
    const list = byOrg.get(device.org_id) ?? [];
    list.push(deviceEvent(device, online ? 'online' : 'offline'));
    byOrg.set(device.org_id, list);
  }
  for (const [orgId, changes] of byOrg) ctx.bus.emit('device.presence_changed', orgId, { changes });
}

/** A wanted transition: online (from offline), or offline (from online, unless seen after `unseenSince`). */
export interface PresenceIntent {
  deviceId: string;
  online: boolean;
  /** ISO time; offline only: a heartbeat after it keeps the device online (the agent lives on over HTTP). */
  unseenSince?: string;
}

/**
 * Writes the transitions in one transaction and announces those that changed something (other statuses, and
 * devices already in the wanted state, are left alone); returns the devices that changed.
 */
export function applyPresence(
  ctx: Pick<AppContext, 'db' | 'bus'>,
  intents: readonly PresenceIntent[],
): StaleDevice[] {
  if (intents.length === 0) return [];
  return transaction(ctx.db, () => {
    const at = new Date().toISOString();
    const changed: Array<{ device: StaleDevice; online: boolean }> = [];
    for (const intent of intents) {
      const device = intent.online
        ? setDeviceOnline(ctx.db, intent.deviceId, at)
        : setDeviceOffline(ctx.db, intent.deviceId, at, intent.unseenSince ?? null);
      if (device) changed.push({ device, online: intent.online });
    }
    emitPresenceChanges(ctx, changed);
    return changed.map((c) => c.device);
  });
}

/**
 * How long a closed agent socket may take to come back before its device reads offline: long enough for a reconnect
 * after a network blip (no offline/online flap, no webhook pair), short enough that a stopped agent is seen
 * stopped within seconds.
 */
const SOCKET_RECONNECT_GRACE_MS = 3000;

/** Presence thresholds, derived from the heartbeat interval handed to agents. */
export function presenceThresholds(heartbeatSeconds: number) {
  return {
    /** Without a socket, a device is offline once its last heartbeat is older than this. */
    staleMs: 3 * heartbeatSeconds * 1000,
    /**
     * After its socket closes, a device that neither reconnects nor heartbeats within this goes offline, however
     * recent its last heartbeat before the close: the socket was the live channel, and a stopped agent sends
     * nothing more. The next heartbeat brings the device back online anyway.
     */
    socketGraceMs: Math.min(SOCKET_RECONNECT_GRACE_MS, heartbeatSeconds * 1000),
  };
}
