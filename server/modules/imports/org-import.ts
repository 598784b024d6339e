import type { Request } from 'express';
import type { OrgImportPreviewResponse, OrgImportResult } from '../../contract/imports';
import type { AppContext } from '../../context';
import type { UserAuth } from '../../http/auth-context';
import { auditCaller } from '../audit';
import { administeredPartner, auditImportSummary } from './gate';
import { commitOrgImport } from './org-commit';
import { matchOrgRows, toPreviewRow } from './org-match';
import { readOrgState } from './org-state';
import type { orgCommitBody, orgPreviewBody } from './schemas';
import type { z } from 'zod';

// POST /orgs/import/preview and POST /orgs/import (spec 3, Import).

export function previewOrgImport(
  ctx: AppContext,
  auth: UserAuth,
  body: z.infer<typeof orgPreviewBody>,
): OrgImportPreviewResponse {
  const partnerId = administeredPartner(ctx.db, auth);
  const matches = matchOrgRows(readOrgState(ctx.db, partnerId), body.rows);
  return { rows: body.rows.map((row, i) => toPreviewRow(row, i, matches[i]!)) };
}

export function commitOrgImportRequest(
  ctx: AppContext,
  req: Request,
  auth: UserAuth,
  body: z.infer<typeof orgCommitBody>,
): OrgImportResult {
  const partnerId = administeredPartner(ctx.db, auth);
  const { created, reactivated, ...result } = commitOrgImport({
    db: ctx.db,
    partnerId,
    rows: body.rows,
    mode: body.mode,
  });
  for (const org of created)
    auditCaller(ctx, req, auth, {
      orgId: org.id,
      action: 'organization.create',
      resourceType: 'organization',
      resourceId: org.id,
      resourceName: org.name,
      details: { partnerId, source: 'import' },
    });
  for (const org of reactivated)
    auditCaller(ctx, req, auth, {
      orgId: org.id,
      action: 'organization.reactivate',
      resourceType: 'organization',
      resourceId: org.id,
      resourceName: org.name,
      details: { partnerId, source: 'import' },
    });
  auditImportSummary(ctx, req, auth, partnerId, 'organization.import', body, result);
  return result;
}
