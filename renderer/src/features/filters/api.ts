import type {
  FilterConditionGroup,
  SavedFilterList,
  FilterPreview,
  SavedFilter,
} from '../../../../server/contract';
import { api } from '../../lib/api/client';
import { qs } from '../../lib/forms';
import { apiKey, useApiQuery, type QueryState } from '../../lib/query';

// The saved-filter endpoints (spec 2, filters), typed by the contract.

type Body = Record<string, unknown>;

export const filtersApi = {
  create: (body: Body) => api<SavedFilter>('/filters', { method: 'POST', body }),
  update: (id: string, body: Body) => api<SavedFilter>(`/filters/${id}`, { method: 'PATCH', body }),
  remove: (id: string) => api<void>(`/filters/${id}`, { method: 'DELETE' }),
  preview: (conditions: FilterConditionGroup, limit: number, signal?: AbortSignal) =>
    api<FilterPreview>('/filters/preview', { method: 'POST', body: { conditions, limit }, signal }),
};

export function useFilterList(search: string): QueryState<SavedFilterList> {
  const path = `/filters${qs({ search })}`;
  return useApiQuery(apiKey(path), () => api<SavedFilterList>(path));
}

/** One saved filter (null: none chosen). */
export function useSavedFilter(id: string | null): QueryState<SavedFilter> {
  const path = id ? `/filters/${encodeURIComponent(id)}` : null;
  return useApiQuery(path === null ? null : apiKey(path), () => api<SavedFilter>(path ?? ''));
}
