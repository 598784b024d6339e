import type { Db } from '../../db/connection';
import type { EventBus } from '../../events/bus';
import { retireUserTokens } from '../registration';
import { revokeUserSessions } from './revoke';
import { removeAssociationRow, type AssociationKey } from './store';

/** What endMembership needs of the context: not AppContext, which imports this module through TokenService. */
export interface MembershipEnder {
  db: Db;
  bus: EventBus;
  tokens: { revokeAllForUser(userId: string, reason: string): void };
}

/**
 * Ends one person's membership of a tenant at once: the association goes, an open invitation can no longer be
 * accepted, every access token stops working (token version) and every refresh token is revoked. The one way to
 * take someone out, shared by removing a user and by completing an access review. Runs inside the caller's
 * transaction, so a failure later in it leaves the person exactly as they were.
 */
export function endMembership(
  ctx: MembershipEnder,
  userId: string,
  association: AssociationKey,
  reason: string,
): void {
  removeAssociationRow(ctx.db, userId, association);
  retireUserTokens(ctx.db, userId, ['invite']);
  revokeUserSessions(ctx, userId);
  ctx.tokens.revokeAllForUser(userId, reason);
}
