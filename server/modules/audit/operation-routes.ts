import type { Request, Response } from 'express';
import { z } from 'zod';
import {
  AUDIT_RETENTION_MAX_DAYS,
  AUDIT_RETENTION_MIN_DAYS,
  type AuditComplianceReport,
  type AuditRetentionPolicy,
  type AuditSecurityEventsReport,
  type AuditStats,
  type AuditUserActivityReport,
} from '../../contract';
import type { AppContext } from '../../context';
import { transaction } from '../../db/after-commit';
import type { AuthContext, UserAuth } from '../../http/auth-context';
import { badRequest } from '../../http/errors';
import { PERMISSIONS } from '../../http/permissions';
import { defineRoute, type AnyRoute } from '../../http/route';
import { requireOrgAccess, requireUnrestricted } from '../../http/scope';
import { filterFields, isoDate, reportRange, scopedFilters, searchText } from './access';
import { auditCaller } from './caller';
import { exportFilename, planExport, streamExport } from './export';
import { auditStats, complianceReport, securityEventsReport, userActivityReport } from './reports';
import { retentionPolicy } from './retention';
import { saveRetentionDays } from './retention-store';
import { auditWhere } from './store';

// The endpoint catalog's audit operations beyond the lists (spec 2 names them; their parameters are decided in
// server/contract/audit.ts): the streamed export, the three reports, stats, and the retention policy.

const exportFields = z.object({
  ...filterFields,
  q: searchText.optional(),
  format: z.enum(['csv', 'json'], { error: 'format must be csv or json' }).default('csv'),
});
type ExportRequest = z.infer<typeof exportFields>;

async function exportAudit(
  ctx: AppContext,
  req: Request,
  res: Response,
  auth: UserAuth,
  params: ExportRequest,
): Promise<void> {
  const { format, ...rest } = params;
  const { scope, filters } = scopedFilters(ctx, auth, rest);
  const w = auditWhere(scope, filters);
  const plan = { ...planExport(ctx.db, w), filename: exportFilename(format) };
  // Spec 2 compliance action: who took which rows out, written before the first byte leaves.
  auditCaller(ctx, req, auth, {
    orgId: filters.orgId ?? (auth.scope === 'organization' ? auth.orgId : null),
    partnerId: auth.partnerId,
    action: 'data.export',
    resourceType: 'audit_log',
    resourceName: plan.filename,
    details: { format, rows: plan.rows, total: plan.total, truncated: plan.truncated, filters },
  });
  await streamExport(ctx.db, res, w, format, plan);
}

const reportQuery = {
  from: isoDate.optional(),
  to: isoDate.optional(),
  orgId: z.uuid('orgId must be a UUID').optional(),
};

/** The range and organization of a report, with `orgId` checked against the caller's scope. */
function reportRequest(ctx: AppContext, auth: AuthContext, query: z.infer<z.ZodObject<typeof reportQuery>>) {
  const { scope } = scopedFilters(ctx, auth, { orgId: query.orgId });
  return { scope, req: { range: reportRange(query), orgId: query.orgId } };
}

/** The organization a retention request is about: the caller's own, or `orgId` (required above organizations). */
function retentionOrg(ctx: AppContext, auth: AuthContext, orgId: string | undefined): string {
  const target = orgId ?? (auth.scope === 'organization' ? auth.orgId : null);
  if (!target) throw badRequest(`orgId is required for ${auth.scope} scope`, 'VALIDATION_ERROR');
  return requireOrgAccess(ctx.db, auth, target).id;
}

