import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type {
  AccessReviewCreated,
  AccessReviewDetail,
  AccessReviewItemDecided,
  AccessReviewListResponse,
} from '../../contract/access-reviews';
import type { AppContext } from '../../context';
import { transaction } from '../../db/after-commit';
import type { UserAuth } from '../../http/auth-context';
import { badRequest, notFound } from '../../http/errors';
import { effectivePermissions } from '../../http/permissions';
import { assertCovered } from '../roles';
import { auditReview } from './audit';
import { dueWithinReminderWindow, mailAssignment } from './notify';
import type { CreateReviewBody, DecideItemBody } from './schemas';
import {
  insertItem,
  insertReview,
  isMember,
  itemOf,
  itemsOf,
  listReviews,
  markDecided,
  reviewById,
  reviewInTenant,
  setDecision,
  tenantMappings,
  type ReviewRow,
} from './store';
import { reviewTenantOf, type ReviewTenant } from './tenant';
import { toDetail, toItem, toSummary } from './view';

// Access reviews (spec 1): create, list, read and decide. Completion, which removes people, is complete.ts.

export const REVIEW_NOT_FOUND = 'Access review not found';
export const ITEM_NOT_FOUND = 'Access review item not found';
export const REVIEW_COMPLETED_IMMUTABLE = 'Cannot modify completed review';
export const REVIEWER_NOT_MEMBER = 'reviewerId must be an active user of this partner or organization';
export const SELF_REVOKE = 'You cannot revoke your own access';
const REVOKE_REFUSED = 'Cannot revoke a user who holds permissions you do not hold';

/** The review in the caller's tenant, or the spec's 404 (another tenant's reviews do not exist for the caller). */
export function reviewOf(ctx: AppContext, tenant: ReviewTenant, id: string): ReviewRow {
  const review = reviewInTenant(ctx.db, tenant, id);
  if (!review) throw notFound(REVIEW_NOT_FOUND);
  return review;
}

export function listAccessReviews(ctx: AppContext, auth: UserAuth): AccessReviewListResponse {
  const now = Date.now();
  return { data: listReviews(ctx.db, reviewTenantOf(ctx.db, auth)).map((row) => toSummary(row, now)) };
}

export function getAccessReview(ctx: AppContext, auth: UserAuth, id: string): AccessReviewDetail {
  const review = reviewOf(ctx, reviewTenantOf(ctx.db, auth), id);
  return toDetail(review, itemsOf(ctx.db, review.id));
}

/** The role chain's grants as `resource:action`, once per role (many people share a role). */
function permissionsByRole(ctx: AppContext): (roleId: string) => string[] {
  const cache = new Map<string, string[]>();
  return (roleId) => {
    let list = cache.get(roleId);
    if (!list) {
      list = effectivePermissions(ctx.db, roleId).map((p) => `${p.resource}:${p.action}`);
      cache.set(roleId, list);
    }
    return list;
  };
}

export function createAccessReview(
  ctx: AppContext,
  auth: UserAuth,
  req: Request,
  body: CreateReviewBody,
): AccessReviewCreated {
  const tenant = reviewTenantOf(ctx.db, auth);
  const reviewerId = body.reviewerId ?? auth.userId;
  if (!isMember(ctx.db, tenant, reviewerId, { active: true })) throw badRequest(REVIEWER_NOT_MEMBER);
  const id = randomUUID();
  const at = new Date().toISOString();
  const assigned = reviewerId !== auth.userId;
  const dueDate = body.dueDate ?? null;
  const permissionsOf = permissionsByRole(ctx);
  const review = transaction(ctx.db, () => {
    insertReview(ctx.db, {
      id,
      tenant,
      name: body.name,
      description: body.description ?? null,
      reviewerId,
      dueDate,
      // A review assigned already inside the reminder window: the assignment email is the reminder.
      reminderSentAt: assigned && dueWithinReminderWindow(dueDate) ? at : null,
      createdBy: auth.userId,
      at,
    });
    for (const mapping of tenantMappings(ctx.db, tenant))
      insertItem(ctx.db, {
        id: randomUUID(),
        reviewId: id,
        mapping,
        permissions: permissionsOf(mapping.role_id),
        at,
      });
    const row = reviewById(ctx.db, id)!;
    ctx.bus.emit('access_review.created', row.org_id, { review: toSummary(row) });
    return row;
  });
  auditReview(ctx, auth, req, review, 'access_review.create', { itemCount: review.item_count });
  if (assigned) mailAssignment(ctx, review, auth.email);
  return { id, name: review.name, status: review.status, itemCount: review.item_count };
}

export function decideItem(
  ctx: AppContext,
  auth: UserAuth,
  req: Request,
  params: { id: string; itemId: string },
  body: DecideItemBody,
): AccessReviewItemDecided {
  const review = reviewOf(ctx, reviewTenantOf(ctx.db, auth), params.id);
  if (review.status === 'completed') throw badRequest(REVIEW_COMPLETED_IMMUTABLE);
  const item = itemOf(ctx.db, review.id, params.itemId);
  if (!item) throw notFound(ITEM_NOT_FOUND);
  if (body.decision === 'revoked') {
    // Nobody reviews themselves out of the tenant, nor removes someone who holds more than they do.
    if (item.user_id === auth.userId) throw badRequest(SELF_REVOKE);
    assertCovered(ctx, auth, effectivePermissions(ctx.db, item.role_id), REVOKE_REFUSED);
  }
  const at = new Date().toISOString();
  const decided = transaction(ctx.db, () => {
    setDecision(ctx.db, item.id, { decision: body.decision, notes: body.notes, by: auth.userId, at });
    markDecided(ctx.db, review.id, body.decision !== 'pending', at);
    const after = { review: reviewById(ctx.db, review.id)!, item: itemOf(ctx.db, review.id, item.id)! };
    ctx.bus.emit('access_review.item_updated', after.review.org_id, {
      review: toSummary(after.review),
      item: toItem(after.item),
    });
    return after;
  });
  auditReview(ctx, auth, req, review, 'access_review.item.update', {
    reviewId: review.id,
    itemId: item.id,
    userId: item.user_id,
    userEmail: item.user_email,
    decision: body.decision,
    previousDecision: item.decision,
  });
  return {
    id: decided.item.id,
    decision: decided.item.decision,
    notes: decided.item.notes,
    reviewedAt: decided.item.reviewed_at,
  };
}
