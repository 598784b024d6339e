import type { UserAssociation } from '../../contract';
import type { Db } from '../../db/connection';
import type { UserAuth } from '../../http/auth-context';
import { badRequest, forbidden, notFound } from '../../http/errors';
import { requireFullPartnerAccess, requireOrgAccess, requireTenantContext } from '../../http/scope';
import { livePartnerExists, tenantNameRow } from './store';

// The tenant a user or role belongs to, and how a caller names one. People and roles are administered inside a
// tenant: a partner (its partner users and partner roles) or an organization (its users and organization roles).
//
// System scope has no tenant of its own. The rule for platform administrators: they see every user and role (lists
// take optional partnerId / orgId filters), and they act inside a tenant by naming it (body partnerId or orgId).
// A role created by a system caller without naming a tenant is a system-scope role, assignable to platform
// administrators. Partner callers may name their own partner or one of their organizations; organization callers
// only their own organization. Naming any other tenant is refused with the spec's messages.

export type Tenant =
  | { scope: 'system' }
  | { scope: 'partner'; partnerId: string }
  | { scope: 'organization'; orgId: string; partnerId: string };

/**
 * Spec 1 errors table: user and role administration needs a partner or organization association, and a partner
 * user must see every organization of the partner (otherwise they could grant what they cannot see).
 */
export function requireAdminContext(db: Db, auth: UserAuth, options: { fullPartnerAccess: boolean }): void {
  if (auth.scope === 'system') return;
  requireTenantContext(auth);
  if (options.fullPartnerAccess) requireFullPartnerAccess(db, auth);
}

/** The caller's own tenant: where their invitations and new roles go when they name none. */
export function callerTenant(auth: UserAuth): Tenant {
  if (auth.scope === 'system') return { scope: 'system' };
  requireTenantContext(auth);
  if (auth.scope === 'partner' && auth.partnerId) return { scope: 'partner', partnerId: auth.partnerId };
  if (auth.scope === 'organization' && auth.orgId && auth.partnerId)
    return { scope: 'organization', orgId: auth.orgId, partnerId: auth.partnerId };
  throw forbidden('Partner or organization context required');
}

/** The tenant a request names with partnerId or orgId, checked against the caller's scope. */
export function resolveTenant(
  db: Db,
  auth: UserAuth,
  named: { partnerId?: string | undefined; orgId?: string | undefined },
): Tenant {
  if (named.partnerId && named.orgId) throw badRequest('Provide either partnerId or orgId, not both');
  if (named.orgId) {
    // 404 outside a partner's or the platform's reach, 403 for another organization of an org-scoped caller.
    const org = requireOrgAccess(db, auth, named.orgId);
    return { scope: 'organization', orgId: org.id, partnerId: org.partner_id };
  }
  if (named.partnerId) {
    if (auth.scope === 'system') {
      if (!livePartnerExists(db, named.partnerId)) throw notFound('Partner not found');
      return { scope: 'partner', partnerId: named.partnerId };
    }
    if (auth.scope !== 'partner' || named.partnerId !== auth.partnerId)
      throw forbidden('Access denied to this partner');
    return { scope: 'partner', partnerId: named.partnerId };
  }
  return callerTenant(auth);
}

export function tenantOfAssociation(association: UserAssociation): Tenant {
  if (association.scope === 'organization' && association.orgId && association.partnerId)
    return { scope: 'organization', orgId: association.orgId, partnerId: association.partnerId };
  if (association.scope === 'partner' && association.partnerId)
    return { scope: 'partner', partnerId: association.partnerId };
  return { scope: 'system' };
}

/** Shown in invitation emails and on the acceptance page. */
export function tenantName(db: Db, tenant: Tenant): string {
  const name =
    tenant.scope === 'organization'
      ? tenantNameRow(db, { orgId: tenant.orgId })
      : tenant.scope === 'partner'
        ? tenantNameRow(db, { partnerId: tenant.partnerId })
        : undefined;
  return name ?? 'Gatehouse';
}

/** The audit chain of a tenant's entries: the organization's, the partner's own, or the platform's. */
export function auditChainOf(tenant: Tenant): { orgId: string | null; partnerId: string | null } {
  if (tenant.scope === 'organization') return { orgId: tenant.orgId, partnerId: null };
  return { orgId: null, partnerId: tenant.scope === 'partner' ? tenant.partnerId : null };
}
