import { api } from './api/client';
import { apiKey, useApiQuery, type QueryState } from './query';

export { asList, paginationOf } from './query';
export type Resource<T> = QueryState<T>;

/**
 * A cached GET of `path` (null: nothing to load yet), for the administration screens whose endpoints have no
 * typed function yet. Pushes and writes invalidate it by path (lib/live/cache.ts, `invalidatePath`).
 */
export function useResource<T>(path: string | null): Resource<T> {
  return useApiQuery<T>(path === null ? null : apiKey(path), () => api<T>(path ?? ''));
}
