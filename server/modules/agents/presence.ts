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

/** Heartbeat staleness thresholds, derived from the interval handed to agents. */
export function presenceThresholds(heartbeatSeconds: number) {
  return {
    /** Without a socket, a device is offline once its last heartbeat is older than this. */
    staleMs: 3 * heartbeatSeconds * 1000,
    /** When its socket closes, a device whose last heartbeat is older than this goes offline at once. */
    socketCloseMs: 1.5 * heartbeatSeconds * 1000,
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
