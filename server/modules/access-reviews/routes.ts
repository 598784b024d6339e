import type { AppContext } from '../../context';
import { PERMISSIONS } from '../../http/permissions';
import { defineRoute, type AnyRoute } from '../../http/route';
import { ALREADY_COMPLETED, completeAccessReview, PENDING_ITEMS } from './complete';
import { createReviewBody, decideItemBody, itemParams, reviewParams } from './schemas';
import {
  createAccessReview,
  decideItem,
  getAccessReview,
  listAccessReviews,
  ITEM_NOT_FOUND,
  REVIEW_COMPLETED_IMMUTABLE,
  REVIEW_NOT_FOUND,
  REVIEWER_NOT_MEMBER,
  SELF_REVOKE,
} from './service';

// /access-reviews (spec 1): console users of a partner or an organization; reading needs users:read, creating,
// deciding and completing users:write. System scope is refused (403 'Partner or organization context required'),
// and so is a partner user who does not see every organization of the partner.

const TAG = 'access-reviews';
const REFUSED = {
  403: 'Partner or organization context required; Full partner organization access required',
};

export function accessReviewRoutes(ctx: AppContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/access-reviews',
      tag: TAG,
      summary: "The tenant's access reviews, oldest first, with progress and whether each is overdue",
      auth: 'user',
      permission: PERMISSIONS.USERS_READ,
      responses: REFUSED,
      handler: ({ auth }) => listAccessReviews(ctx, auth),
    }),
    defineRoute({
      method: 'post',
      path: '/access-reviews',
      tag: TAG,
      summary:
        'Create a review with one pending item per person holding a role in the tenant (reviewer defaults to the caller)',
      auth: 'user',
      permission: PERMISSIONS.USERS_WRITE,
      body: createReviewBody,
      status: 201,
      responses: { ...REFUSED, 400: REVIEWER_NOT_MEMBER },
      handler: ({ auth, req, body }) => createAccessReview(ctx, auth, req, body),
    }),
    defineRoute({
      method: 'get',
      path: '/access-reviews/:id',
      tag: TAG,
      summary: 'One review with its items: each person, role, last activity, permissions and decision',
      auth: 'user',
      permission: PERMISSIONS.USERS_READ,
      params: reviewParams,
      responses: { ...REFUSED, 404: REVIEW_NOT_FOUND },
      handler: ({ auth, params }) => getAccessReview(ctx, auth, params.id),
    }),
    defineRoute({
      method: 'patch',
      path: '/access-reviews/:id/items/:itemId',
      tag: TAG,
      summary: 'Decide an item (approved, revoked, or back to pending), with optional notes',
      auth: 'user',
      permission: PERMISSIONS.USERS_WRITE,
      params: itemParams,
      body: decideItemBody,
      responses: {
        ...REFUSED,
        400: `${REVIEW_COMPLETED_IMMUTABLE}; ${SELF_REVOKE}`,
        404: `${REVIEW_NOT_FOUND}; ${ITEM_NOT_FOUND}`,
      },
      handler: ({ auth, req, params, body }) => decideItem(ctx, auth, req, params, body),
    }),
    defineRoute({
      method: 'post',
      path: '/access-reviews/:id/complete',
      tag: TAG,
      summary:
        'Complete the review: every revoked person loses access to the tenant at once (sessions, refresh tokens, sockets)',
      auth: 'user',
      permission: PERMISSIONS.USERS_WRITE,
      params: reviewParams,
      responses: { ...REFUSED, 400: `${PENDING_ITEMS}; ${ALREADY_COMPLETED}`, 404: REVIEW_NOT_FOUND },
      handler: ({ auth, req, params }) => completeAccessReview(ctx, auth, req, params.id),
    }),
  ];
}
