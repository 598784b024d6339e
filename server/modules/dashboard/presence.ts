import type { AppContext } from '../../context';
import type { DashboardPresencePoint } from '../../contract';
import type { Clause } from '../devices';
import { presenceChangesSince, presenceDevices, recordPresenceChange } from './store';

// The 24-hour presence chart. Every online/offline transition the agents module announces is recorded (one row
// per change, kept 7 days by server/jobs/presence-history.ts); a series for any set of devices is then a sweep:
// each device starts in the state opposite to its first recorded change after the window opens (or, without one,
// in the state it is in now), and each change moves the count. So a technician limited to sites or device
// groups gets the series of exactly their devices, which per-organization samples could not give.

export const PRESENCE_STEP_MS = 5 * 60 * 1000;
export const PRESENCE_POINTS = (24 * 60 * 60 * 1000) / PRESENCE_STEP_MS;

/**
 * Records the transitions inside the transaction that makes them (an enrollment, a batch of online/offline
 * changes), so a change and its history row commit together. Returns the unsubscribe function.
 */
export function subscribePresenceHistory(ctx: Pick<AppContext, 'bus' | 'db' | 'log'>): () => void {
  const offs = [
    ctx.bus.onWithinTransaction('device.enrolled', (m) =>
      recordPresenceChange(ctx.db, m.data.deviceId, true, m.at),
    ),
    ctx.bus.onWithinTransaction('device.presence_changed', (m) => {
      for (const change of m.data.changes)
        recordPresenceChange(ctx.db, change.deviceId, change.status === 'online', m.at);
    }),
  ];
  return () => offs.forEach((off) => off());
}

interface Step {
  at: number;
  deviceId: string;
  online: boolean;
}

/** Devices online and not online every 5 minutes over the 24 hours ending at `nowMs`, oldest first. */
export function presenceSeries(
  ctx: Pick<AppContext, 'db'>,
  clauses: readonly Clause[],
  nowMs: number,
): DashboardPresencePoint[] {
  const times = Array.from(
    { length: PRESENCE_POINTS },
    (_, i) => nowMs - (PRESENCE_POINTS - 1 - i) * PRESENCE_STEP_MS,
  );
  const start = times[0] ?? nowMs;
  const devices = presenceDevices(ctx.db, clauses);
  const changes = presenceChangesSince(ctx.db, clauses, new Date(start).toISOString());

  const firstChange = new Map<string, { online: boolean; at: number }>();
  for (const c of changes)
    if (!firstChange.has(c.device_id))
      firstChange.set(c.device_id, { online: c.online === 1, at: Date.parse(c.at) });
  // A device enters the count when it was enrolled (or at the window's start), in the state its first change
  // left (the opposite of that change), else in the state it is in now.
  const steps: Step[] = devices.map((d) => {
    const first = firstChange.get(d.id);
    const enters = Math.max(start, Date.parse(d.enrolled_at));
    return {
      // Never after its first change (clocks of the two writes may differ by a millisecond).
      at: first ? Math.min(enters, first.at) : enters,
      deviceId: d.id,
      online: first ? !first.online : d.online === 1,
    };
  });
  for (const c of changes)
    steps.push({ at: Date.parse(c.at), deviceId: c.device_id, online: c.online === 1 });
  steps.sort((a, b) => a.at - b.at);

  const state = new Map<string, boolean>();
  let online = 0;
  let next = 0;
  return times.map((t) => {
    for (; next < steps.length && (steps[next]?.at ?? Infinity) <= t; next++) {
      const step = steps[next];
      if (!step) continue;
      const was = state.get(step.deviceId);
      if (was === true) online--;
      if (step.online) online++;
      state.set(step.deviceId, step.online);
    }
    return { at: new Date(t).toISOString(), online, offline: state.size - online };
  });
}
