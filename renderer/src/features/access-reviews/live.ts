import type {
  AccessReviewDetail,
  AccessReviewItem,
  AccessReviewListResponse,
  AccessReviewSummary,
} from '../../../../server/contract';
import { useLiveEvent } from '../../lib/live/useLiveEvent';
import { queryClient } from '../../lib/query';
import { reviewsKeys } from './api';

// `access_review.*` pushes kept in the query cache, so two reviewers working on one review see each other's
// decisions as they are made: a decision replaces its item and the review's counts in the cached review and
// list; a new review joins the list; a completion re-reads the review (its people may have lost access). The
// server sends a review's pushes only to consoles of its partner or organization.

/** The cached review after a push: the summary fields replaced, and the item (when there is one) swapped in. */
export function patchReview(
  cached: AccessReviewDetail,
  review: AccessReviewSummary,
  item?: AccessReviewItem,
): AccessReviewDetail {
  return {
    ...cached,
    ...review,
    items: item ? cached.items.map((i) => (i.id === item.id ? item : i)) : cached.items,
  };
}

/** The cached list after a push about `review`: replaced in place, or added at the end (oldest first). */
export function patchList(
  list: AccessReviewListResponse,
  review: AccessReviewSummary,
): AccessReviewListResponse {
  const at = list.data.findIndex((r) => r.id === review.id);
  return {
    data: at >= 0 ? list.data.map((r, i) => (i === at ? review : r)) : [...list.data, review],
  };
}

function applySummary(review: AccessReviewSummary, item?: AccessReviewItem): void {
  queryClient.setQueryData<AccessReviewListResponse>(reviewsKeys.list, (list) =>
    list ? patchList(list, review) : list,
  );
  queryClient.setQueryData<AccessReviewDetail>(reviewsKeys.detail(review.id), (cached) =>
    cached ? patchReview(cached, review, item) : cached,
  );
}

/** Keeps every cached review read current with the pushes while an access-review screen is open. */
export function useReviewPushes(): void {
  useLiveEvent('access_review.*', (event) => {
    if (event.event === 'access_review.item_updated') {
      applySummary(event.data.review, event.data.item);
      return;
    }
    applySummary(event.data.review);
    if (event.event === 'access_review.completed')
      void queryClient.invalidateQueries({ queryKey: reviewsKeys.detail(event.data.review.id) });
  });
}
