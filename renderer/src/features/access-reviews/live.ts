import type {
  AccessReviewDetail,
  AccessReviewItem,
  AccessReviewListResponse,
  AccessReviewSummary,
} from '../../../../server/contract';
import { useLiveEvent } from '../../lib/live/useLiveEvent';
import { queryClient } from '../../lib/query';
import { reviewsKeys } from './api';
import { patchList, patchReview } from './model';

// `access_review.*` pushes kept in the query cache, so two reviewers working on one review see each other's
// decisions as they are made: a decision replaces its item and the review's counts in the cached review and
// list; a new review joins the list; a completion re-reads the review (its people may have lost access). The
// server sends a review's pushes only to consoles of its partner or organization.

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
