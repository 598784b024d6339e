import type { AppContext } from '../../context';
import { defineRoute, type AnyRoute } from '../../http/route';
import { dashboard } from './service';

// GET /dashboard (issue 16): the console's Overview in one read. Any signed-in user may ask; what it holds
// follows the caller's permissions and scope (service.ts), so there is nothing here to refuse.

export function dashboardRoutes(ctx: AppContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/dashboard',
      tag: 'dashboard',
      summary:
        "The Overview: pending approvals by risk, active grants, device presence over 24 hours, elevations over 7 days, agents behind, recent audit — all in the caller's scope",
      auth: 'user',
      handler: ({ auth }) => dashboard(ctx, auth),
    }),
  ];
}
