import type { AppContext } from '../../context';
import type { DeviceEvent } from '../../events/bus';
import { setDeviceOffline, setDeviceOnline } from './device-store';

// Online/offline bookkeeping shared by heartbeats, the agent socket and the presence job. A device is online while
// its socket is open or its last heartbeat is recent; every transition is announced once on the bus.

type DeviceEventName =
  'device.enrolled' | 'device.online' | 'device.offline' | 'device.updated' | 'device.decommissioned';

interface DeviceIdentity {
  id: string;
  hostname: string;
  org_id: string;
  site_id: string | null;
}

export function emitDeviceEvent(
  ctx: Pick<AppContext, 'bus'>,
  event: DeviceEventName,
  device: DeviceIdentity,
  status: string,
): void {
  const data: DeviceEvent = {
    deviceId: device.id,
    hostname: device.hostname,
    orgId: device.org_id,
    siteId: device.site_id,
    status,
  };
  ctx.bus.emit(event, device.org_id, data);
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

/** Marks an `offline` device `online` (other statuses are left alone) and announces it. */
export function markOnline(ctx: Pick<AppContext, 'db' | 'bus'>, device: DeviceIdentity): boolean {
  const changed = setDeviceOnline(ctx.db, device.id, new Date().toISOString());
  if (changed) emitDeviceEvent(ctx, 'device.online', device, 'online');
  return changed;
}

/** Marks an `online` device `offline` and announces it. */
export function markOffline(ctx: Pick<AppContext, 'db' | 'bus'>, device: DeviceIdentity): boolean {
  const changed = setDeviceOffline(ctx.db, device.id, new Date().toISOString());
  if (changed) emitDeviceEvent(ctx, 'device.offline', device, 'offline');
  return changed;
}