export function auditOperationRoutes(ctx: AppContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/audit/export',
      tag: 'audit',
      summary:
        'Export the matching audit entries (CSV or JSON, newest first, at most 10000 rows), streamed; X-Total-Count and X-Export-Truncated say whether the cap cut it',
      auth: 'user',
      permission: [PERMISSIONS.AUDIT_READ, PERMISSIONS.AUDIT_EXPORT],
      query: exportFields,
      responses: { 404: 'Organization not found (orgId outside the scope)' },
      handler: ({ req, res, auth, query }) => exportAudit(ctx, req, res, auth, query),
    }),
    defineRoute({
      method: 'post',
      path: '/audit/export',
      tag: 'audit',
      summary: 'The same export with its parameters in a JSON body',
      auth: 'user',
      permission: [PERMISSIONS.AUDIT_READ, PERMISSIONS.AUDIT_EXPORT],
      body: exportFields,
      bodyLimit: '16kb',
      responses: { 404: 'Organization not found (orgId outside the scope)' },
      handler: ({ req, res, auth, body }) => exportAudit(ctx, req, res, auth, body),
    }),
    defineRoute({
      method: 'get',
      path: '/audit/reports/user-activity',
      tag: 'audit',
      summary:
        'Per actor: entries by category, failures and denials, first and last seen (default: last 30 days)',
      auth: 'user',
      permission: PERMISSIONS.AUDIT_READ,
      query: z.object(reportQuery),
      handler: ({ auth, query }): AuditUserActivityReport => {
        const { scope, req } = reportRequest(ctx, auth, query);
        return userActivityReport(ctx.db, scope, req);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/audit/reports/security-events',
      tag: 'audit',
      summary: "The spec's security actions: counts per day and per action, and the latest entries",
      auth: 'user',
      permission: PERMISSIONS.AUDIT_READ,
      query: z.object({
        ...reportQuery,
        latest: z.coerce
          .number({ error: 'latest must be a number' })
          .int('latest must be an integer')
          .min(1, 'latest must be 1-100')
          .max(100, 'latest must be 1-100')
          .default(20),
      }),
      handler: ({ auth, query }): AuditSecurityEventsReport => {
        const { scope, req } = reportRequest(ctx, auth, query);
        return securityEventsReport(ctx.db, scope, req, query.latest);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/audit/reports/compliance',
      tag: 'audit',
      summary: "The spec's compliance actions grouped by action, with counts per result and per day",
      auth: 'user',
      permission: PERMISSIONS.AUDIT_READ,
      query: z.object(reportQuery),
      handler: ({ auth, query }): AuditComplianceReport => {
        const { scope, req } = reportRequest(ctx, auth, query);
        return complianceReport(ctx.db, scope, req);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/audit/stats',
      tag: 'audit',
      summary: 'Entry totals by category, result and day, and the most frequent actions',
      auth: 'user',
      permission: PERMISSIONS.AUDIT_READ,
      query: z.object(reportQuery),
      handler: ({ auth, query }): AuditStats => {
        const { scope, req } = reportRequest(ctx, auth, query);
        return auditStats(ctx.db, scope, req);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/audit/retention',
      tag: 'audit',
      summary:
        "An organization's audit retention policy and its last cleanup (orgId required above organizations)",
      auth: 'user',
      permission: PERMISSIONS.AUDIT_READ,
      query: z.object({ orgId: z.uuid('orgId must be a UUID').optional() }),
      responses: { 404: 'Organization not found' },
      handler: ({ auth, query }): AuditRetentionPolicy =>
        retentionPolicy(ctx.db, retentionOrg(ctx, auth, query.orgId)),
    }),
    defineRoute({
      method: 'put',
      path: '/audit/retention',
      tag: 'audit',
      summary: `Set an organization's audit retention (${AUDIT_RETENTION_MIN_DAYS}-${AUDIT_RETENTION_MAX_DAYS} days); archiving is not offered`,
      auth: 'user',
      mfa: true,
      permission: PERMISSIONS.ORGANIZATIONS_WRITE,
      query: z.object({ orgId: z.uuid('orgId must be a UUID').optional() }),
      body: z.object({
        retentionDays: z
          .number({ error: 'retentionDays must be a number' })
          .int('retentionDays must be an integer')
          .min(
            AUDIT_RETENTION_MIN_DAYS,
            `retentionDays must be ${AUDIT_RETENTION_MIN_DAYS}-${AUDIT_RETENTION_MAX_DAYS}`,
          )
          .max(
            AUDIT_RETENTION_MAX_DAYS,
            `retentionDays must be ${AUDIT_RETENTION_MIN_DAYS}-${AUDIT_RETENTION_MAX_DAYS}`,
          ),
        archiveToS3: z.boolean({ error: 'archiveToS3 must be a boolean' }).optional(),
      }),
      bodyLimit: '4kb',
      responses: { 404: 'Organization not found' },
      handler: ({ req, auth, query, body }): AuditRetentionPolicy => {
        if (body.archiveToS3)
          throw badRequest('Archiving to object storage is not offered', 'VALIDATION_ERROR');
        const orgId = retentionOrg(ctx, auth, query.orgId);
        // The window reaches every entry of the organization: a caller limited to some sites cannot set it.
        requireUnrestricted(ctx.db, auth);
        const before = retentionPolicy(ctx.db, orgId);
        transaction(ctx.db, () =>
          saveRetentionDays(ctx.db, orgId, body.retentionDays, auth.userId, new Date().toISOString()),
        );
        auditCaller(ctx, req, auth, {
          orgId,
          action: 'audit.retention.update',
          resourceType: 'organization',
          resourceId: orgId,
          details: {
            before: { retentionDays: before.retentionDays },
            after: { retentionDays: body.retentionDays },
          },
        });
        return retentionPolicy(ctx.db, orgId);
      },
    }),
  ];
}
