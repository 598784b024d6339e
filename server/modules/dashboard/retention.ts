import type { AppContext } from '../../context';
import { prunePresenceChanges } from './store';

/** How long presence changes are kept: the chart shows 24 hours; a week leaves room for a longer view. */
export const PRESENCE_KEEP_DAYS = 7;

/** Removes presence changes older than the kept window; returns how many. */
export function prunePresenceHistory(ctx: Pick<AppContext, 'db'>, nowMs = Date.now()): number {
  return prunePresenceChanges(
    ctx.db,
    new Date(nowMs - PRESENCE_KEEP_DAYS * 24 * 60 * 60 * 1000).toISOString(),
  );
}
