import { useCallback, useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ElevationRequest, ElevationRequestList, Pagination } from '../../../../server/contract';
import { queryClient } from '../../lib/query';
import type { Read } from './api';
import { useDebouncedCallback } from '../../lib/hooks';
import { useElevationEvents } from './live';

// A list of elevation requests that stays current without reloads: a live event patches the rows at once
// (`patch` says how for this list), then the list is re-read shortly after (debounced, so a burst of events is
// one request) to pick up totals and anything the patch could not know.

const REFETCH_AFTER_EVENT_MS = 1200;
/** Rows that arrived live are marked for this long (the table highlights them). */
const FRESH_MS = 6000;

export interface LiveList {
  rows: ElevationRequest[] | null;
  pagination: Pagination | null;
  error: unknown;
  reload: () => void;
  /** Ids of rows that arrived by a live event a moment ago. */
  fresh: ReadonlySet<string>;
}

export type Patch = (
  rows: ElevationRequest[],
  event: string,
  request: ElevationRequest,
) => ElevationRequest[] | 'refetch' | null;

/** `select` for the paged request list (`GET /pam/elevation-requests`). */
export const selectRequests = (r: ElevationRequestList) => ({ rows: r.requests, pagination: r.pagination });

export function useLiveList<R>(
  read: Read<R> | null,
  select: (response: R) => { rows: ElevationRequest[]; pagination: Pagination | null },
  patch: Patch,
): LiveList {
  const query = useQuery({
    queryKey: read?.key ?? ['disabled'],
    queryFn: read?.fetch ?? (() => Promise.reject(new Error('no read'))),
    enabled: read !== null,
  });
  const picked = query.data === undefined ? null : select(query.data);
  const rows = picked?.rows ?? null;
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const { refetch } = query;
  const reload = useCallback(() => void refetch(), [refetch]);
  const scheduleReload = useDebouncedCallback(reload, REFETCH_AFTER_EVENT_MS);

  // Events of one burst arrive in one synchronous loop: the ref lets each patch build on the previous one.
  const rowsRef = useRef(rows);
  useEffect(() => {
    rowsRef.current = rows;
  });
  const markFresh = useCallback((id: string) => {
    setFresh((f) => new Set(f).add(id));
    setTimeout(
      () =>
        setFresh((f) => {
          const copy = new Set(f);
          copy.delete(id);
          return copy;
        }),
      FRESH_MS,
    );
  }, []);

  // A push patches the cached answer in place (every screen showing this list sees it at once); the list is
  // re-read shortly after only when the patch could not know the whole truth (totals, rows from elsewhere).
  const selectRef = useRef(select);
  useEffect(() => {
    selectRef.current = select;
  });
  useElevationEvents((event, request) => {
    const current = rowsRef.current;
    if (current === null || read === null) return;
    const next = patch(current, event, request);
    if (next !== 'refetch' && next !== null && next !== current) {
      rowsRef.current = next;
      queryClient.setQueryData<R>(read.key, (old) =>
        old === undefined ? old : replaceRows(old, selectRef.current(old).rows, next),
      );
      if (!current.some((r) => r.id === request.id) && next.some((r) => r.id === request.id))
        markFresh(request.id);
    }
    if (next !== null) scheduleReload();
  });

  return {
    rows,
    pagination: picked?.pagination ?? null,
    error: query.isFetching ? null : query.error,
    reload,
    fresh,
  };
}

/** `response` with the array `old` (found among its fields) replaced by `rows`. */
function replaceRows<R>(response: R, old: ElevationRequest[], rows: ElevationRequest[]): R {
  if (typeof response !== 'object' || response === null) return response;
  const copy: Record<string, unknown> = { ...(response as Record<string, unknown>) };
  for (const [field, value] of Object.entries(copy)) if (value === old) copy[field] = rows;
  return copy as R;
}
