import type { AppContext } from '../context';
import { applyPresence, type PresenceIntent } from '../modules/agents';

// The agent hub's presence transitions (a socket opened; a closed socket's grace ran out) wait here a moment and
// are written together: 7,000 agents stopping at once become a few transactions with one `device.presence_changed`
// per organization and slice, instead of one UPDATE, event and console broadcast each (issue 18). Per device only
// the latest wish counts: a close and a reconnect within the window cancel out. Nothing is lost by the wait that
// matters: a crash before the write leaves the previous status, which the staleness sweep and the next socket or
// heartbeat correct.

/** How long transitions gather before they are written. */
const FLUSH_MS = 200;
/** At most this many transitions per transaction; the event loop runs between slices. */
const SLICE = 500;

export interface PresenceQueue {
  queue(intent: PresenceIntent): void;
  /** Writes everything pending now (shutdown). */
  flush(): void;
  close(): void;
}

export function createPresenceQueue(ctx: AppContext, flushMs = FLUSH_MS): PresenceQueue {
  const pending = new Map<string, PresenceIntent>();
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  const writeSlice = (): void => {
    const slice: PresenceIntent[] = [];
    for (const [deviceId, intent] of pending) {
      pending.delete(deviceId);
      slice.push(intent);
      if (slice.length === SLICE) break;
    }
    try {
      applyPresence(ctx, slice);
    } catch (err) {
      ctx.log.error({ err, devices: slice.length }, 'agent presence changes not written');
    }
  };

  const tick = (): void => {
    timer = null;
    writeSlice();
    if (pending.size > 0 && !closed) timer = setTimeout(tick, 0);
  };

  return {
    queue(intent) {
      if (closed) return;
      pending.delete(intent.deviceId); // the latest wish goes to the back, after what it supersedes
      pending.set(intent.deviceId, intent);
      if (!timer) {
        timer = setTimeout(tick, flushMs);
        timer.unref();
      }
    },
    flush() {
      while (pending.size > 0) writeSlice();
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      if (ctx.db.open) this.flush();
      pending.clear();
    },
  };
}
