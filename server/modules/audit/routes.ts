import { z } from 'zod';
import type { AppContext } from '../../context';
import { notFound } from '../../http/errors';
import { paginated, paginationQuery } from '../../http/pagination';
import { callerHolds, PERMISSIONS } from '../../http/permissions';
import { defineRoute, type AnyRoute } from '../../http/route';
import { requireFullPartnerAccess, resolveOrgScope, restrictionsOf, scopeCovers } from '../../http/scope';
import type { AuthContext } from '../../http/auth-context';
import { allChainRefs, verifyChain, type ChainRef, type ChainVerification } from './chain';
import { listAuditEntries, type AuditScope } from './store';

/**
 * What audit a caller reads: the organizations in scope, plus, for partner administrators with full organization
 * access who may administer users, their partner's own chain (partner settings, partner users and roles); an organization user limited to
 * sites or device groups does not read entries about devices outside them (audit/visibility.ts).
 */
function auditScope(ctx: AppContext, auth: AuthContext): AuditScope {
  const orgs = resolveOrgScope(ctx.db, auth);
  let partnerId: string | null = null;
  // The partner's own chain (its users, roles, settings and sign-ins) is administration: only callers who may
  // administer the partner's users read it. A partner user limited to some organizations, or a technician, reads
  // the entries of the organizations in scope only.
  if (auth.scope === 'partner' && auth.partnerId && callerHolds(ctx.db, auth, PERMISSIONS.USERS_WRITE)) {
    try {
      requireFullPartnerAccess(ctx.db, auth);
      partnerId = auth.partnerId;
    } catch {
      // limited organization access: organizations only
    }
  }
  return { orgs, partnerId, restrictions: restrictionsOf(ctx.db, auth) };
}

const isoDate = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' });

export function auditRoutes(ctx: AppContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/audit-logs/logs',
      tag: 'audit',
      summary: "Audit entries in the caller's scope, newest first (full format)",
      auth: 'user',
      permission: PERMISSIONS.AUDIT_READ,
      query: z.object({
        ...paginationQuery(),
        user: z.string().max(255).optional(),
        action: z.string().max(100).optional(),
        resource: z.string().max(255).optional(),
        from: isoDate.optional(),
        to: isoDate.optional(),
      }),
      handler: ({ auth, query }) => {
        const { rows, total } = listAuditEntries(ctx.db, auditScope(ctx, auth), query, query);
        return paginated(rows, query, total);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/audit-logs/verify',
      tag: 'audit',
      summary: "Verify the audit hash chains in the caller's scope (one organization with orgId)",
      auth: 'user',
      permission: PERMISSIONS.AUDIT_READ,
      query: z.object({ orgId: z.uuid('orgId must be a UUID').optional() }),
      responses: { 404: 'Organization not found' },
      handler: ({ auth, query }): { valid: boolean; chains: ChainVerification[] } => {
        const { orgs, partnerId } = auditScope(ctx, auth);
        let refs: ChainRef[];
        if (query.orgId) {
          if (!scopeCovers(orgs, query.orgId)) throw notFound('Organization not found');
          refs = [{ orgId: query.orgId, partnerId: null }];
        } else if (orgs.kind === 'all') {
          refs = allChainRefs(ctx.db);
        } else {
          refs = [...orgs.orgIds].map((orgId) => ({ orgId, partnerId: null }));
          if (partnerId) refs.unshift({ orgId: null, partnerId });
        }
        const chains = refs.map((ref) => verifyChain(ctx.db, ref));
        return { valid: chains.every((c) => c.valid), chains };
      },
    }),
  ];
}
