import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type {
  FilterConditionGroup,
  FilterPreview,
  SavedFilter,
  SavedFilterList,
} from '../../contract/filters';
import type { AuthContext } from '../../http/auth-context';
import { badRequest, forbidden, notFound } from '../../http/errors';
import { requireOrgAccess, resolveOrgScope, scopeCovers } from '../../http/scope';
import { auditCaller } from '../audit';
import { callerId, deviceVisibility, visibilityClauses } from '../devices';
import { compileFilter, customFieldTypesFor, parseConditionGroup, type CustomFieldTypes } from './compile';
import type { createFilterBody, listFiltersQuery, previewBody, updateFilterBody } from './schemas';
import { filterStore, previewDevices, toSavedFilter, type FilterChanges, type SavedFilterRow } from './store';

// Rules of /filters (spec 2, Saved filters). A filter belongs to one organization and is visible to everyone
// who can see that organization; writes need devices:write (route) and, for console users, an MFA session.
// A filter is compiled when it is saved, so a stored filter always compiles against its organization's
// custom-field types; previews compile again (relative dates move, definitions may change).

export const FILTER_NOT_FOUND = 'Filter not found';

function filterInScope(ctx: AppContext, auth: AuthContext, id: string): SavedFilterRow {
  const row = filterStore(ctx.db).byId(id);
  if (!row || !scopeCovers(resolveOrgScope(ctx.db, auth), row.org_id)) throw notFound(FILTER_NOT_FOUND);
  return row;
}

/**
 * Organization scope (users and API keys) works in its own organization: a sent orgId is ignored, as the spec
 * says. Partner and system callers name the organization, and it must be one they can reach.
 */
function targetOrg(ctx: AppContext, auth: AuthContext, orgId: string | undefined): string {
  if (auth.scope === 'organization') {
    if (!auth.orgId) throw forbidden('Organization context required');
    return auth.orgId;
  }
  if (!orgId) throw badRequest(`orgId is required for ${auth.scope} scope`, 'VALIDATION_ERROR');
  return requireOrgAccess(ctx.db, auth, orgId).id;
}

/** Parses and compiles, so that a filter that would not run is refused when it is saved. */
function validConditions(raw: unknown, types: CustomFieldTypes): FilterConditionGroup {
  const group = parseConditionGroup(raw);
  compileFilter(group, { customFieldTypes: types });
  return group;
}

/** Distinct field keys of a condition group, for audit details. */
function fieldsOf(group: FilterConditionGroup): string[] {
  const fields = new Set<string>();
  const walk = (g: FilterConditionGroup) => {
    for (const c of g.conditions) {
      if ('conditions' in c) walk(c);
      else fields.add(c.field);
    }
  };
  walk(group);
  return [...fields].sort();
}

function audit(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  action: string,
  row: SavedFilterRow,
  details: object,
) {
  auditCaller(ctx, req, auth, {
    orgId: row.org_id,
    action,
    resourceType: 'filter',
    resourceId: row.id,
    resourceName: row.name,
    details: { ...details },
  });
}

export function listFilters(
  ctx: AppContext,
  auth: AuthContext,
  query: z.infer<typeof listFiltersQuery>,
): SavedFilterList {
  const rows = filterStore(ctx.db).list(resolveOrgScope(ctx.db, auth), query.search || undefined);
  return { data: rows.map(toSavedFilter), total: rows.length };
}

export function getFilter(ctx: AppContext, auth: AuthContext, id: string): SavedFilter {
  return toSavedFilter(filterInScope(ctx, auth, id));
}

export function createFilter(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  body: z.infer<typeof createFilterBody>,
): SavedFilter {
  const orgId = targetOrg(ctx, auth, body.orgId);
  const conditions = validConditions(body.conditions, customFieldTypesFor(ctx.db, [orgId]));
  const at = new Date().toISOString();
  const row: SavedFilterRow = {
    id: randomUUID(),
    org_id: orgId,
    name: body.name,
    description: body.description ?? null,
    conditions: JSON.stringify(conditions),
    created_by: callerId(auth),
    created_at: at,
    updated_at: at,
  };
  filterStore(ctx.db).insert(row);
  audit(ctx, req, auth, 'filter.create', row, { description: row.description, fields: fieldsOf(conditions) });
  return toSavedFilter(row);
}

