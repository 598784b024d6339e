import type {
  AccessReviewCompleted,
  AccessReviewCreated,
  AccessReviewDecision,
  AccessReviewDetail,
  AccessReviewItemDecided,
  AccessReviewListResponse,
  UserListResponse,
} from '../../../../server/contract';
import { api } from '../../lib/api/client';
import { qs } from '../../lib/forms';
import { useApiQuery, type QueryState } from '../../lib/query';

// The /access-reviews endpoints (spec 1), typed by the contract, and their cached reads. Every key starts with
// 'access-reviews' so a live push (live.ts) finds what it must patch or re-read.

export interface CreateReviewBody {
  name: string;
  description?: string;
  /** YYYY-MM-DD: due at the end of that day (UTC). */
  dueDate?: string;
  reviewerId?: string;
}

const reviewPath = (id: string) => `/access-reviews/${encodeURIComponent(id)}`;

export const reviewsApi = {
  list: () => api<AccessReviewListResponse>('/access-reviews'),
  get: (id: string) => api<AccessReviewDetail>(reviewPath(id)),
  create: (body: CreateReviewBody) => api<AccessReviewCreated>('/access-reviews', { method: 'POST', body }),
  decide: (id: string, itemId: string, body: { decision: AccessReviewDecision; notes?: string | null }) =>
    api<AccessReviewItemDecided>(`${reviewPath(id)}/items/${encodeURIComponent(itemId)}`, {
      method: 'PATCH',
      body,
    }),
  complete: (id: string) =>
    api<AccessReviewCompleted>(`${reviewPath(id)}/complete`, { method: 'POST', body: {} }),
  /** The people of the caller's tenant, for the reviewer picker (the picker keeps the tenant's own members). */
  people: () => api<UserListResponse>(`/users${qs({ status: 'active', limit: 100 })}`),
};

export const reviewsKeys = {
  all: ['access-reviews'] as const,
  list: ['access-reviews', 'list'] as const,
  detail: (id: string) => ['access-reviews', 'detail', id] as const,
  people: ['access-reviews', 'people'] as const,
};

export function useReviewList(): QueryState<AccessReviewListResponse> {
  return useApiQuery(reviewsKeys.list, reviewsApi.list);
}

export function useReview(id: string): QueryState<AccessReviewDetail> {
  return useApiQuery(reviewsKeys.detail(id), () => reviewsApi.get(id));
}

/** Read only while the create dialog is open. */
export function usePeople(enabled: boolean): QueryState<UserListResponse> {
  return useApiQuery(enabled ? reviewsKeys.people : null, reviewsApi.people);
}
