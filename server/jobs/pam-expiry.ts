import type { AppContext } from '../context';
import { sweepElevationExpiry } from '../modules/pam';

// The PAM expiry enforcer (DESIGN §5): ended approval windows, undecided pending requests and unconfirmed
// actuations, every few seconds. Its state is the elevation_requests table, so a restart loses nothing: the first
// sweep after it catches up on whatever ended while the server was down.

const SWEEP_INTERVAL_MS = 5_000;

export function startPamExpiry(ctx: AppContext, intervalMs = SWEEP_INTERVAL_MS): () => void {
  const timer = setInterval(() => {
    try {
      sweepElevationExpiry(ctx);
    } catch (err) {
      ctx.log.error({ err }, 'PAM expiry sweep failed');
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
