import { randomUUID } from 'node:crypto';
import { transaction } from '../../db/after-commit';
import type { Request } from 'express';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { DeviceGroup, DeviceGroupMembersAdded, Paginated, TagCount } from '../../contract';
import type { AuthContext } from '../../http/auth-context';
import { badRequest, forbidden, notFound } from '../../http/errors';
import { paginated } from '../../http/pagination';
import { DEVICE_GROUP_DENIED, requireOrgAccess, requireSiteAccess, scopeFilter } from '../../http/scope';
import { auditCaller } from '../audit';
import {
  canSeeDevice,
  deviceRefOf,
  deviceVisibility,
  restrictionClauses,
  visibilityClauses,
  type DeviceVisibility,
} from './access';
import {
  addGroupMemberRows,
  deleteGroupRow,
  groupById,
  insertGroup,
  listGroupRows,
  memberCandidates,
  removeGroupMemberRow,
  touchGroup,
  updateGroupRow,
} from './group-store';
import type {
  addMembersBody,
  CreateGroupBody,
  listGroupsQuery,
  listTagsQuery,
  UpdateGroupBody,
} from './schemas';
import { likeContains } from '../../db/like';
import { siteOrg, tagCounts, toGroup, type Clause, type GroupRow } from './store';

// Device groups (spec 3 catalog: /groups) and tags (/tags), as far as filters and the console need them. A group
// belongs to one organization and optionally one of its sites. Site-restricted users see the groups of their
// sites and the organization-wide ones, and may change only groups of their own sites; group-restricted users see
// and change only their own groups and create none (a new group would not be theirs). Every caller counts only
// the members it can see.

const GROUP_NOT_FOUND = 'Device group not found';

function groupVisibilityClauses(v: DeviceVisibility): Clause[] {
  const scoped = scopeFilter(v.scope, 'g.org_id');
  const clauses: Clause[] = [{ sql: scoped.clause, params: scoped.params }];
  if (v.sites) {
    clauses.push({
      sql: 'g.site_id IS NULL OR g.site_id IN (SELECT value FROM json_each(?))',
      params: [JSON.stringify([...v.sites])],
    });
  }
  if (v.deviceGroups) {
    clauses.push({
      sql: 'g.id IN (SELECT value FROM json_each(?))',
      params: [JSON.stringify([...v.deviceGroups])],
    });
  }
  return clauses;
}

function canSeeGroup(v: DeviceVisibility, row: GroupRow): boolean {
  if (v.scope.kind === 'some' && !v.scope.orgIds.has(row.org_id)) return false;
  if (v.deviceGroups && !v.deviceGroups.has(row.id)) return false;
  return v.sites === null || row.site_id === null || v.sites.has(row.site_id);
}

/** A group the caller can see, or 404 (as for devices: no probing across tenants). */
export function groupInScope(ctx: AppContext, auth: AuthContext, id: string): GroupRow {
  const v = deviceVisibility(ctx, auth);
  const row = groupById(ctx.db, id, restrictionClauses(v));
  if (!row || !canSeeGroup(v, row)) throw notFound(GROUP_NOT_FOUND);
  return row;
}

/** Restricted users change only groups tied to one of their sites; organization-wide groups are read-only to them. */
function requireGroupWrite(ctx: AppContext, auth: AuthContext, id: string): GroupRow {
  const row = groupInScope(ctx, auth, id);
  const { sites } = deviceVisibility(ctx, auth);
  if (sites && (row.site_id === null || !sites.has(row.site_id)))
    throw forbidden('Access to this site denied');
  return row;
}

/** A site for a group of `orgId`: it must belong to that organization and be reachable by the caller. */
function checkGroupSite(ctx: AppContext, auth: AuthContext, orgId: string, siteId: string | null): void {
  if (siteId === null) {
    if (deviceVisibility(ctx, auth).sites) throw forbidden('Access to this site denied');
    return;
  }
  if (siteOrg(ctx.db, siteId) !== orgId)
    throw badRequest("siteId must be a site of the group's organization", 'VALIDATION_ERROR');
  requireSiteAccess(ctx.db, auth, siteId);
}

