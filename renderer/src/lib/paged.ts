import { useCallback, useEffect, useState } from 'react';
import type { Paginated, Pagination } from '../../../server/contract';
import { api, errorMessage } from './api/client';

/**
 * One page of a paginated list endpoint (`{data, pagination}`), refetched when `path` (with its query) changes or
 * `reload()` is called. A late answer to an old path is dropped; a failed reload keeps the rows already shown.
 */
export function usePagedList<T>(path: string): {
  rows: T[] | null;
  pagination: Pagination | null;
  error: string | null;
  reload: () => void;
  /** Bumped by reload(): lets dependent lookups refresh together with the list. */
  reloadTick: number;
} {
  const [rows, setRows] = useState<T[] | null>(null);
  const [pagination, setPagination] = useState<Pagination | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reloadTick, setReloadTick] = useState(0);
  const reload = useCallback(() => setReloadTick((n) => n + 1), []);

  useEffect(() => {
    let cancelled = false;
    api<Paginated<T>>(path)
      .then((res) => {
        if (cancelled) return;
        setRows(res.data);
        setPagination(res.pagination);
        setError(null);
      })
      .catch((err: unknown) => {
        if (cancelled) return;
        setError(errorMessage(err));
        setRows((prev) => prev ?? []);
      });
    return () => {
      cancelled = true;
    };
  }, [path, reloadTick]);

  return { rows, pagination, error, reload, reloadTick };
}
