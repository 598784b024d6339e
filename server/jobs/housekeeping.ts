import type { AppContext } from '../context';
import { transaction } from '../db/after-commit';
import { purgeCountersBefore } from '../http/rate-limit-store';
import { deleteExpiredRows, optimizePlanner } from './housekeeping-store';

// Removes rows that can no longer be used: expired MFA challenges and setups, refresh tokens, emailed tokens and
// SMS codes past their expiry, rate-limit windows long over and known-good sign-in addresses long unused. Runs at start and then every ten minutes, and
// keeps the query planner's statistics fresh: saved filters over tens of thousands of devices pick their index
// from them.

const INTERVAL_MS = 10 * 60 * 1000;

export function runHousekeeping(ctx: AppContext, now = new Date()): void {
  const iso = now.toISOString();
  const { db } = ctx;
  transaction(db, () => {
    deleteExpiredRows(db, iso);
    purgeCountersBefore(db, Math.floor(now.getTime() / 1000) - 24 * 3600);
    ctx.guard.prune(now.getTime());
  });
  optimizePlanner(db);
}

export function startHousekeeping(ctx: AppContext): () => void {
  const tick = () => {
    try {
      runHousekeeping(ctx);
    } catch (err) {
      ctx.log.error({ err }, 'housekeeping failed');
    }
  };
  tick();
  const timer = setInterval(tick, INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
