import type { AppContext } from '../../context';
import type { Db } from '../../db/connection';
import type { AuthContext } from '../../http/auth-context';
import { forbidden, notFound } from '../../http/errors';
import {
  DEVICE_GROUP_DENIED,
  resolveOrgScope,
  restrictionsOf,
  scopeCovers,
  scopeFilter,
  SITE_DENIED,
  type OrgScope,
  type Restrictions,
} from '../../http/scope';
import { inAnyGroup } from './group-store';
import { deviceById, type Clause, type DeviceRow } from './store';

// Which devices a caller sees: the organizations of its scope (server/http/scope.ts), narrowed for organization
// users restricted to sites, to device groups, or both (then a device must pass both). A site-restricted user sees
// only devices placed in one of their sites; a device without a site belongs to no site they were given, so it
// stays hidden from them. A group-restricted user sees only devices that are members of at least one of their
// groups, as membership stands at the moment of asking. This file is the one statement of that rule: the SQL form
// (visibilityClauses) and the row form (canSeeDevice) say the same thing.

export const DEVICE_NOT_FOUND = 'Device not found';

export interface DeviceVisibility extends Restrictions {
  scope: OrgScope;
}

export function deviceVisibility(ctx: Pick<AppContext, 'db'>, auth: AuthContext): DeviceVisibility {
  return { scope: resolveOrgScope(ctx.db, auth), ...restrictionsOf(ctx.db, auth) };
}

/**
 * Where a query finds a device's organization, site and id: the devices table itself (`d.id`) or a table whose
 * rows name a device (`r.device_id` of elevation requests, `e.device_id` of their events). Those rows carry the
 * site the device had when they were written, and that site is what a site restriction compares.
 */
export interface DeviceColumns {
  orgId: string;
  siteId: string;
  deviceId: string;
}

export const onDevices = (alias = 'd'): DeviceColumns => ({
  orgId: `${alias}.org_id`,
  siteId: `${alias}.site_id`,
  deviceId: `${alias}.id`,
});

export const onDeviceRows = (alias: string): DeviceColumns => ({
  orgId: `${alias}.org_id`,
  siteId: `${alias}.site_id`,
  deviceId: `${alias}.device_id`,
});

const IN_LIST = 'IN (SELECT value FROM json_each(?))';
const IN_GROUPS = `IN (SELECT m.device_id FROM device_group_members m WHERE m.group_id ${IN_LIST})`;

/**
 * The site and group part of a visibility, for queries already pinned to one organization the caller may see.
 * Written as `IN` over one JSON parameter each, so the statement text stays the same however long the lists are.
 */
export function restrictionClauses(v: Restrictions, columns: DeviceColumns = onDevices()): Clause[] {
  const clauses: Clause[] = [];
  if (v.sites) {
    clauses.push({
      sql: `${columns.siteId} ${IN_LIST}`,
      params: [JSON.stringify([...v.sites])],
      broadSql: `+${columns.siteId} ${IN_LIST}`,
    });
  }
  if (v.deviceGroups) {
    clauses.push({
      sql: `${columns.deviceId} ${IN_GROUPS}`,
      params: [JSON.stringify([...v.deviceGroups])],
      broadSql: `+${columns.deviceId} ${IN_GROUPS}`,
    });
  }
  return clauses;
}

/** The SQL form of a visibility (scope, then restrictions). */
export function visibilityClauses(v: DeviceVisibility, columns: DeviceColumns = onDevices()): Clause[] {
  const scoped = scopeFilter(v.scope, columns.orgId);
  return [
    { sql: scoped.clause, params: scoped.params, broadSql: scopeFilter(v.scope, `+${columns.orgId}`).clause },
    ...restrictionClauses(v, columns),
  ];
}

/** A device as the row form of the rule needs it (named explicitly: request rows carry their own `id`). */
export interface DeviceRef {
  deviceId: string;
  orgId: string;
  siteId: string | null;
}

/** Which part of a visibility leaves a device out, or null when the caller sees it. */
export function deviceOutside(
  db: Db,
  v: DeviceVisibility,
  device: DeviceRef,
): 'organization' | 'site' | 'device_group' | null {
  if (!scopeCovers(v.scope, device.orgId)) return 'organization';
  if (v.sites && (device.siteId === null || !v.sites.has(device.siteId))) return 'site';
  if (v.deviceGroups && !inAnyGroup(db, device.deviceId, v.deviceGroups)) return 'device_group';
  return null;
}

export function canSeeDevice(db: Db, v: DeviceVisibility, device: DeviceRef): boolean {
  return deviceOutside(db, v, device) === null;
}

/** The 403 for a write to a device of the caller's organization that their restriction leaves out. */
export function restrictionDenied(outside: 'site' | 'device_group') {
  return forbidden(outside === 'site' ? SITE_DENIED : DEVICE_GROUP_DENIED);
}

export const deviceRefOf = (row: Pick<DeviceRow, 'id' | 'org_id' | 'site_id'>): DeviceRef => ({
  deviceId: row.id,
  orgId: row.org_id,
  siteId: row.site_id,
});

/**
 * A device the caller may see, or 404 'Device not found' (spec 2: devices outside the caller's organizations are
 * not found, so ids cannot be probed across tenants). Decommissioned devices are still found: they are history.
 */
export function requireDevice(ctx: Pick<AppContext, 'db'>, auth: AuthContext, id: string): DeviceRow {
  const row = deviceById(ctx.db, id);
  if (!row || !canSeeDevice(ctx.db, deviceVisibility(ctx, auth), deviceRefOf(row)))
    throw notFound(DEVICE_NOT_FOUND);
  return row;
}

/** Who the audit log and created_by columns name for the caller. */
export const callerId = (auth: AuthContext): string => (auth.kind === 'user' ? auth.userId : auth.apiKeyId);
