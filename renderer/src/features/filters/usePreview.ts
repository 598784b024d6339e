import { useEffect, useState } from 'react';
import type { FilterConditionGroup, FilterPreview } from '../../../../server/contract';

import { filtersApi } from './api';

// Live preview while the technician edits: POST /filters/preview, debounced, the latest edit wins (an answer
// for an older edit is dropped). `conditions` null means "not sendable yet" and keeps the last answer on screen.

export interface PreviewState {
  data: FilterPreview['data'] | null;
  error: unknown;
  /** A request for the current conditions is waiting or in flight. */
  pending: boolean;
  /** The shown answer belongs to an earlier edit. */
  stale: boolean;
}

const DEBOUNCE_MS = 350;

interface Answer {
  key: string;
  data: FilterPreview['data'] | null;
  error: unknown;
}

export function useFilterPreview(conditions: FilterConditionGroup | null, limit = 10): PreviewState {
  const key = conditions ? JSON.stringify(conditions) : null;
  const [answer, setAnswer] = useState<Answer | null>(null);

  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      filtersApi.preview(JSON.parse(key) as FilterConditionGroup, limit, controller.signal).then(
        (res) => setAnswer({ key, data: res.data, error: null }),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setAnswer((prev) => ({ key, data: prev?.data ?? null, error }));
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key, limit]);

  const current = answer !== null && answer.key === key;
  return {
    data: answer?.data ?? null,
    error: current ? answer.error : null,
    pending: key !== null && !current,
    stale: answer !== null && !current,
  };
}
