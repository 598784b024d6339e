import { z } from 'zod';
import type { AppContext } from '../../context';
import { METRICS_RANGES } from '../../contract/device-metrics';
import { PERMISSIONS } from '../../http/permissions';
import { defineRoute, type AnyRoute } from '../../http/route';
import { deviceMetrics } from './service';

// GET /devices/:id/metrics: a Gatehouse extension (issue 16 item 3) beside GET /devices/:id, with the same
// authentication, permission and 404.

const metricsQuery = z.object({
  range: z
    .enum(METRICS_RANGES, { error: () => `must be one of ${METRICS_RANGES.join(', ')}` })
    .default('24h'),
});

export function deviceMetricRoutes(ctx: AppContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/devices/:id/metrics',
      tag: 'devices',
      summary:
        "Gatehouse extension: the device's CPU, RAM and disk percentages over `range` (24h: per minute; 7d, 30d: " +
        'hourly averages), oldest first',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_READ,
      params: z.object({ id: z.string() }),
      query: metricsQuery,
      responses: { 404: 'Device not found', 400: 'range: must be one of 24h, 7d, 30d' },
      handler: ({ auth, params, query }) => deviceMetrics(ctx, auth, params.id, query.range),
    }),
  ];
}
