import type {
  AccessReviewDetail,
  AccessReviewListResponse,
  CreateReviewBody,
  DecideItemBody,
  UserListResponse,
} from '../../../../server/contract';
import { call } from '../../lib/api/endpoints';
import { useApiQuery, type QueryState } from '../../lib/query';

export type { CreateReviewBody };

// The /access-reviews endpoints (spec 1), typed by the contract, and their cached reads. Every key starts with
// 'access-reviews' so a live push (live.ts) finds what it must patch or re-read.

export const reviewsApi = {
  list: () => call('GET /access-reviews'),
  get: (id: string) => call('GET /access-reviews/:id', { params: { id } }),
  create: (body: CreateReviewBody) => call('POST /access-reviews', { body }),
  decide: (id: string, itemId: string, body: DecideItemBody) =>
    call('PATCH /access-reviews/:id/items/:itemId', { params: { id, itemId }, body }),
  complete: (id: string) => call('POST /access-reviews/:id/complete', { params: { id } }),
  /** The people of the caller's tenant, for the reviewer picker (the picker keeps the tenant's own members). */
  people: () => call('GET /users', { query: { status: 'active', limit: 100 } }),
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
