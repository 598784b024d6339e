import type { AppContext } from '../context';
import { applyPresence, presenceThresholds, staleOnlineDevices } from '../modules/agents';

// Device presence: an `online` device whose agent holds no socket and whose last heartbeat is older than three
// heartbeat intervals turns `offline` (with `device.offline`). Thresholds follow AGENT_HEARTBEAT_SECONDS, so a
// test with a one-second interval sees presence change within seconds. State lives in the devices table: after
// a restart the first sweep picks up where the previous process left off.

const SWEEP_INTERVAL_MS = 10_000;
/** Devices turned offline per transaction (and per `device.presence_changed` of an organization). */
const SLICE = 500;

/** Turns stale online devices offline; returns their ids. */
export function sweepDevicePresence(ctx: AppContext, nowMs = Date.now()): string[] {
  const { staleMs } = presenceThresholds(ctx.config.agentHeartbeatSeconds);
  const cutoff = new Date(nowMs - staleMs).toISOString();
  const stale = staleOnlineDevices(ctx.db, cutoff).filter((d) => !ctx.agentHub.isConnected(d.id));
  const turned: string[] = [];
  for (let i = 0; i < stale.length; i += SLICE) {
    const intents = stale
      .slice(i, i + SLICE)
      .map((d) => ({ deviceId: d.id, online: false, unseenSince: cutoff }));
    for (const device of applyPresence(ctx, intents)) turned.push(device.id);
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
