import type { Request } from 'express';
import type { AppContext } from '../../context';
import type { UserAuth } from '../../http/auth-context';
import { auditCaller } from '../audit';

// Audit entries of access reviews (spec 1 Events) go to the chain of the review's tenant: the organization's, or
// the partner's own chain for a partner review.

export function auditReview(
  ctx: AppContext,
  auth: UserAuth,
  req: Request,
  review: { id: string; name: string; partner_id: string | null; org_id: string | null },
  action: string,
  details: Record<string, unknown>,
): void {
  auditCaller(ctx, req, auth, {
    orgId: review.org_id,
    partnerId: review.org_id ? null : review.partner_id,
    action,
    resourceType: 'access_review',
    resourceId: review.id,
    resourceName: review.name,
    details,
  });
}

/** A person the completed review removed: the users module's `user.remove`, saying which review did it. */
export function auditRevocation(
  ctx: AppContext,
  auth: UserAuth,
  req: Request,
  review: { id: string; name: string; partner_id: string | null; org_id: string | null },
  user: { user_id: string; user_email: string },
): void {
  auditCaller(ctx, req, auth, {
    orgId: review.org_id,
    partnerId: review.org_id ? null : review.partner_id,
    action: 'user.remove',
    resourceType: 'user',
    resourceId: user.user_id,
    resourceName: user.user_email,
    details: {
      via: 'access_review',
      reviewId: review.id,
      reviewName: review.name,
      scope: review.org_id ? 'organization' : 'partner',
      partnerId: review.partner_id,
      orgId: review.org_id,
    },
  });
}
