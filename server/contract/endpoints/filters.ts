import type { FilterConditionGroup, FilterPreview, SavedFilter, SavedFilterList } from '../filters';
import type { Endpoint } from './endpoint';

// /filters (spec 2 Saved filters).

/** What the console writes of a saved filter, created or edited; `orgId` only where the caller must choose it. */
export interface SaveFilterBody {
  name: string;
  description: string | null;
  conditions: FilterConditionGroup;
  orgId?: string;
}

export interface FilterPreviewBody {
  conditions: FilterConditionGroup;
  limit: number;
}

export interface FilterEndpoints {
  'GET /filters': Endpoint<SavedFilterList, undefined, { search: string }>;
  'POST /filters': Endpoint<SavedFilter, SaveFilterBody>;
  'POST /filters/preview': Endpoint<FilterPreview, FilterPreviewBody>;
  'GET /filters/:id': Endpoint<SavedFilter>;
  'PATCH /filters/:id': Endpoint<SavedFilter, SaveFilterBody>;
  /** Answers with the deleted filter. */
  'DELETE /filters/:id': Endpoint<SavedFilter>;
}
