import type { Request } from 'express';
import type { AccessReviewCompleted } from '../../contract/access-reviews';
import type { AppContext } from '../../context';
import { transaction } from '../../db/after-commit';
import type { UserAuth } from '../../http/auth-context';
import { badRequest } from '../../http/errors';
import { endMembership, type AssociationKey } from '../users';
import { auditReview, auditRevocation } from './audit';
import { reviewOf } from './service';
import { isMember, markCompleted, pendingItemCount, reviewById, revokedItems } from './store';
import { reviewTenantOf, type ReviewTenant } from './tenant';
import { toSummary } from './view';

// Completing a review (spec 1 state table: in_progress -> completed). In ONE transaction every `revoked` person
// loses their association with the review's tenant, their unused invitation links die, every access token ends
// (token version) and every refresh token is revoked; the review becomes completed and immutable. Should any step
// fail, nothing of it happened: every association is still in place and the review is still open. Their console
// sockets close after the commit, when the bus delivers `user.sessions_revoked` to the console hub. Someone who
// already left the tenant since the review was created is not touched (their account may belong elsewhere now)
// and not counted.

export const ALREADY_COMPLETED = 'Review is already completed';
export const PENDING_ITEMS = 'Cannot complete review with pending items';

const associationOf = (tenant: ReviewTenant): AssociationKey =>
  tenant.kind === 'partner'
    ? { scope: 'partner', partnerId: tenant.partnerId, orgId: null }
    : { scope: 'organization', partnerId: null, orgId: tenant.orgId };

export function completeAccessReview(
  ctx: AppContext,
  auth: UserAuth,
  req: Request,
  id: string,
): AccessReviewCompleted {
  const tenant = reviewTenantOf(ctx.db, auth);
  const review = reviewOf(ctx, tenant, id);
  if (review.status === 'completed') throw badRequest(ALREADY_COMPLETED);
  const at = new Date().toISOString();
  const { revoked, completed } = transaction(ctx.db, () => {
    if (pendingItemCount(ctx.db, review.id) > 0) throw badRequest(PENDING_ITEMS);
    const people = revokedItems(ctx.db, review.id).filter((person) =>
      isMember(ctx.db, tenant, person.user_id, { active: false }),
    );
    if (!markCompleted(ctx.db, review.id, people.length, at)) throw badRequest(ALREADY_COMPLETED);
    for (const person of people) {
      endMembership(ctx, person.user_id, associationOf(tenant), 'access_review');
    }
    const row = reviewById(ctx.db, review.id)!;
    ctx.bus.emit('access_review.completed', row.org_id, { review: toSummary(row) });
    return { revoked: people, completed: row };
  });
  auditReview(ctx, auth, req, review, 'access_review.complete', { revokedCount: revoked.length });
  for (const person of revoked) auditRevocation(ctx, auth, req, review, person);
  return {
    id: review.id,
    status: 'completed',
    completedAt: completed.completed_at ?? at,
    revokedCount: revoked.length,
  };
}
