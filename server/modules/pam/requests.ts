import type { AppContext } from '../../context';
import type {
  ActiveElevations,
  ElevationRequestDetail,
  ElevationRequestList,
  SimilarRequests,
} from '../../contract';
import type { AuthContext } from '../../http/auth-context';
import { notFound } from '../../http/errors';
import { requireOrgAccess } from '../../http/scope';
import {
  deviceOutside,
  deviceVisibility,
  onDeviceRows,
  restrictionDenied,
  visibilityClauses,
} from '../devices';
import { stepUpRequirement } from './step-up';
import { BULK_MAX, type ListQuery } from './schemas';
import {
  approvalOf,
  filterClauses,
  pagedRequests,
  requestRow,
  requestsWhere,
  sameFileClauses,
  timelineOf,
  toElevationRequest,
  type ElevationRow,
  type RequestClause,
} from './store';
import { userById } from '../users';

// Reading elevation requests. A caller sees the requests of the devices it could see (server/modules/devices/
// access.ts): its organizations, and for a restricted technician only its sites and device groups (spec 2: 403
// on writes outside them, not found on reads).

export const REQUEST_NOT_FOUND = 'Elevation request not found';
/** Request queries read `elevation_requests r`; the site is the one the request was raised in. */
const REQUESTS = onDeviceRows('r');

export function requireRequest(
  ctx: AppContext,
  auth: AuthContext,
  id: string,
  access: 'read' | 'write' = 'read',
): ElevationRow {
  const row = requestRow(ctx.db, id);
  if (!row) throw notFound(REQUEST_NOT_FOUND);
  const outside = deviceOutside(ctx.db, deviceVisibility(ctx, auth), {
    deviceId: row.device_id,
    orgId: row.org_id,
    siteId: row.site_id,
  });
  // In the caller's organizations but outside a restricted technician's sites or groups: hidden to reads, 403 to
  // writes.
  if (outside === 'organization' || (outside && access === 'read')) throw notFound(REQUEST_NOT_FOUND);
  if (outside) throw restrictionDenied(outside);
  return row;
}

export function listRequests(ctx: AppContext, auth: AuthContext, query: ListQuery): ElevationRequestList {
  if (query.orgId) requireOrgAccess(ctx.db, auth, query.orgId);
  const clauses: RequestClause[] = [
    ...visibilityClauses(deviceVisibility(ctx, auth), REQUESTS),
    ...filterClauses(query),
  ];
  // The pending queue is triaged: critical first, then the longest waiting. Everything else reads as a log.
  const order = query.order ?? (query.status === 'pending' ? 'risk' : 'newest');
  const { rows, total } = pagedRequests(ctx.db, clauses, order, query);
  return {
    success: true,
    requests: rows.map(toElevationRequest),
    pagination: { page: query.page, limit: query.limit, total },
  };
}

// The request itself and its look-alikes fit in one bulk call, so one re-authentication covers the whole set.
const SIMILAR_LIMIT = BULK_MAX - 1;

/**
 * Gatehouse extension: the other pending requests the caller may see for the same file from the same signer, to
 * decide together ("decide similar"). Only by hash: a path or a name says nothing about what the file is.
 */
export function similarRequests(ctx: AppContext, auth: AuthContext, id: string): SimilarRequests {
  const row = requireRequest(ctx, auth, id);
  if (!row.target_executable_hash) return { success: true, items: [], total: 0 };
  const { rows, total } = pagedRequests(
    ctx.db,
    [...visibilityClauses(deviceVisibility(ctx, auth), REQUESTS), ...sameFileClauses(row)],
    'risk',
    { page: 1, limit: SIMILAR_LIMIT },
  );
  const user = auth.kind === 'user' ? (userById(ctx.db, auth.userId) ?? null) : null;
  return {
    success: true,
    items: rows.map(toElevationRequest).map((request) => ({
      request,
      stepUp: stepUpRequirement(ctx, user, request),
    })),
    total,
  };
}

/** Spec 2: up to 500 approved, auto-approved or actuating elevations whose window has not ended. */
export function activeElevations(
  ctx: AppContext,
  auth: AuthContext,
  orgId: string | undefined,
): ActiveElevations {
  if (orgId) requireOrgAccess(ctx.db, auth, orgId);
  const clauses: RequestClause[] = [
    ...visibilityClauses(deviceVisibility(ctx, auth), REQUESTS),
    { sql: "r.status IN ('approved', 'auto_approved', 'actuating')", params: [] },
    { sql: 'r.expires_at > ?', params: [new Date().toISOString()] },
  ];
  if (orgId) clauses.push({ sql: 'r.org_id = ?', params: [orgId] });
  const rows = requestsWhere(ctx.db, clauses, 'r.expires_at ASC', 500);
  return { success: true, active: rows.map(toElevationRequest) };
}

const HISTORY_LIMIT = 20;

/** Gatehouse extension: one request with what a technician needs to decide it. */
export function requestDetail(ctx: AppContext, auth: AuthContext, id: string): ElevationRequestDetail {
  const row = requireRequest(ctx, auth, id);
  const request = toElevationRequest(row);
  // The same executable: by hash when reported (a renamed copy is the same file), else by path.
  const sameFile = row.target_executable_hash
    ? { sql: 'r.target_executable_hash = ?', params: [row.target_executable_hash] }
    : row.target_executable_path
      ? { sql: 'r.target_executable_path = ? COLLATE NOCASE', params: [row.target_executable_path] }
      : row.tool_name
        ? { sql: 'r.tool_name = ?', params: [row.tool_name] }
        : null;
  const history = sameFile
    ? requestsWhere(
        ctx.db,
        [
          ...visibilityClauses(deviceVisibility(ctx, auth), REQUESTS),
          { sql: 'r.org_id = ?', params: [row.org_id] },
          sameFile,
          { sql: 'r.id != ?', params: [row.id] },
        ],
        'r.requested_at DESC',
        HISTORY_LIMIT,
      )
    : [];
  const user = auth.kind === 'user' ? userById(ctx.db, auth.userId) : undefined;
  return {
    success: true,
    request,
    history: history.map(toElevationRequest),
    timeline: timelineOf(ctx.db, row.id),
    approval: auth.kind === 'user' ? approvalOf(ctx.db, row.id, auth.userId) : null,
    stepUp: stepUpRequirement(ctx, user ?? null, request),
  };
}
