import type {
  AccessReviewCompleted,
  AccessReviewCreated,
  AccessReviewDecision,
  AccessReviewDetail,
  AccessReviewItemDecided,
  AccessReviewListResponse,
} from '../access-reviews';
import type { Endpoint } from './endpoint';

// /access-reviews (spec 1).

export interface CreateReviewBody {
  name: string;
  description?: string;
  /** YYYY-MM-DD: due at the end of that day (UTC). */
  dueDate?: string;
  reviewerId?: string;
}

export interface DecideItemBody {
  decision: AccessReviewDecision;
  notes?: string | null;
}

export interface AccessReviewEndpoints {
  'GET /access-reviews': Endpoint<AccessReviewListResponse>;
  'POST /access-reviews': Endpoint<AccessReviewCreated, CreateReviewBody>;
  'GET /access-reviews/:id': Endpoint<AccessReviewDetail>;
  'PATCH /access-reviews/:id/items/:itemId': Endpoint<AccessReviewItemDecided, DecideItemBody>;
  'POST /access-reviews/:id/complete': Endpoint<AccessReviewCompleted>;
  /** The reviewer picker's people. */
}
