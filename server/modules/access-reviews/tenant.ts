import type { Db } from '../../db/connection';
import type { UserAuth } from '../../http/auth-context';
import { forbidden, HttpError } from '../../http/errors';
import { requireFullPartnerAccess, requireTenantContext } from '../../http/scope';

// Whose reviews a caller runs (spec 1, Access reviews): a partner caller the partner's (its partner users), an
// organization caller the organization's (its organization users). System scope has no such tenant and is refused
// with the spec's message; a partner user who does not see every organization of the partner is refused too, as
// for user and role administration (spec 1 errors table).

export type ReviewTenant = { kind: 'partner'; partnerId: string } | { kind: 'organization'; orgId: string };

export function reviewTenantOf(db: Db, auth: UserAuth): ReviewTenant {
  requireTenantContext(auth);
  if (auth.scope === 'partner' && auth.partnerId) {
    requireFullPartnerAccess(db, auth);
    return { kind: 'partner', partnerId: auth.partnerId };
  }
  if (auth.scope === 'organization' && auth.orgId) return { kind: 'organization', orgId: auth.orgId };
  // A system-scope token (requireTenantContext passes one that carries stray ids, never issued today).
  throw forbidden('Partner or organization context required');
}

/**
 * Whether a console may receive a push about a review of this tenant: the same tenant and the same admission as
 * the routes (users:read is checked by the hub's permission gate).
 */
export function reviewPushVisible(
  db: Db,
  auth: UserAuth,
  review: { partnerId: string | null; orgId: string | null },
): boolean {
  try {
    const tenant = reviewTenantOf(db, auth);
    return tenant.kind === 'partner' ? tenant.partnerId === review.partnerId : tenant.orgId === review.orgId;
  } catch (err) {
    if (err instanceof HttpError) return false;
    throw err;
  }
}
