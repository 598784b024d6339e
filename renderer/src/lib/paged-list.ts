import { keepPreviousData, useInfiniteQuery, type InfiniteData, type QueryKey } from '@tanstack/react-query';
import type { Paginated } from '../../../server/contract';

// A long list read page after page as the technician scrolls (the kit's VirtualTable asks for the next page a
// little before the loaded rows run out), cached under one key. A row that moved to a later page between two
// reads (new rows arrived on top) is shown once.

export interface PagedList<T> {
  /** The rows of the current query, or of the previous one while the new one loads. */
  rows: T[];
  total: number;
  /** Nothing loaded yet at all. */
  loading: boolean;
  /** Showing the previous query's rows while the current one loads. */
  switching: boolean;
  loadingMore: boolean;
  error: unknown;
  loadMore: () => void;
  reload: () => void;
}

function rowsOf<T extends { id: string }>(data: InfiniteData<Paginated<T>> | undefined): T[] {
  const seen = new Set<string>();
  const rows: T[] = [];
  for (const page of data?.pages ?? []) {
    for (const row of page.data) {
      if (!seen.has(row.id)) {
        seen.add(row.id);
        rows.push(row);
      }
    }
  }
  return rows;
}

export function usePagedList<T extends { id: string }>(
  key: QueryKey,
  fetchPage: (page: number) => Promise<Paginated<T>>,
  options: { refetchInterval?: number } = {},
): PagedList<T> {
  const q = useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      pages.reduce((n, p) => n + p.data.length, 0) < last.pagination.total && last.data.length > 0
        ? pages.length + 1
        : undefined,
    placeholderData: keepPreviousData,
    refetchInterval: options.refetchInterval,
  });
  const rows = rowsOf(q.data);
  const last = q.data?.pages[q.data.pages.length - 1];
  const { fetchNextPage, hasNextPage, isFetchingNextPage, refetch } = q;
  return {
    rows,
    total: last?.pagination.total ?? rows.length,
    loading: q.data === undefined && !q.error,
    switching: q.isPlaceholderData,
    loadingMore: isFetchingNextPage,
    error: q.error,
    loadMore: () => {
      if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
    },
    reload: () => void refetch(),
  };
}
