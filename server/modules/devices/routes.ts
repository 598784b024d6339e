import type { AppContext } from '../../context';
import { PERMISSIONS } from '../../http/permissions';
import { defineRoute, type AnyRoute } from '../../http/route';
import { deviceFacets } from './facets';
import {
  addGroupMembers,
  createGroup,
  deleteGroup,
  getGroup,
  groupInScope,
  listGroups,
  listTags,
  removeGroupMember,
  updateGroup,
} from './groups';
import {
  addMembersBody,
  createCommandBody,
  createGroupBody,
  deviceFacetsQuery,
  idParams,
  listDevicesQuery,
  listGroupsQuery,
  listTagsQuery,
  memberParams,
  pageOnlyQuery,
  tagDevicesQuery,
  updateDeviceBody,
  updateGroupBody,
} from './schemas';
import {
  decommissionDevice,
  getDevice,
  listDeviceCommands,
  listDevices,
  queueDeviceCommand,
  updateDevice,
} from './service';

// /devices, /groups and /tags (spec 3 endpoint catalog; spec 2 for the device's 404). JWT or API key; reads need
// devices:read, edits and groups devices:write, commands devices:execute, decommission devices:delete. Writes by
// console users also need an MFA session (the route's `mfa` guard; API keys pass on their scopes).

const TAG = 'devices';
const GROUPS = 'groups';
const DEVICE_404 = { 404: 'Device not found' };
const GROUP_404 = { 404: 'Device group not found' };

