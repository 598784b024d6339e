import { z } from 'zod';
import type {
  AuditChainProblem,
  AuditChainStatusResponse,
  AuditEntry,
  AuditEntryListResponse,
  AuditFlatEntry,
  AuditFlatListResponse,
  AuditVerifyResponse,
} from '../../contract';
import type { AppContext } from '../../context';
import type { AuthContext } from '../../http/auth-context';
import { transaction } from '../../db/after-commit';
import { notFound } from '../../http/errors';
import { paginated, paginationQuery } from '../../http/pagination';
import { PERMISSIONS } from '../../http/permissions';
import { defineRoute, type AnyRoute } from '../../http/route';
import { filterFields, requireOrgInScope, scopedFilters, auditScope, searchText } from './access';
import { anchorView, allChainRefs, chainKey, verifyChain, type ChainRef } from './chain';
import { chainAnchor, chainOverview, chainStatus, saveChainStatus } from './chain-store';
import { auditOperationRoutes } from './operation-routes';
import { findAuditEntry, listAuditEntries } from './store';

// Spec 2 "Audit logs": the flat list, the full list, one entry and search, under `/audit-logs` and, as the
// endpoint catalog names them, under `/audit`: one declaration per route, mounted under both prefixes. Verify and
// the chain status belong beside them; export, reports, stats and retention are in operation-routes.ts.

const listQuery = z.object({ ...paginationQuery(), ...filterFields });

/** Spec 2 flat format: `resource` is the resource's name, else its id. */
function flat(e: AuditEntry): AuditFlatEntry {
  return {
    id: e.id,
    timestamp: e.timestamp,
    action: e.action,
    resource: e.resource.name ?? e.resource.id,
    resourceType: e.resource.type,
    details: e.details,
    ipAddress: e.ipAddress,
    userAgent: e.userAgent,
    sessionId: e.sessionId,
    user: { name: e.user.name, email: e.user.email, role: e.user.role, department: null },
    changes: e.changes,
  };
}

/**
 * The entry routes, declared at their `/audit` paths (the ones the console calls, so defineRoute holds them to the
 * contract's endpoint map); `/audit-logs` serves copies of them.
 */
