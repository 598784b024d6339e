import type { AppContext } from '../../context';
import { PERMISSIONS } from '../../http/permissions';
import { defineRoute, type AnyRoute } from '../../http/route';
import { postureDevicesQuery, postureSummaryQuery } from './schemas';
import { postureDevices, postureSummary } from './service';

// /devices/management-posture (spec 3). Registered before the device routes, so `/devices/:id` never swallows
// these paths. Spec 3 (Authentication): posture endpoints take the Authorization bearer header.

const TAG = 'posture';
const SCOPE_REFUSALS = { 403: 'Access to this organization denied', 404: 'Organization not found' };

export function postureRoutes(ctx: AppContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/devices/management-posture/summary',
      tag: TAG,
      summary: 'Third-party management products per organization, with never-scanned and stale totals',
      auth: 'user',
      permission: PERMISSIONS.DEVICES_READ,
      query: postureSummaryQuery,
      responses: SCOPE_REFUSALS,
      handler: ({ auth, query }) => postureSummary(ctx, auth, query),
    }),
    defineRoute({
      method: 'get',
      path: '/devices/management-posture/devices',
      tag: TAG,
      summary: 'Devices reporting a management product (optionally with a status), by hostname',
      auth: 'user',
      permission: PERMISSIONS.DEVICES_READ,
      query: postureDevicesQuery,
      responses: SCOPE_REFUSALS,
      handler: ({ auth, query }) => postureDevices(ctx, auth, query),
    }),
  ];
}
