import { useMemo, useState } from 'react';
import type { ElevationRequest } from '../../../../server/contract';
import { useDebouncedCallback } from '../../lib/hooks';
import type { PagedList } from '../../lib/paged-list';
import type { InboxFilters } from './api';
import { matchesInbox } from './inbox-filters';
import { useElevationEvents } from './live';

// The inbox's rows as they stand this second: a request that arrives live is pinned at the top, highlighted, for
// a few seconds (then the re-read list puts it in its triage place); a request decided anywhere leaves at once.
// The paged list is re-read shortly after each burst of events for totals and order.

const PINNED_MS = 6000;
const REFETCH_AFTER_EVENT_MS = 1200;

export interface InboxRows {
  rows: ElevationRequest[];
  /** Ids of rows pinned because they just arrived. */
  fresh: ReadonlySet<string>;
  /** Requests that arrived or left since the list was last read (the total shown is adjusted by it). */
  delta: number;
}

export function useInboxRows(list: PagedList<ElevationRequest>, filters: InboxFilters): InboxRows {
  const [arrivals, setArrivals] = useState<ElevationRequest[]>([]);
  // Decided requests never wait again, so their ids can stay hidden for the life of the screen.
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set());
  const scheduleReload = useDebouncedCallback(list.reload, REFETCH_AFTER_EVENT_MS);

  useElevationEvents((_event, request) => {
    if (matchesInbox(request, filters)) {
      if (!list.rows.some((r) => r.id === request.id)) {
        setArrivals((a) => [request, ...a.filter((x) => x.id !== request.id)]);
        setTimeout(() => setArrivals((a) => a.filter((x) => x.id !== request.id)), PINNED_MS);
      }
    } else if (request.status !== 'pending') {
      setArrivals((a) => a.filter((x) => x.id !== request.id));
      setGone((g) => new Set(g).add(request.id));
    }
    scheduleReload();
  });

  return useMemo(() => {
    const pinned = arrivals.filter((a) => !gone.has(a.id));
    const pinnedIds = new Set(pinned.map((a) => a.id));
    const rest = list.rows.filter((r) => !gone.has(r.id) && !pinnedIds.has(r.id));
    const newOnes = pinned.filter((a) => !list.rows.some((r) => r.id === a.id)).length;
    const left = list.rows.filter((r) => gone.has(r.id)).length;
    return { rows: [...pinned, ...rest], fresh: pinnedIds, delta: newOnes - left };
  }, [arrivals, gone, list.rows]);
}
