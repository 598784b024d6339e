import { z } from 'zod';
import type { AppContext } from '../../context';
import type { Paginated, SoftwareItem } from '../../contract';
import type { AuthContext } from '../../http/auth-context';
import { paginated, paginationQuery } from '../../http/pagination';
import { PERMISSIONS } from '../../http/permissions';
import { defineRoute, type AnyRoute } from '../../http/route';
import { requireDevice } from '../devices';
import { deviceSoftwarePage } from './store';

// GET /software/inventory/:deviceId (spec 3 catalog, Software): the software the device's agent last reported,
// read with the same permission and 404 as GET /devices/:id. The fleet-wide GET /software/inventory and the
// catalog and deployment endpoints are not built yet.

const inventoryQuery = z.object({
  q: z.string().trim().max(200, 'q must be at most 200 characters').optional(),
  ...paginationQuery({ defaultLimit: 500, maxLimit: 1000 }),
});

function deviceSoftware(
  ctx: AppContext,
  auth: AuthContext,
  deviceId: string,
  query: z.infer<typeof inventoryQuery>,
): Paginated<SoftwareItem> {
  const device = requireDevice(ctx, auth, deviceId);
  const page = { page: query.page, limit: query.limit };
  const { rows, total } = deviceSoftwarePage(ctx.db, device.id, query.q || undefined, page);
  return paginated(rows, page, total);
}

export function softwareInventoryRoutes(ctx: AppContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/software/inventory/:deviceId',
      tag: 'devices',
      summary:
        "The device's software as its agent last reported it, by name; `q` searches name and publisher; " +
        'limit up to 1000, 500 when omitted',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_READ,
      params: z.object({ deviceId: z.string() }),
      query: inventoryQuery,
      responses: { 404: 'Device not found' },
      handler: ({ auth, params, query }) => deviceSoftware(ctx, auth, params.deviceId, query),
    }),
  ];
}
