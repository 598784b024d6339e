import { z } from 'zod';
import type { AppContext } from '../../context';
import { notFound } from '../../http/errors';
import { paginated, paginationQuery } from '../../http/pagination';
import { defineRoute, type AnyRoute } from '../../http/route';
import { resolveOrgScope, scopeCovers } from '../../http/scope';
import { verifyChain, type ChainVerification } from './chain';
import { listAuditEntries } from './store';

const isoDate = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' });

export function auditRoutes(ctx: AppContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/audit-logs/logs',
      tag: 'audit',
      summary: "Audit entries in the caller's scope, newest first (full format)",
      auth: 'user',
      query: z.object({
        ...paginationQuery(),
        user: z.string().max(255).optional(),
        action: z.string().max(100).optional(),
        resource: z.string().max(255).optional(),
        from: isoDate.optional(),
        to: isoDate.optional(),
      }),
      handler: ({ auth, query }) => {
        const { rows, total } = listAuditEntries(ctx.db, resolveOrgScope(ctx.db, auth), query, query);
        return paginated(rows, query, total);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/audit-logs/verify',
      tag: 'audit',
      summary: "Verify the audit hash chains in the caller's scope (one organization with orgId)",
      auth: 'user',
      query: z.object({ orgId: z.uuid('orgId must be a UUID').optional() }),
      responses: { 404: 'Organization not found' },
      handler: ({ auth, query }): { valid: boolean; chains: ChainVerification[] } => {
        const scope = resolveOrgScope(ctx.db, auth);
        let orgIds: Array<string | null>;
        if (query.orgId) {
          if (!scopeCovers(scope, query.orgId)) throw notFound('Organization not found');
          orgIds = [query.orgId];
        } else if (scope.kind === 'all') {
          const rows = ctx.db.prepare('SELECT DISTINCT org_id FROM audit_logs').all() as Array<{
            org_id: string | null;
          }>;
          orgIds = [null, ...rows.map((r) => r.org_id).filter((id): id is string => id !== null)];
        } else {
          orgIds = [...scope.orgIds];
        }
        const chains = orgIds.map((orgId) => verifyChain(ctx.db, orgId));
        return { valid: chains.every((c) => c.valid), chains };
      },
    }),
  ];
}