export function updateFilter(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  id: string,
  body: z.infer<typeof updateFilterBody>,
): SavedFilter {
  if (body.name === undefined && body.description === undefined && body.conditions === undefined)
    throw badRequest('No updates provided', 'VALIDATION_ERROR');
  const row = filterInScope(ctx, auth, id);
  const changes: FilterChanges = {};
  if (body.name !== undefined && body.name !== row.name) changes.name = body.name;
  if (body.description !== undefined && body.description !== row.description)
    changes.description = body.description;
  if (body.conditions !== undefined) {
    const conditions = JSON.stringify(
      validConditions(body.conditions, customFieldTypesFor(ctx.db, [row.org_id])),
    );
    if (conditions !== row.conditions) changes.conditions = conditions;
  }
  const changedFields = Object.keys(changes);
  const store = filterStore(ctx.db);
  // Nothing differs: answer the filter as it is, without touching updated_at or the audit log.
  if (changedFields.length === 0) return toSavedFilter(row);
  if (!store.update(id, changes, new Date().toISOString())) throw notFound(FILTER_NOT_FOUND);
  const updated = store.byId(id)!;
  audit(ctx, req, auth, 'filter.update', updated, { changedFields });
  return toSavedFilter(updated);
}

export function deleteFilter(ctx: AppContext, req: Request, auth: AuthContext, id: string): SavedFilter {
  const row = filterInScope(ctx, auth, id);
  if (!filterStore(ctx.db).delete(id)) throw notFound(FILTER_NOT_FOUND);
  audit(ctx, req, auth, 'filter.delete', row, {});
  return toSavedFilter(row);
}

/** Runs conditions over every device the caller can see: totalCount before trimming to `limit`. */
function runPreview(
  ctx: AppContext,
  auth: AuthContext,
  group: FilterConditionGroup,
  types: CustomFieldTypes,
  limit: number,
): FilterPreview {
  const now = new Date();
  const sets = compileFilter(group, { customFieldTypes: types, now });
  const probes = compileFilter(group, { customFieldTypes: types, now, childForm: 'probe' });
  const visibility = deviceVisibility(ctx, auth);
  const result = previewDevices(ctx.db, visibilityClauses(visibility), { sets, probes }, limit);
  return { data: { ...result, evaluatedAt: now.toISOString() } };
}

export function previewFilter(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  body: z.infer<typeof previewBody>,
): FilterPreview {
  const group = parseConditionGroup(body.conditions);
  const scope = resolveOrgScope(ctx.db, auth);
  const types = customFieldTypesFor(ctx.db, scope.kind === 'all' ? 'all' : scope.orgIds);
  const preview = runPreview(ctx, auth, group, types, body.limit);
  // An ad-hoc preview belongs to no one filter: it lands in the caller's own chain (organization, partner or
  // platform).
  auditCaller(ctx, req, auth, {
    orgId: auth.scope === 'organization' ? auth.orgId : null,
    partnerId: auth.scope === 'partner' ? auth.partnerId : null,
    action: 'filter.preview',
    resourceType: 'filter',
    details: { fields: fieldsOf(group), limit: body.limit, totalCount: preview.data.totalCount },
  });
  return preview;
}

/**
 * A saved filter's preview runs over every organization the caller can see (spec: totalCount across all
 * accessible organizations), with the custom-field types of the filter's own organization, where it was defined.
 */
export function previewSavedFilter(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  id: string,
  limit: number,
): FilterPreview {
  const row = filterInScope(ctx, auth, id);
  const group = parseConditionGroup(JSON.parse(row.conditions));
  const preview = runPreview(ctx, auth, group, customFieldTypesFor(ctx.db, [row.org_id]), limit);
  audit(ctx, req, auth, 'filter.saved.preview', row, { limit, totalCount: preview.data.totalCount });
  return preview;
}