function audit(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  action: string,
  group: { id: string; org_id: string; name: string },
  details: Record<string, unknown>,
): void {
  auditCaller(ctx, req, auth, {
    orgId: group.org_id,
    action,
    resourceType: 'device_group',
    resourceId: group.id,
    resourceName: group.name,
    details,
  });
}

export function listGroups(
  ctx: AppContext,
  auth: AuthContext,
  query: z.infer<typeof listGroupsQuery>,
): Paginated<DeviceGroup> {
  const v = deviceVisibility(ctx, auth);
  const clauses = groupVisibilityClauses(v);
  if (query.orgId) {
    requireOrgAccess(ctx.db, auth, query.orgId);
    clauses.push({ sql: 'g.org_id = ?', params: [query.orgId] });
  }
  if (query.siteId) {
    requireSiteAccess(ctx.db, auth, query.siteId);
    clauses.push({ sql: 'g.site_id = ?', params: [query.siteId] });
  }
  if (query.search) {
    clauses.push({ sql: "g.name LIKE ? ESCAPE '\\'", params: [likeContains(query.search)] });
  }
  const { rows, total } = listGroupRows(ctx.db, clauses, restrictionClauses(v), query);
  return paginated(rows.map(toGroup), query, total);
}

export function getGroup(ctx: AppContext, auth: AuthContext, id: string): DeviceGroup {
  return toGroup(groupInScope(ctx, auth, id));
}

/** Organization callers and API keys work in their own organization; partner and system callers name one. */
function targetOrg(ctx: AppContext, auth: AuthContext, orgId: string | undefined): string {
  const target = orgId ?? (auth.scope === 'organization' ? auth.orgId : null);
  if (!target) throw badRequest(`orgId is required for ${auth.scope} scope`, 'VALIDATION_ERROR');
  return requireOrgAccess(ctx.db, auth, target).id;
}

export function createGroup(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  body: CreateGroupBody,
): DeviceGroup {
  const orgId = targetOrg(ctx, auth, body.orgId);
  if (deviceVisibility(ctx, auth).deviceGroups) throw forbidden(DEVICE_GROUP_DENIED);
  const siteId = body.siteId ?? null;
  checkGroupSite(ctx, auth, orgId, siteId);
  const id = randomUUID();
  insertGroup(ctx.db, {
    id,
    orgId,
    siteId,
    name: body.name,
    description: body.description ?? null,
    at: new Date().toISOString(),
  });
  const row = groupById(ctx.db, id, restrictionClauses(deviceVisibility(ctx, auth)))!;
  audit(ctx, req, auth, 'device_group.create', row, { siteId });
  return toGroup(row);
}

export function updateGroup(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  id: string,
  body: UpdateGroupBody,
): DeviceGroup {
  const changedFields = Object.entries(body)
    .filter(([, value]) => value !== undefined)
    .map(([key]) => key);
  if (changedFields.length === 0) throw badRequest('No updates provided');
  const row = transaction(ctx.db, () => {
    const group = requireGroupWrite(ctx, auth, id);
    if (body.siteId !== undefined) checkGroupSite(ctx, auth, group.org_id, body.siteId);
    updateGroupRow(
      ctx.db,
      group.id,
      {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.siteId !== undefined ? { site_id: body.siteId } : {}),
      },
      new Date().toISOString(),
    );
    return groupById(ctx.db, group.id, restrictionClauses(deviceVisibility(ctx, auth)))!;
  });
  audit(ctx, req, auth, 'device_group.update', row, { changedFields });
  return toGroup(row);
}

