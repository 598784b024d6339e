import { useCallback, useEffect, useRef, useState } from 'react';
import type { ElevationRequest, ElevationRequestList, Pagination } from '../../../../server/contract';
import { api } from '../../lib/api/client';
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
  path: string | null,
  select: (response: R) => { rows: ElevationRequest[]; pagination: Pagination | null },
  patch: Patch,
): LiveList {
  const [rows, setRows] = useState<ElevationRequest[] | null>(null);
  const [pagination, setPagination] = useState<Pagination | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [version, setVersion] = useState(0);
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const selectRef = useRef(select);
  useEffect(() => {
    selectRef.current = select;
  });

  useEffect(() => {
    if (path === null) return;
    let cancelled = false;
    api<R>(path).then(
      (response) => {
        if (cancelled) return;
        const picked = selectRef.current(response);
        setRows(picked.rows);
        setPagination(picked.pagination);
        setError(null);
      },
      (err: unknown) => {
        if (!cancelled) setError(err);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [path, version]);

  // Another query: forget the old rows so the table does not show them under the new filters.
  const [shownPath, setShownPath] = useState(path);
  if (shownPath !== path) {
    setShownPath(path);
    setRows(null);
    setPagination(null);
    setError(null);
  }

  const reload = useCallback(() => setVersion((v) => v + 1), []);

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

  useElevationEvents((event, request) => {
    const current = rowsRef.current;
    if (current === null) return;
    const next = patch(current, event, request);
    if (next !== 'refetch' && next !== null && next !== current) {
      rowsRef.current = next;
      setRows(next);
      if (!current.some((r) => r.id === request.id) && next.some((r) => r.id === request.id))
        markFresh(request.id);
    }
    if (next !== null) scheduleReload();
  });

  return { rows, pagination, error, reload, fresh };
}
