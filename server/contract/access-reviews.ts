// Access reviews (spec 1 "Access review", "Access reviews (/access-reviews)"). Field names are the spec's; what
// goes beyond it is marked. The server validates requests with server/modules/access-reviews/schemas.ts.

export type AccessReviewStatus = 'pending' | 'in_progress' | 'completed';
export type AccessReviewDecision = 'pending' | 'approved' | 'revoked';

/** Longest note a reviewer may keep on an item. */
export const ACCESS_REVIEW_NOTES_MAX = 2000;

/** A review as GET /access-reviews lists it. */
export interface AccessReviewSummary {
  id: string;
  /** The review's tenant: exactly one of the two is set. */
  partnerId: string | null;
  orgId: string | null;
  name: string;
  description: string | null;
  status: AccessReviewStatus;
  reviewerId: string;
  reviewerName: string | null;
  dueDate: string | null;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
  /** Beyond the spec: the due date has passed and the review is not completed. */
  overdue: boolean;
  /** Beyond the spec: items in the review, and how many are no longer `pending` (the console's progress bar). */
  itemCount: number;
  decidedCount: number;
  /** Beyond the spec: people the completion removed; null until completed. */
  revokedCount: number | null;
}

export interface AccessReviewItem {
  id: string;
  userId: string;
  userName: string;
  userEmail: string;
  /** The person's latest sign-in or session refresh, whichever is newer; null when they never signed in. */
  lastActiveAt: string | null;
  roleId: string;
  roleName: string;
  decision: AccessReviewDecision;
  notes: string | null;
  reviewedAt: string | null;
  /** Beyond the spec's item payload (a field of the spec's item resource): who decided. */
  reviewedBy: string | null;
  /** What the role chain allowed when the review was created, as `resource:action`. */
  permissions: string[];
}

/** GET /access-reviews/:id */
export interface AccessReviewDetail extends AccessReviewSummary {
  items: AccessReviewItem[];
}

/** GET /access-reviews: ordered by createdAt ascending. */
export interface AccessReviewListResponse {
  data: AccessReviewSummary[];
}

/** POST /access-reviews (201). */
export interface AccessReviewCreated {
  id: string;
  name: string;
  status: AccessReviewStatus;
  itemCount: number;
}

/** PATCH /access-reviews/:id/items/:itemId */
export interface AccessReviewItemDecided {
  id: string;
  decision: AccessReviewDecision;
  notes: string | null;
  reviewedAt: string | null;
}

/** POST /access-reviews/:id/complete */
export interface AccessReviewCompleted {
  id: string;
  status: 'completed';
  completedAt: string;
  revokedCount: number;
}

/** `access_review.created` and `access_review.completed` pushes: the review as it now stands. */
export interface AccessReviewLiveEvent {
  review: AccessReviewSummary;
}

/** `access_review.item_updated`: the review's new counts and status, and the item after the decision. */
export interface AccessReviewItemLiveEvent {
  review: AccessReviewSummary;
  item: AccessReviewItem;
}
