import { useEffect, useRef } from 'react';
import type { ElevationRequest } from '../../../../server/contract';
import { useLive, type LiveEvent } from '../../lib/live/socket';

// `elevation.*` events from the console socket (payload: the ElevationRequest as it now stands). The socket
// keeps the latest 50 events; we follow its sequence numbers so none is handled twice.

export function isElevationRequest(data: unknown): data is ElevationRequest {
  if (!data || typeof data !== 'object') return false;
  const d = data as Record<string, unknown>;
  return typeof d.id === 'string' && typeof d.status === 'string' && typeof d.deviceId === 'string';
}

/** Calls `handle` for each elevation event in `events` newer than `last` (oldest first); returns the newest seq. */
export function drainElevationEvents(
  events: LiveEvent[],
  last: number,
  handle: (event: string, request: ElevationRequest) => void,
): number {
  const fresh = events.filter((e) => e.seq > last);
  if (fresh.length === 0) return last;
  for (const e of [...fresh].reverse()) {
    if (e.event.startsWith('elevation.') && isElevationRequest(e.data)) handle(e.event, e.data);
  }
  return fresh[0]?.seq ?? last;
}

/** Runs `onEvent` for every elevation event that arrives while the calling component is mounted. */
export function useElevationEvents(onEvent: (event: string, request: ElevationRequest) => void): void {
  const handler = useRef(onEvent);
  useEffect(() => {
    handler.current = onEvent;
  });
  useEffect(() => {
    let last = useLive.getState().events[0]?.seq ?? 0;
    return useLive.subscribe((state) => {
      last = drainElevationEvents(state.events, last, (event, request) => handler.current(event, request));
    });
  }, []);
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
