import type { FilterConditionGroup, FilterPreview } from '../../../../server/contract';
import { useLatestRead, type LatestRead } from '../../lib/latest-read';
import { filtersApi } from './api';

// Live preview while the technician edits: POST /filters/preview, debounced, the latest edit wins (an answer
// for an older edit is dropped). `conditions` null means "not sendable yet" and keeps the last answer on screen.

export type PreviewState = LatestRead<FilterPreview['data']>;

const DEBOUNCE_MS = 350;

export function useFilterPreview(conditions: FilterConditionGroup | null, limit = 10): PreviewState {
  return useLatestRead(
    conditions === null ? null : { conditions, limit },
    (input, signal) => filtersApi.preview(input.conditions, input.limit, signal).then((res) => res.data),
    DEBOUNCE_MS,
  );
}
