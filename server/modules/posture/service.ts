import type { AppContext } from '../../context';
import type { PostureDevices, PostureSummary } from '../../contract';
import type { UserAuth } from '../../http/auth-context';
import { requireOrgAccess } from '../../http/scope';
import { deviceVisibility, restrictionClauses, visibilityClauses } from '../devices';
import type { PostureDevicesQuery, PostureSummaryQuery } from './schemas';
import { postureDeviceRows, postureOrgs, postureProductCounts, postureTotals, type DeviceSet } from './store';

// Management posture (spec 3): which third-party remote-management products the agents found, per
// organization, over the devices the caller may see. Decommissioned devices are history, not estate, and are
// left out.

const DAY_MS = 86_400_000;

/**
 * The caller's devices (the device visibility rule): one named organization (404/403 by the scope rules when it
 * is not theirs) or every organization in scope; an organization user limited to some sites or device groups
 * sees only those devices.
 */
function deviceSet(ctx: AppContext, auth: UserAuth, orgId: string | undefined): DeviceSet {
  const v = deviceVisibility(ctx, auth);
  const clauses = orgId
    ? [{ sql: 'd.org_id = ?', params: [requireOrgAccess(ctx.db, auth, orgId).id] }, ...restrictionClauses(v)]
    : visibilityClauses(v);
  return { clause: clauses.map((c) => `(${c.sql})`).join(' AND '), params: clauses.flatMap((c) => c.params) };
}

export function postureSummary(
  ctx: AppContext,
  auth: UserAuth,
  query: PostureSummaryQuery,
  now = Date.now(),
): PostureSummary {
  const set = deviceSet(ctx, auth, query.orgId);
  const products = new Map<string, PostureSummary['data']['orgs'][number]['products']>();
  for (const row of postureProductCounts(ctx.db, set)) {
    const list = products.get(row.org_id) ?? [];
    list.push({ product: row.product, status: row.status, deviceCount: row.device_count });
    products.set(row.org_id, list);
  }
  const staleBefore = new Date(now - query.stalenessDays * DAY_MS).toISOString();
  return {
    data: {
      orgs: postureOrgs(ctx.db, set).map((org) => ({
        orgId: org.id,
        orgName: org.name,
        products: products.get(org.id) ?? [],
      })),
      totals: postureTotals(ctx.db, set, staleBefore),
      stalenessDays: query.stalenessDays,
    },
  };
}

export function postureDevices(ctx: AppContext, auth: UserAuth, query: PostureDevicesQuery): PostureDevices {
  const set = deviceSet(ctx, auth, query.orgId);
  const { rows, total } = postureDeviceRows(
    ctx.db,
    set,
    { product: query.product, status: query.status },
    query,
  );
  return {
    data: {
      devices: rows.map((row) => ({
        id: row.id,
        hostname: row.hostname,
        orgId: row.org_id,
        siteId: row.site_id,
        status: row.status,
        deviceStatus: row.device_status,
        postureReportedAt: row.posture_reported_at,
      })),
    },
    pagination: { page: query.page, limit: query.limit, total },
  };
}
