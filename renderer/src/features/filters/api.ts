import type {
  FilterConditionGroup,
  SaveFilterBody,
  SavedFilter,
  SavedFilterList,
} from '../../../../server/contract';
import { call } from '../../lib/api/endpoints';
import { useApiQuery, type QueryState } from '../../lib/query';

// The saved-filter endpoints (spec 2, filters), typed by the contract.

export const filtersApi = {
  create: (body: SaveFilterBody) => call('POST /filters', { body }),
  update: (id: string, body: SaveFilterBody) => call('PATCH /filters/:id', { params: { id }, body }),
  remove: (id: string) => call('DELETE /filters/:id', { params: { id } }),
  preview: (conditions: FilterConditionGroup, limit: number, signal?: AbortSignal) =>
    call('POST /filters/preview', { body: { conditions, limit }, signal }),
};

export const filtersKeys = {
  list: (search: string) => ['filters', 'list', search] as const,
  one: (id: string) => ['filters', 'one', id] as const,
};

export function useFilterList(search: string): QueryState<SavedFilterList> {
  return useApiQuery(filtersKeys.list(search), () => call('GET /filters', { query: { search } }));
}

/** One saved filter (null: none chosen). */
export function useSavedFilter(id: string | null): QueryState<SavedFilter> {
  return useApiQuery(id ? filtersKeys.one(id) : null, () =>
    call('GET /filters/:id', { params: { id: id ?? '' } }),
  );
}
