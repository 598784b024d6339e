import type { AppContext } from '../context';
import { runAuditRetention } from '../modules/audit';

// Audit retention (spec 2 "Retention policy"): every hour, each organization's entries older than its window are
// removed in batches, with the chain's anchor moved in the same transaction (audit/retention.ts). Its state is in
// SQLite (audit_retention.last_cleanup_at, audit_chain_anchors), so a restart loses nothing: the first pass after
// it removes whatever aged out meanwhile. One pass at a time: a long cut is never overlapped by the next tick.

const INTERVAL_MS = 60 * 60 * 1000;
/** The first pass waits a little, so a starting server answers its first requests before cutting. */
const FIRST_PASS_MS = 30_000;

export function startAuditRetention(ctx: AppContext, intervalMs = INTERVAL_MS): () => void {
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    runAuditRetention(ctx)
      .then((cut) => {
        if (cut.length > 0) ctx.log.info({ organizations: cut }, 'audit retention removed old entries');
      })
      .catch((err: unknown) => ctx.log.error({ err }, 'audit retention failed'))
      .finally(() => {
        running = false;
      });
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