function entryRoutes(ctx: AppContext): AnyRoute[] {
  // The full-format list and the search are one query: `q` is one more filter.
  const listPage = (
    auth: AuthContext,
    query: z.infer<typeof listQuery> & { q?: string },
  ): AuditEntryListResponse => {
    const { scope, filters } = scopedFilters(ctx, auth, query);
    const { rows, total } = listAuditEntries(ctx.db, scope, filters, query);
    return paginated(rows, query, total);
  };
  return [
    defineRoute({
      method: 'get',
      path: '/audit',
      tag: 'audit',
      summary: "Audit entries in the caller's scope, newest first (flat format)",
      auth: 'user',
      permission: PERMISSIONS.AUDIT_READ,
      query: listQuery,
      responses: { 404: 'Organization not found (orgId outside the scope)' },
      handler: ({ auth, query }): AuditFlatListResponse => {
        const { scope, filters } = scopedFilters(ctx, auth, query);
        const { rows, total } = listAuditEntries(ctx.db, scope, filters, query);
        return {
          entries: rows.map(flat),
          pagination: {
            page: query.page,
            limit: query.limit,
            total,
            totalPages: Math.ceil(total / query.limit),
          },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/audit/logs',
      tag: 'audit',
      summary: "Audit entries in the caller's scope, newest first (full format)",
      auth: 'user',
      permission: PERMISSIONS.AUDIT_READ,
      query: listQuery,
      responses: { 404: 'Organization not found (orgId outside the scope)' },
      handler: ({ auth, query }) => listPage(auth, query),
    }),
    defineRoute({
      method: 'get',
      path: '/audit/logs/:id',
      tag: 'audit',
      summary: 'One audit entry (full format)',
      auth: 'user',
      permission: PERMISSIONS.AUDIT_READ,
      params: z.object({ id: z.string().max(100) }),
      responses: { 404: 'Audit entry not found' },
      handler: ({ auth, params }): AuditEntry => {
        const entry = findAuditEntry(ctx.db, auditScope(ctx, auth), params.id);
        if (!entry) throw notFound('Audit entry not found');
        return entry;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/audit/search',
      tag: 'audit',
      summary:
        'Audit entries matching q (case-insensitive, across action, actor email, resource type and name, details) and the filters',
      auth: 'user',
      permission: PERMISSIONS.AUDIT_READ,
      query: listQuery.extend({ q: searchText }),
      responses: { 404: 'Organization not found (orgId outside the scope)' },
      handler: ({ auth, query }) => listPage(auth, query),
    }),
    defineRoute({
      method: 'get',
      path: '/audit/verify',
      tag: 'audit',
      summary:
        "Verify the audit hash chains in the caller's scope (one organization with orgId): names each edited or removed row; the outcome is kept as the chain's status",
      auth: 'user',
      permission: PERMISSIONS.AUDIT_READ,
      query: z.object({ orgId: z.uuid('orgId must be a UUID').optional() }),
      responses: { 404: 'Organization not found' },
      handler: ({ auth, query }): AuditVerifyResponse => {
        const scope = auditScope(ctx, auth);
        let refs: ChainRef[];
        if (query.orgId) {
          requireOrgInScope(scope, query.orgId);
          refs = [{ orgId: query.orgId, partnerId: null }];
        } else if (scope.orgs.kind === 'all') {
          refs = allChainRefs(ctx.db);
        } else {
          refs = [...scope.orgs.orgIds].map((orgId) => ({ orgId, partnerId: null }));
          if (scope.partnerId) refs.unshift({ orgId: null, partnerId: scope.partnerId });
        }
        const started = performance.now();
        const checkedAt = new Date().toISOString();
        const chains = refs.map((ref) => verifyChain(ctx.db, ref));
        transaction(ctx.db, () => {
          for (const c of chains) {
            saveChainStatus(ctx.db, {
              chain: c.chain,
              verified_at: checkedAt,
              valid: c.valid ? 1 : 0,
              checked: c.checked,
              duration_ms: c.durationMs,
              problems: JSON.stringify(c.problems),
            });
          }
        });
        return {
          valid: chains.every((c) => c.valid),
          chains,
          checkedAt,
          rowsChecked: chains.reduce((n, c) => n + c.checked, 0),
          durationMs: Math.round(performance.now() - started),
        };
      },
    }),
  ];
}

function chainStatusRoute(ctx: AppContext): AnyRoute {
  return defineRoute({
    method: 'get',
    path: '/audit/chains',
    tag: 'audit',
    summary:
      "The audit chains in the caller's scope with their entry count, retention anchor and last verification",
    auth: 'user',
    permission: PERMISSIONS.AUDIT_READ,
    handler: ({ auth }): AuditChainStatusResponse => {
      const scope = auditScope(ctx, auth);
      const keys =
        scope.orgs.kind === 'all'
          ? null
          : [
              ...[...scope.orgs.orgIds].map((orgId) => chainKey({ orgId, partnerId: null })),
              ...(scope.partnerId ? [chainKey({ orgId: null, partnerId: scope.partnerId })] : []),
            ];
      return {
        chains: chainOverview(ctx.db, keys).map((row) => {
          const anchor = chainAnchor(ctx.db, row.chain);
          const status = chainStatus(ctx.db, row.chain);
          return {
            chain: row.chain,
            orgId: row.org_id,
            name: row.org_name ?? row.partner_name,
            partnerId: row.partner_id,
            entryCount: row.entry_count - (anchor?.rows_removed ?? 0),
            anchor: anchorView(anchor),
            lastVerifiedAt: status?.verified_at ?? null,
            lastResult: status
              ? {
                  valid: status.valid === 1,
                  checked: status.checked,
                  durationMs: status.duration_ms,
                  problems: JSON.parse(status.problems) as AuditChainProblem[],
                }
              : null,
          };
        }),
      };
    },
  });
}

export function auditRoutes(ctx: AppContext): AnyRoute[] {
  const entries = entryRoutes(ctx);
  return [
    ...entries.map((route) => ({ ...route, path: route.path.replace(/^\/audit/, '/audit-logs') })),
    ...entries,
    chainStatusRoute(ctx),
    ...auditOperationRoutes(ctx),
  ];
}
