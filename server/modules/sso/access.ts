import type { UserAuth } from '../../http/auth-context';
import { forbidden, notFound } from '../../http/errors';
import {
  requireFullPartnerAccess,
  requireOrgAccess,
  requireUnrestricted,
  resolveOrgScope,
  scopeCovers,
} from '../../http/scope';
import { resolveTenant, type Tenant } from '../users';
import type { AppContext } from '../../context';
import type { ProviderRow } from './provider-store';

// Who may see and change which provider. An organization's provider is that organization's sign-in: readable by
// anyone whose scope covers the organization, changeable by those who are not limited to part of it. A partner's
// own provider signs in the partner's technicians: only the partner's own users with access to every one of its
// organizations (as for user administration), and platform administrators.

export const PROVIDER_NOT_FOUND = 'SSO provider not found';

/** Whether the caller may read this provider (404 otherwise, so ids cannot be probed). */
export function canSee(ctx: AppContext, auth: UserAuth, row: ProviderRow): boolean {
  if (auth.scope === 'system') return true;
  if (row.owner_scope === 'partner') return auth.scope === 'partner' && auth.partnerId === row.partner_id;
  return row.org_id !== null && scopeCovers(resolveOrgScope(ctx.db, auth), row.org_id);
}

export function requireVisible(ctx: AppContext, auth: UserAuth, row: ProviderRow | undefined): ProviderRow {
  if (!row || !canSee(ctx, auth, row)) throw notFound(PROVIDER_NOT_FOUND);
  return row;
}

/** The tenant whose sign-in the caller changes: the owner of a provider, checked for write access. */
export function requireWritableOwner(
  ctx: AppContext,
  auth: UserAuth,
  owner: { orgId: string } | { partnerId: string },
): Tenant & { scope: 'organization' | 'partner' } {
  if ('orgId' in owner) {
    const org = requireOrgAccess(ctx.db, auth, owner.orgId);
    requireUnrestricted(ctx.db, auth);
    return { scope: 'organization', orgId: org.id, partnerId: org.partner_id };
  }
  if (auth.scope === 'organization') throw forbidden('Access denied to this partner');
  const tenant = resolveTenant(ctx.db, auth, { partnerId: owner.partnerId });
  if (tenant.scope !== 'partner') throw forbidden('Access denied to this partner');
  requireFullPartnerAccess(ctx.db, auth);
  return tenant;
}

export function ownerOf(row: ProviderRow): { orgId: string } | { partnerId: string } {
  return row.org_id ? { orgId: row.org_id } : { partnerId: row.partner_id };
}