/** Deletes the group and its memberships (the devices stay); returns the group as it was. */
export function deleteGroup(ctx: AppContext, req: Request, auth: AuthContext, id: string): DeviceGroup {
  const row = requireGroupWrite(ctx, auth, id);
  if (!deleteGroupRow(ctx.db, row.id)) throw notFound(GROUP_NOT_FOUND);
  audit(ctx, req, auth, 'device_group.delete', row, { deviceCount: row.device_count });
  return toGroup(row);
}

/**
 * Adds devices to a group. Every id must name a device the caller can see, of the group's organization, that is
 * not decommissioned; otherwise nothing is added and the offending ids are listed (they are the caller's own
 * input, so listing them reveals nothing). Devices already in the group are not counted again.
 */
export function addGroupMembers(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  id: string,
  body: z.infer<typeof addMembersBody>,
): DeviceGroupMembersAdded {
  const v = deviceVisibility(ctx, auth);
  const { group, added } = transaction(ctx.db, () => {
    const group = requireGroupWrite(ctx, auth, id);
    const found = new Map(memberCandidates(ctx.db, body.deviceIds).map((d) => [d.id, d]));
    const invalid = body.deviceIds.filter((deviceId) => {
      const device = found.get(deviceId);
      return (
        !device ||
        device.org_id !== group.org_id ||
        device.status === 'decommissioned' ||
        !canSeeDevice(ctx.db, v, deviceRefOf(device))
      );
    });
    if (invalid.length > 0) {
      throw badRequest("deviceIds must be devices of the group's organization", 'INVALID_DEVICES', {
        invalidDeviceIds: invalid,
      });
    }
    const at = new Date().toISOString();
    const added = addGroupMemberRows(ctx.db, group.id, body.deviceIds, at);
    if (added.length > 0) touchGroup(ctx.db, group.id, at);
    return { group: groupById(ctx.db, group.id, restrictionClauses(v))!, added };
  });
  audit(ctx, req, auth, 'device_group.members.add', group, {
    deviceIds: added,
    requested: body.deviceIds.length,
  });
  return { added: added.length, group: toGroup(group) };
}

export function removeGroupMember(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  id: string,
  deviceId: string,
): DeviceGroup {
  const v = deviceVisibility(ctx, auth);
  const group = transaction(ctx.db, () => {
    const group = requireGroupWrite(ctx, auth, id);
    const device = memberCandidates(ctx.db, [deviceId])[0];
    // A member the caller cannot see is answered like a device that is not in the group at all.
    if (
      !device ||
      !canSeeDevice(ctx.db, v, deviceRefOf(device)) ||
      !removeGroupMemberRow(ctx.db, group.id, deviceId)
    ) {
      throw notFound('Device is not a member of this group');
    }
    touchGroup(ctx.db, group.id, new Date().toISOString());
    return groupById(ctx.db, group.id, restrictionClauses(v))!;
  });
  audit(ctx, req, auth, 'device_group.members.remove', group, { deviceIds: [deviceId] });
  return toGroup(group);
}

/** At most this many distinct tags are listed (ordered by name); the search narrows beyond it. */
const MAX_TAGS_LISTED = 1000;

/** Tags of the visible, not decommissioned devices, with how many devices carry each. */
export function listTags(
  ctx: AppContext,
  auth: AuthContext,
  query: z.infer<typeof listTagsQuery>,
): { data: TagCount[] } {
  const clauses = [
    ...visibilityClauses(deviceVisibility(ctx, auth)),
    { sql: "d.status <> 'decommissioned'", params: [] },
  ];
  if (query.orgId) {
    requireOrgAccess(ctx.db, auth, query.orgId);
    clauses.push({ sql: 'd.org_id = ?', params: [query.orgId] });
  }
  if (query.search) clauses.push({ sql: "t.tag LIKE ? ESCAPE '\\'", params: [likeContains(query.search)] });
  const rows = tagCounts(ctx.db, clauses, MAX_TAGS_LISTED);
  return { data: rows.map((r) => ({ tag: r.tag, deviceCount: r.device_count })) };
}
