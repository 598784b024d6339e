import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { Site } from '../../contract';
import type { AppContext } from '../../context';
import type { AuthContext } from '../../http/auth-context';
import { badRequest, notFound } from '../../http/errors';
import { paginated, type PageRequest } from '../../http/pagination';
import { requireOrgAccess, requireSiteAccess, resolveOrgScope, siteRestriction } from '../../http/scope';
import { auditTenancy, definedKeys } from './gates';
import type { CreateSiteBody, UpdateSiteBody } from './schemas';
import { toSite, type SiteColumns } from './rows';
import { deleteSiteRow, insertSite, pageSites, siteById, updateSiteRow } from './store';

// Sites (spec 1, /orgs/sites): reached through their organization, and for users limited to sites, only those.

export function listSites(ctx: AppContext, auth: AuthContext, orgId: string | undefined, page: PageRequest) {
  if (orgId) requireOrgAccess(ctx.db, auth, orgId);
  const { db } = ctx;
  const { rows, total } = pageSites(
    ctx.db,
    resolveOrgScope(db, auth),
    siteRestriction(db, auth),
    orgId,
    page,
  );
  return paginated(rows.map(toSite), page, total);
}

function accessibleSite(ctx: AppContext, auth: AuthContext, id: string) {
  requireSiteAccess(ctx.db, auth, id);
  const row = siteById(ctx.db, id);
  if (!row) throw notFound('Site not found');
  return row;
}

export function getSite(ctx: AppContext, auth: AuthContext, id: string): Site {
  return toSite(accessibleSite(ctx, auth, id));
}

export function createSite(ctx: AppContext, req: Request, auth: AuthContext, body: CreateSiteBody): Site {
  requireOrgAccess(ctx.db, auth, body.orgId);
  const at = new Date().toISOString();
  const id = randomUUID();
  insertSite(ctx.db, {
    id,
    org_id: body.orgId,
    name: body.name,
    timezone: body.timezone ?? 'UTC',
    address: JSON.stringify(body.address ?? {}),
    contact: JSON.stringify(body.contact ?? {}),
    settings: JSON.stringify(body.settings ?? {}),
    created_at: at,
    updated_at: at,
  });
  const site = toSite(siteById(ctx.db, id)!);
  auditTenancy(ctx, req, auth, {
    orgId: site.orgId,
    action: 'site.create',
    resourceType: 'site',
    resourceId: id,
    resourceName: site.name,
    details: { timezone: site.timezone },
  });
  return site;
}

export function updateSite(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  id: string,
  body: UpdateSiteBody,
): Site {
  const row = accessibleSite(ctx, auth, id);
  if (body.orgId !== undefined && body.orgId !== row.org_id)
    throw badRequest('orgId cannot be changed', 'IMMUTABLE_FIELD');
  const { orgId: _ignored, ...fields } = body;
  const changedFields = definedKeys(fields);
  if (changedFields.length === 0) throw badRequest('No updates provided');
  // address, contact and settings are free-form documents the console edits as a whole: they are replaced.
  const columns: SiteColumns = {
    name: fields.name,
    timezone: fields.timezone,
    address: fields.address ? JSON.stringify(fields.address) : undefined,
    contact: fields.contact ? JSON.stringify(fields.contact) : undefined,
    settings: fields.settings ? JSON.stringify(fields.settings) : undefined,
    updated_at: new Date().toISOString(),
  };
  updateSiteRow(ctx.db, id, columns);
  const site = toSite(siteById(ctx.db, id)!);
  auditTenancy(ctx, req, auth, {
    orgId: site.orgId,
    action: 'site.update',
    resourceType: 'site',
    resourceId: id,
    resourceName: site.name,
    details: { changedFields },
  });
  return site;
}

export function deleteSite(ctx: AppContext, req: Request, auth: AuthContext, id: string): { success: true } {
  const row = accessibleSite(ctx, auth, id);
  deleteSiteRow(ctx.db, id);
  auditTenancy(ctx, req, auth, {
    orgId: row.org_id,
    action: 'site.delete',
    resourceType: 'site',
    resourceId: id,
    resourceName: row.name,
  });
  return { success: true };
}
