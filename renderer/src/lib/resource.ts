import { useCallback, useEffect, useState } from 'react';
import type { Pagination } from '../../../server/contract';
import { api } from './api/client';

export interface Resource<T> {
  data: T | undefined;
  error: unknown;
  /** True until the first answer for this path arrives (reloads keep showing the previous data). */
  loading: boolean;
  reload: () => void;
}

interface Loaded<T> {
  path: string;
  version: number;
  data?: T;
  error?: unknown;
}

/** GET `path` (null: nothing to load yet). Reloads keep the previous answer on screen until the new one lands. */
export function useResource<T>(path: string | null): Resource<T> {
  const [version, setVersion] = useState(0);
  const [state, setState] = useState<Loaded<T> | null>(null);

  useEffect(() => {
    if (path === null) return;
    let cancelled = false;
    api<T>(path).then(
      (data) => {
        if (!cancelled) setState({ path, version, data });
      },
      (error: unknown) => {
        if (!cancelled) setState({ path, version, error });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [path, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const samePath = state !== null && state.path === path;
  return {
    data: samePath ? state.data : undefined,
    error: samePath && state.version === version ? state.error : undefined,
    loading: path !== null && !samePath,
    reload,
  };
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
