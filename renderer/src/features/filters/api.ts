import type {
  FilterConditionGroup,
  SavedFilterList,
  FilterPreview,
  SavedFilter,
} from '../../../../server/contract';
import { api } from '../../lib/api/client';
import { qs } from '../../lib/forms';
import { useApiQuery, type QueryState } from '../../lib/query';

// The saved-filter endpoints (spec 2, filters), typed by the contract.

type Body = Record<string, unknown>;

export const filtersApi = {
  create: (body: Body) => api<SavedFilter>('/filters', { method: 'POST', body }),
  update: (id: string, body: Body) => api<SavedFilter>(`/filters/${id}`, { method: 'PATCH', body }),
  remove: (id: string) => api<void>(`/filters/${id}`, { method: 'DELETE' }),
  preview: (conditions: FilterConditionGroup, limit: number, signal?: AbortSignal) =>
    api<FilterPreview>('/filters/preview', { method: 'POST', body: { conditions, limit }, signal }),
};

export const filtersKeys = {
  list: (search: string) => ['filters', 'list', search] as const,
  one: (id: string) => ['filters', 'one', id] as const,
};

export function useFilterList(search: string): QueryState<SavedFilterList> {
  return useApiQuery(filtersKeys.list(search), () => api<SavedFilterList>(`/filters${qs({ search })}`));
}

/** One saved filter (null: none chosen). */
export function useSavedFilter(id: string | null): QueryState<SavedFilter> {
  return useApiQuery(id ? filtersKeys.one(id) : null, () =>
    api<SavedFilter>(`/filters/${encodeURIComponent(id ?? '')}`),
  );
}
