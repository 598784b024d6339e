import type { AppContext } from '../context';
import { prunePresenceHistory } from '../modules/dashboard';

// The Overview's presence log (server/modules/dashboard/presence.ts) keeps 7 days: every hour, older changes are
// removed. Nothing else is held in memory, so a restart loses nothing; the first pass after start catches up.

const INTERVAL_MS = 60 * 60 * 1000;
/** The first pass waits a little, so a starting server answers its first requests first. */
const FIRST_PASS_MS = 60_000;

export function startPresenceHistoryPruning(ctx: AppContext, intervalMs = INTERVAL_MS): () => void {
  const tick = () => {
    try {
      const removed = prunePresenceHistory(ctx);
      if (removed > 0) ctx.log.debug({ removed }, 'old presence changes removed');
    } catch (err) {
      ctx.log.error({ err }, 'presence history pruning failed');
    }
  };
  const first = setTimeout(tick, Math.min(FIRST_PASS_MS, intervalMs));
  const timer = setInterval(tick, intervalMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
