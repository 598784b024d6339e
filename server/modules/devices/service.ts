import type { Request } from 'express';
import type { AppContext } from '../../context';
import type { DeviceCommand, DeviceDetail, DeviceSummary, Paginated } from '../../contract';
import type { AuthContext } from '../../http/auth-context';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors';
import { paginated, type PageRequest } from '../../http/pagination';
import { requireOrgAccess, requireSiteAccess } from '../../http/scope';
import {
  cancelPendingCommandsOf,
  commandById,
  queueCommand,
  toDeviceCommand,
  emitDeviceEvent,
} from '../agents';
import { auditCaller } from '../audit';
import { compileFilter, customFieldTypesFor, parseConditionGroup, filterStore } from '../filters';
import {
  callerId,
  deviceVisibility,
  requireDevice,
  visibilityClauses,
  type DeviceVisibility,
} from './access';
import { groupInScope } from './groups';
import type { CreateCommandBody, DeviceListFilter, UpdateDeviceBody } from './schemas';
import {
  decommissionDeviceRow,
  deviceById,
  deviceCommandRows,
  groupIdsOfDevice,
  listDeviceRows,
  replaceDeviceTags,
  siteOrg,
  tagsOfDevices,
  toDetail,
  toSummary,
  updateDeviceRow,
  type Clause,
  type DeviceFields,
  type DeviceRow,
} from './store';
import { transaction } from '../../db/after-commit';
import { likeContains } from '../../db/like';

// The rules of /devices: the scoped, filtered and sorted list; the detail; edits; commands a technician queues by
// hand; decommissioning. Every read and write goes through requireDevice or the visibility clauses first.

const DECOMMISSIONED = 'Device is decommissioned';
const FILTER_NOT_FOUND = 'Filter not found';

/**
 * Devices of soft-deleted organizations are gone with them, whatever the caller's scope. Written with `+` so the
 * planner never drives a list from it: the caller's scope (or the sort order) is the better starting point.
 */
const LIVE_ORGS: Clause = {
  sql: '+d.org_id IN (SELECT id FROM organizations WHERE deleted_at IS NULL)',
  params: [],
};

/** A saved filter or an inline condition group, compiled to a WHERE fragment over `d` by the filters module. */
function conditionClause(ctx: AppContext, v: DeviceVisibility, raw: unknown): Clause {
  const group = parseConditionGroup(raw);
  const compiled = compileFilter(group, {
    customFieldTypes: customFieldTypesFor(ctx.db, v.scope.kind === 'all' ? 'all' : v.scope.orgIds),
    now: new Date(),
  });
  return { sql: compiled.sql, params: compiled.params };
}

function savedFilterConditions(ctx: AppContext, v: DeviceVisibility, filterId: string): unknown {
  const row = filterStore(ctx.db).conditionsOf(filterId);
  if (!row || !canSeeOrg(v, row.org_id)) throw notFound(FILTER_NOT_FOUND);
  return JSON.parse(row.conditions) as unknown;
}

const canSeeOrg = (v: DeviceVisibility, orgId: string) => v.scope.kind === 'all' || v.scope.orgIds.has(orgId);

function parseConditionsParam(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badRequest('conditions must be a JSON-encoded condition group', 'VALIDATION_ERROR');
  }
}

/**
 * The WHERE clauses of a device list: the caller's visibility, then every narrowing the query asks for. Named
 * organizations, sites, groups and filters outside the caller's scope answer 404/403 rather than an empty list,
 * so the console can tell "nothing matches" from "you cannot look there".
 */
