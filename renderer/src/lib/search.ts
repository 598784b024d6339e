import { useQuery } from '@tanstack/react-query';
import type { SearchResult } from '../../../server/contract';
import { call } from './api/endpoints';
import { errorMessage } from './errors';
import { useDebounced } from './hooks';

// The global search (spec 2, GET /search), typed by the contract: one cached read per settled query text.

export const searchKeys = {
  query: (q: string, limit: number) => ['search', q, limit] as const,
};

export const searchApi = {
  search: (q: string, limit: number, signal?: AbortSignal) =>
    call('GET /search', { query: { q, limit }, signal }),
};

export interface SearchAnswer {
  results?: SearchResult[];
  error?: string;
}

/**
 * The answer for `q` once typing has paused for `debounceMs`; null while `q` is empty, still changing or its
 * answer is on its way (an answer for older text is never shown).
 */
export function useSearch(q: string, limit: number, debounceMs: number): SearchAnswer | null {
  const settled = useDebounced(q, debounceMs);
  const current = q !== '' && settled === q;
  const query = useQuery({
    queryKey: searchKeys.query(settled, limit),
    queryFn: ({ signal }) => searchApi.search(settled, limit, signal),
    enabled: current,
  });
  if (!current) return null;
  if (query.data) return { results: query.data.results };
  if (query.error && !query.isFetching) return { error: errorMessage(query.error) };
  return null;
}
