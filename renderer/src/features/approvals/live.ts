import type { ElevationRequest } from '../../../../server/contract';
import { useLiveEvent } from '../../lib/live/useLiveEvent';

// `elevation.*` events from the console socket (payload: the ElevationRequest as it now stands), typed by the
// contract's ConsoleEventMap.

/** Runs `onEvent` for every elevation event that arrives while the calling component is mounted. */
export function useElevationEvents(onEvent: (event: string, request: ElevationRequest) => void): void {
  useLiveEvent('elevation.*', (e) => onEvent(e.event, e.data));
}

/** The statuses /pam/active lists (with a future expiresAt). */
export const ACTIVE_STATUSES: ReadonlySet<string> = new Set(['approved', 'auto_approved', 'actuating']);

/** Replace the row with the same id, or add `row` (at the end, or where `place` says). */
export function upsert(
  rows: ElevationRequest[],
  row: ElevationRequest,
  place: 'start' | 'end' = 'end',
): ElevationRequest[] {
  const at = rows.findIndex((r) => r.id === row.id);
  if (at >= 0) return rows.map((r, i) => (i === at ? row : r));
  return place === 'start' ? [row, ...rows] : [...rows, row];
}

/** The rows without `id`, or null when it was not among them (nothing to patch). */
export function without(rows: ElevationRequest[], id: string): ElevationRequest[] | null {
  return rows.some((r) => r.id === id) ? rows.filter((r) => r.id !== id) : null;
}