export function deviceListClauses(
  ctx: AppContext,
  auth: AuthContext,
  filter: Omit<DeviceListFilter, 'sort' | 'order'>,
): Clause[] {
  const v = deviceVisibility(ctx, auth);
  const clauses: Clause[] = [...visibilityClauses(v), LIVE_ORGS];
  if (filter.orgId) {
    requireOrgAccess(ctx.db, auth, filter.orgId);
    clauses.push({ sql: 'd.org_id = ?', params: [filter.orgId], broadSql: '+d.org_id = ?' });
  }
  if (filter.siteId) {
    requireSiteAccess(ctx.db, auth, filter.siteId);
    clauses.push({ sql: 'd.site_id = ?', params: [filter.siteId], broadSql: '+d.site_id = ?' });
  }
  if (filter.status) {
    clauses.push({
      sql: 'd.status IN (SELECT value FROM json_each(?))',
      params: [JSON.stringify(filter.status)],
    });
  } else {
    clauses.push({ sql: "d.status <> 'decommissioned'", params: [] });
  }
  if (filter.osType) {
    clauses.push({
      sql: 'd.os_type IN (SELECT value FROM json_each(?))',
      params: [JSON.stringify(filter.osType)],
    });
  }
  if (filter.search) {
    const like = likeContains(filter.search);
    clauses.push({
      sql: "d.hostname LIKE ? ESCAPE '\\' OR d.display_name LIKE ? ESCAPE '\\' OR d.last_user LIKE ? ESCAPE '\\'",
      params: [like, like, like],
    });
  }
  if (filter.tag) {
    // Written as IN so SQLite may start from the tag's index when few devices carry it.
    clauses.push({
      sql: 'd.id IN (SELECT t.device_id FROM device_tags t WHERE t.tag = ?)',
      params: [filter.tag],
    });
  }
  if (filter.groupId) {
    groupInScope(ctx, auth, filter.groupId);
    clauses.push({
      sql: 'd.id IN (SELECT m.device_id FROM device_group_members m WHERE m.group_id = ?)',
      params: [filter.groupId],
    });
  }
  if (filter.filterId) clauses.push(conditionClause(ctx, v, savedFilterConditions(ctx, v, filter.filterId)));
  if (filter.conditions !== undefined)
    clauses.push(conditionClause(ctx, v, parseConditionsParam(filter.conditions)));
  return clauses;
}

/** One page of devices with their tags (one extra query for the whole page, not one per row). */
export function listDevices(
  ctx: AppContext,
  auth: AuthContext,
  query: DeviceListFilter & PageRequest,
): Paginated<DeviceSummary> {
  const clauses = deviceListClauses(ctx, auth, query);
  const { rows, total } = listDeviceRows(ctx.db, clauses, query.sort, query.order, query);
  const tags = tagsOfDevices(
    ctx.db,
    rows.map((r) => r.id),
  );
  return paginated(
    rows.map((r) => toSummary(r, tags.get(r.id) ?? [])),
    query,
    total,
  );
}

function detailOf(ctx: AppContext, row: DeviceRow): DeviceDetail {
  return toDetail(row, {
    tags: tagsOfDevices(ctx.db, [row.id]).get(row.id) ?? [],
    groupIds: groupIdsOfDevice(ctx.db, row.id),
    connected: ctx.agentHub.isConnected(row.id),
  });
}

export function getDevice(ctx: AppContext, auth: AuthContext, id: string): DeviceDetail {
  return detailOf(ctx, requireDevice(ctx, auth, id));
}

const sentKeys = (body: object): string[] =>
  Object.entries(body)
    .filter(([, value]) => value !== undefined)
    .map(([key]) => key);

const CUSTOM_TYPE_CHECKS: Record<string, { test: (v: unknown) => boolean; label: string }> = {
  string: { test: (v) => typeof v === 'string', label: 'a string' },
  number: { test: (v) => typeof v === 'number' && Number.isFinite(v), label: 'a number' },
  boolean: { test: (v) => typeof v === 'boolean', label: 'true or false' },
  datetime: {
    test: (v) => typeof v === 'string' && !Number.isNaN(Date.parse(v)),
    label: 'an ISO 8601 date-time',
  },
};

/**
 * Custom field values merge into the stored object like a JSON merge patch: a key set to null is removed, other
 * keys are replaced, keys not sent are kept. Keys need no definition (filters treat undefined keys as text), but
 * a key that has one (the organization's, else its partner's, else a global one: the filter compiler's order)
 * must carry a value of the defined type, so a number-typed field always compares as a number in saved filters.
 */
function mergeCustomFields(
  ctx: AppContext,
  row: DeviceRow,
  patch: Record<string, string | number | boolean | null>,
): string {
  const types = customFieldTypesFor(ctx.db, [row.org_id]);
  let current: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(row.custom_fields) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      current = parsed as Record<string, unknown>;
  } catch {
    // A corrupt stored value is replaced by the patch rather than blocking every edit.
  }
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      delete next[key];
      continue;
    }
    const type = types.get(key);
    const check = type ? CUSTOM_TYPE_CHECKS[type] : undefined;
    if (check && !check.test(value))
      throw badRequest(`customFields.${key} must be ${check.label}`, 'VALIDATION_ERROR');
    next[key] = value;
  }
  if (Object.keys(next).length > 100)
    throw badRequest('A device holds at most 100 custom fields', 'VALIDATION_ERROR');
  return JSON.stringify(next);
}