export function deviceRoutes(ctx: AppContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/devices',
      tag: TAG,
      summary:
        "Devices in the caller's scope (decommissioned only when `status` asks), filtered, searched and sorted; " +
        '`filterId` or `conditions` (a JSON condition group, up to 8 KB) apply a saved-filter condition group; ' +
        'limit up to 1000, 500 when omitted',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_READ,
      query: listDevicesQuery,
      responses: {
        403: 'Access to this organization denied',
        404: 'Organization, site, group or filter not found',
      },
      handler: ({ auth, query }) => listDevices(ctx, auth, query),
    }),
    defineRoute({
      method: 'get',
      path: '/devices/facets',
      tag: TAG,
      summary:
        "Counts of the caller's devices per organization, status, osType, agentVersion or agentBuild (`by`, one " +
        'or several); the device list’s filters apply, and the same visibility',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_READ,
      query: deviceFacetsQuery,
      responses: {
        403: 'Access to this organization denied',
        404: 'Organization, site, group or filter not found',
      },
      handler: ({ auth, query }) => deviceFacets(ctx, auth, query),
    }),
    defineRoute({
      method: 'get',
      path: '/devices/:id',
      tag: TAG,
      summary: 'One device: inventory, status, metrics, posture, custom fields, groups and live connection',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_READ,
      params: idParams,
      responses: DEVICE_404,
      handler: ({ auth, params }) => getDevice(ctx, auth, params.id),
    }),
    defineRoute({
      method: 'patch',
      path: '/devices/:id',
      tag: TAG,
      summary:
        'Edit a device: displayName, tags (replaced), siteId (a site of its organization), customFields ' +
        '(merged; null removes a key), deviceRole, autoUpdate',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_WRITE,
      mfa: true,
      params: idParams,
      body: updateDeviceBody,
      responses: { ...DEVICE_404, 400: 'No updates provided', 409: 'Device is decommissioned' },
      handler: ({ req, auth, params, body }) => updateDevice(ctx, req, auth, params.id, body),
    }),
    defineRoute({
      method: 'post',
      path: '/devices/:id/commands',
      tag: TAG,
      summary:
        'Queue a command for the agent: self_uninstall {removeConfig} or dev_update {downloadUrl, checksum} ' +
        '(dev_update switches the device’s auto-update off)',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_EXECUTE,
      mfa: true,
      params: idParams,
      body: createCommandBody,
      status: 201,
      responses: { ...DEVICE_404, 409: 'Device is decommissioned' },
      handler: ({ req, auth, params, body }) => queueDeviceCommand(ctx, req, auth, params.id, body),
    }),
    defineRoute({
      method: 'get',
      path: '/devices/:id/commands',
      tag: TAG,
      summary: "The device's commands, newest first",
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_READ,
      params: idParams,
      query: pageOnlyQuery,
      responses: DEVICE_404,
      handler: ({ auth, params, query }) => listDeviceCommands(ctx, auth, params.id, query),
    }),
    defineRoute({
      method: 'delete',
      path: '/devices/:id',
      tag: TAG,
      summary:
        'Decommission a device: kept as history with status decommissioned; the agent is told to uninstall ' +
        'itself (self_uninstall {removeConfig: true})',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_DELETE,
      mfa: true,
      params: idParams,
      responses: { ...DEVICE_404, 409: 'Device is already decommissioned' },
      handler: ({ req, auth, params }) => decommissionDevice(ctx, req, auth, params.id),
    }),

    // ---- groups -----------------------------------------------------------------------------------------------
    defineRoute({
      method: 'get',
      path: '/groups',
      tag: GROUPS,
      summary: "Device groups in the caller's scope, by name",
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_READ,
      query: listGroupsQuery,
      handler: ({ auth, query }) => listGroups(ctx, auth, query),
    }),
    defineRoute({
      method: 'post',
      path: '/groups',
      tag: GROUPS,
      summary: 'Create a device group (orgId required for partner and system scope; siteId optional)',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_WRITE,
      mfa: true,
      body: createGroupBody,
      status: 201,
      responses: { 400: 'orgId is required', 404: 'Organization not found' },
      handler: ({ req, auth, body }) => createGroup(ctx, req, auth, body),
    }),
    defineRoute({
      method: 'get',
      path: '/groups/:id',
      tag: GROUPS,
      summary: 'One device group',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_READ,
      params: idParams,
      responses: GROUP_404,
      handler: ({ auth, params }) => getGroup(ctx, auth, params.id),
    }),
    defineRoute({
      method: 'patch',
      path: '/groups/:id',
      tag: GROUPS,
      summary: 'Rename a group, change its description or site',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_WRITE,
      mfa: true,
      params: idParams,
      body: updateGroupBody,
      responses: { ...GROUP_404, 400: 'No updates provided' },
      handler: ({ req, auth, params, body }) => updateGroup(ctx, req, auth, params.id, body),
    }),
    defineRoute({
      method: 'delete',
      path: '/groups/:id',
      tag: GROUPS,
      summary: 'Delete a group (its devices stay); returns the deleted group',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_WRITE,
      mfa: true,
      params: idParams,
      responses: { ...GROUP_404 },
      handler: ({ req, auth, params }) => deleteGroup(ctx, req, auth, params.id),
    }),
    defineRoute({
      method: 'get',
      path: '/groups/:id/devices',
      tag: GROUPS,
      summary: "The group's devices the caller can see; the device list's query parameters apply",
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_READ,
      params: idParams,
      query: listDevicesQuery,
      responses: GROUP_404,
      handler: ({ auth, params, query }) => {
        groupInScope(ctx, auth, params.id);
        return listDevices(ctx, auth, { ...query, groupId: params.id });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/groups/:id/devices',
      tag: GROUPS,
      summary: "Add devices of the group's organization ({deviceIds}, up to 1000); returns how many were new",
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_WRITE,
      mfa: true,
      params: idParams,
      body: addMembersBody,
      responses: { ...GROUP_404, 400: "deviceIds must be devices of the group's organization" },
      handler: ({ req, auth, params, body }) => addGroupMembers(ctx, req, auth, params.id, body),
    }),
    defineRoute({
      method: 'delete',
      path: '/groups/:id/devices/:deviceId',
      tag: GROUPS,
      summary: 'Remove a device from a group; returns the group',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_WRITE,
      mfa: true,
      params: memberParams,
      responses: { 404: 'Device group not found; Device is not a member of this group' },
      handler: ({ req, auth, params }) => removeGroupMember(ctx, req, auth, params.id, params.deviceId),
    }),

    // ---- tags -------------------------------------------------------------------------------------------------
    defineRoute({
      method: 'get',
      path: '/tags',
      tag: TAG,
      summary:
        "Tags of the caller's devices with how many devices carry each (decommissioned devices excluded)",
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_READ,
      query: listTagsQuery,
      handler: ({ auth, query }) => listTags(ctx, auth, query),
    }),
    defineRoute({
      method: 'get',
      path: '/tags/devices',
      tag: TAG,
      summary: 'Devices carrying a tag (exact match); the device list’s other query parameters apply',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_READ,
      query: tagDevicesQuery,
      handler: ({ auth, query }) => listDevices(ctx, auth, query),
    }),
  ];
}
