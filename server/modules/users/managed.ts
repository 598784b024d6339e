import type { Request } from 'express';
import type { UserSummary } from '../../contract';
import type { AppContext } from '../../context';
import type { UserAuth } from '../../http/auth-context';
import { forbidden, notFound } from '../../http/errors';
import { effectivePermissions } from '../../http/permissions';
import { DEVICE_GROUP_DENIED, restrictionsOf, SITE_DENIED } from '../../http/scope';
import { auditCaller } from '../audit';
import { assertCovered } from '../roles';
import { toUserSummary, userVisibility } from './directory';
import { findUser, type DirectoryEntry } from './directory-store';
import { auditChainOf, type Tenant } from './tenant';

// A user the caller administers (spec 1, /users): finding them inside the caller's scope, whether the caller may
// manage them or grant what they ask, and the audit entry of a change to them.

const MANAGE_REFUSED = 'Cannot manage a user who holds permissions you do not hold';

/** A requested restriction (null, undefined or empty: none) stays inside the caller's own. */
const within = (requested: readonly string[] | null | undefined, own: ReadonlySet<string>): boolean =>
  !!requested?.length && requested.every((id) => own.has(id));

export function auditUserChange(
  ctx: AppContext,
  auth: UserAuth,
  req: Request,
  entry: { user: { id: string; email: string }; tenant: Tenant },
  action: string,
  details: Record<string, unknown>,
): void {
  auditCaller(ctx, req, auth, {
    ...auditChainOf(entry.tenant),
    action,
    resourceType: 'user',
    resourceId: entry.user.id,
    resourceName: entry.user.email,
    details,
  });
}

/** A user inside the caller's administration scope, or 404 (others do not exist for the caller). */
export function managedUser(ctx: AppContext, auth: UserAuth, userId: string): DirectoryEntry {
  const entry = findUser(ctx.db, userVisibility(ctx.db, auth), userId);
  if (!entry) throw notFound('User not found');
  return entry;
}

export function managedSummary(ctx: AppContext, auth: UserAuth, userId: string): UserSummary {
  return toUserSummary(managedUser(ctx, auth, userId));
}

/**
 * A restricted organization user grants at most their own sites and device groups, never "all" by omission:
 * not by inviting someone, and not by giving a role to someone who sees more devices than they do.
 */
export function assertWithinOwnRestrictions(
  ctx: AppContext,
  auth: UserAuth,
  target: {
    siteIds?: readonly string[] | null | undefined;
    deviceGroupIds?: readonly string[] | null | undefined;
  },
): void {
  const own = restrictionsOf(ctx.db, auth);
  if (own.sites && !within(target.siteIds, own.sites))
    throw forbidden(SITE_DENIED, 'PERMISSION_ESCALATION', { allowedSiteIds: [...own.sites] });
  if (own.deviceGroups && !within(target.deviceGroupIds, own.deviceGroups))
    throw forbidden(DEVICE_GROUP_DENIED, 'PERMISSION_ESCALATION', {
      allowedDeviceGroupIds: [...own.deviceGroups],
    });
}

/** Nobody disables, removes or re-roles someone who holds more than they do. */
export function assertManageable(ctx: AppContext, auth: UserAuth, entry: DirectoryEntry): void {
  assertCovered(ctx, auth, effectivePermissions(ctx.db, entry.association.roleId), MANAGE_REFUSED);
}