export function updateDevice(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  id: string,
  body: UpdateDeviceBody,
): DeviceDetail {
  const changedFields = sentKeys(body);
  if (changedFields.length === 0) throw badRequest('No updates provided');
  const updated = transaction(ctx.db, () => {
    const row = requireDevice(ctx, auth, id);
    if (row.status === 'decommissioned') throw conflict(DECOMMISSIONED);
    const fields: DeviceFields = {};
    if (body.displayName !== undefined) fields.display_name = body.displayName;
    if (body.deviceRole !== undefined) fields.device_role = body.deviceRole;
    if (body.autoUpdate !== undefined) fields.auto_update = body.autoUpdate ? 1 : 0;
    if (body.siteId !== undefined) {
      if (body.siteId === null) {
        // A site-restricted user who took the device out of every site would lose sight of it.
        if (deviceVisibility(ctx, auth).sites) throw forbidden('Access to this site denied');
      } else {
        if (siteOrg(ctx.db, body.siteId) !== row.org_id) {
          throw badRequest("siteId must be a site of the device's organization", 'VALIDATION_ERROR');
        }
        requireSiteAccess(ctx.db, auth, body.siteId);
      }
      fields.site_id = body.siteId;
    }
    if (body.customFields !== undefined)
      fields.custom_fields = mergeCustomFields(ctx, row, body.customFields);
    updateDeviceRow(ctx.db, row.id, fields, new Date().toISOString());
    if (body.tags !== undefined) replaceDeviceTags(ctx.db, row.id, body.tags);
    return deviceById(ctx.db, row.id)!;
  });
  auditCaller(ctx, req, auth, {
    orgId: updated.org_id,
    action: 'device.update',
    resourceType: 'device',
    resourceId: updated.id,
    resourceName: updated.hostname,
    details: { changedFields },
  });
  emitDeviceEvent(ctx, 'device.updated', updated, updated.status);
  return detailOf(ctx, updated);
}

export function queueDeviceCommand(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  id: string,
  body: CreateCommandBody,
): DeviceCommand {
  const { row, command } = transaction(ctx.db, () => {
    const device = requireDevice(ctx, auth, id);
    if (device.status === 'decommissioned') throw conflict(DECOMMISSIONED);
    // Spec 3: a development push switches the agent's auto-update off until someone turns it back on.
    if (body.type === 'dev_update')
      updateDeviceRow(ctx.db, device.id, { auto_update: 0 }, new Date().toISOString());
    const queued = queueCommand(ctx, {
      deviceId: device.id,
      orgId: device.org_id,
      type: body.type,
      payload: body.payload,
      createdBy: callerId(auth),
    });
    return { row: device, command: queued };
  });
  auditCaller(ctx, req, auth, {
    orgId: row.org_id,
    action: 'device.command',
    resourceType: 'device',
    resourceId: row.id,
    resourceName: row.hostname,
    details: { commandId: command.id, type: command.type, payload: body.payload },
  });
  if (body.type === 'dev_update') emitDeviceEvent(ctx, 'device.updated', row, row.status);
  // Read again: the push after the commit may have marked it `sent`.
  return toDeviceCommand(commandById(ctx, command.id) ?? command);
}

export function listDeviceCommands(
  ctx: AppContext,
  auth: AuthContext,
  id: string,
  page: PageRequest,
): Paginated<DeviceCommand> {
  const device = requireDevice(ctx, auth, id);
  const { rows, total } = deviceCommandRows(ctx.db, device.id, page);
  return paginated(rows.map(toDeviceCommand), page, total);
}

/**
 * Decommission (spec 3 catalog: DELETE /devices/:id): the device stays as history with status `decommissioned`,
 * commands still waiting for it are cancelled, and the agent is told to uninstall itself and remove its
 * configuration. The agent's own result later kills its credential (agents module).
 */
export function decommissionDevice(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  id: string,
): DeviceDetail {
  const { row, commandId, previousStatus } = transaction(ctx.db, () => {
    const device = requireDevice(ctx, auth, id);
    const at = new Date().toISOString();
    if (!decommissionDeviceRow(ctx.db, device.id, at)) throw conflict('Device is already decommissioned');
    cancelPendingCommandsOf(ctx, device.id, at);
    const command = queueCommand(ctx, {
      deviceId: device.id,
      orgId: device.org_id,
      type: 'self_uninstall',
      payload: { removeConfig: true },
      createdBy: callerId(auth),
    });
    return { row: deviceById(ctx.db, device.id)!, commandId: command.id, previousStatus: device.status };
  });
  auditCaller(ctx, req, auth, {
    orgId: row.org_id,
    action: 'device.delete',
    resourceType: 'device',
    resourceId: row.id,
    resourceName: row.hostname,
    details: { commandId, previousStatus },
  });
  emitDeviceEvent(ctx, 'device.decommissioned', row, 'decommissioned');
  return detailOf(ctx, row);
}
