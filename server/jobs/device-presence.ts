import type { AppContext } from '../context';
import { markOffline, presenceThresholds, staleOnlineDevices } from '../modules/agents';

// Device presence: an `online` device whose agent holds no socket and whose last heartbeat is older than three
// heartbeat intervals turns `offline` (with `device.offline`). Thresholds follow AGENT_HEARTBEAT_SECONDS, so a
// test with a one-second interval sees presence change within seconds. State lives in the devices table: after
// a restart the first sweep picks up where the previous process left off.

const SWEEP_INTERVAL_MS = 10_000;

/** Turns stale online devices offline; returns their ids. */
export function sweepDevicePresence(ctx: AppContext, nowMs = Date.now()): string[] {
  const { staleMs } = presenceThresholds(ctx.config.agentHeartbeatSeconds);
  const cutoff = new Date(nowMs - staleMs).toISOString();
  const turned: string[] = [];
  for (const device of staleOnlineDevices(ctx.db, cutoff)) {
    if (ctx.agentHub.isConnected(device.id)) continue;
    if (markOffline(ctx, device)) turned.push(device.id);
  }
  return turned;
}

export function startDevicePresence(ctx: AppContext, intervalMs = SWEEP_INTERVAL_MS): () => void {
  const timer = setInterval(() => {
    try {
      sweepDevicePresence(ctx);
    } catch (err) {
      ctx.log.error({ err }, 'device presence sweep failed');
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
