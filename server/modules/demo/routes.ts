import type { AppContext } from '../../context';
import { forbidden } from '../../http/errors';
import { defineRoute, type AnyRoute } from '../../http/route';
import { seedDemo } from './seed';

export function demoRoutes(ctx: AppContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/demo/seed',
      tag: 'demo',
      summary: 'Create the demo tenant (once) and issue a fresh enrollment key for the simulated fleet',
      auth: 'user',
      mfa: true,
      status: 201,
      responses: { 403: 'System scope and an MFA-verified session required' },
      handler: ({ auth }) => {
        // Demo data is platform-wide: only a platform administrator may add a partner with technicians.
        if (auth.scope !== 'system') throw forbidden('System scope required', 'SYSTEM_SCOPE_REQUIRED');
        return seedDemo(ctx, { id: auth.userId, email: auth.email });
      },
    }),
  ];
}
