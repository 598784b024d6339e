import { QueryClient, useQuery, type QueryKey } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { Pagination } from '../../../server/contract';

// The console's one query cache. Every read goes through it under a key from its feature's api.ts whose first
// part names the feature or resource; live pushes patch or invalidate entries here (devices/api.ts
// registerDeviceLiveCache, approvals/useLiveList) instead of each screen re-reading its lists.

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A failed read is shown at once with a Retry; the screens decide when to try again.
      retry: false,
      refetchOnWindowFocus: false,
      // Fresh on every mount (as the screens always were), cached answers shown meanwhile.
      staleTime: 0,
    },
  },
});

/**
 * A write whose success makes cached reads stale: those under `queryKey` (every one, without it) are read again
 * when next shown. The write's own answer passes through.
 */
export async function staleAfter<T>(write: Promise<T>, queryKey?: QueryKey): Promise<T> {
  const result = await write;
  void queryClient.invalidateQueries(queryKey ? { queryKey } : undefined);
  return result;
}

export interface QueryState<T> {
  data: T | undefined;
  error: unknown;
  /** True until the first answer for this key arrives (refetches keep showing the previous data). */
  loading: boolean;
  reload: () => void;
}

/**
 * One cached read: `fetch` (a typed endpoint function from a feature's api.ts) under `key`; `key: null` reads
 * nothing yet. Reloads keep the previous answer on screen until the new one lands.
 */
export function useApiQuery<T>(key: QueryKey | null, fetch: () => Promise<T>): QueryState<T> {
  const query = useQuery({ queryKey: key ?? ['disabled'], queryFn: fetch, enabled: key !== null });
  const { refetch } = query;
  const reload = useCallback(() => void refetch(), [refetch]);
  return {
    data: key === null ? undefined : query.data,
    error: query.isFetching ? null : query.error,
    loading: key !== null && query.data === undefined && query.error === null,
    reload,
  };
}

/** What a load state (LoadState, DetailPlaceholder) needs of a TanStack query: its error, and a retry. */
export function loadStateOf(query: { error: unknown; refetch: () => unknown }): {
  error: unknown;
  reload: () => void;
} {
  return { error: query.error, reload: () => void query.refetch() };
}

/** List endpoints answer either a bare array or `{data: [...]}` (paginated or not). */
export function asList<T>(value: T[] | { data: T[] } | undefined | null): T[] {
  if (!value) return [];
  return Array.isArray(value) ? value : Array.isArray(value.data) ? value.data : [];
}

export function paginationOf(value: unknown): Pagination | null {
  if (value && typeof value === 'object' && 'pagination' in value) {
    const p = (value as { pagination: unknown }).pagination;
    if (p && typeof p === 'object' && 'total' in p) return p as Pagination;
  }
  return null;
}
