import type { AppContext } from '../../context';
import type { HealthResponse } from '../../contract';
import { pingDatabase } from '../../db/connection';
import { HttpError } from '../../http/errors';
import { defineRoute, type AnyRoute } from '../../http/route';
import { SERVER_VERSION } from '../../version';
import type { FirstRun } from '../setup';

export function healthRoutes(ctx: AppContext, firstRun: FirstRun): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/health',
      tag: 'health',
      summary: 'Liveness and the server version',
      auth: 'public',
      handler: (): HealthResponse => ({
        status: 'ok',
        version: SERVER_VERSION,
        setupRequired: firstRun.required,
        registrationEnabled: ctx.config.enableRegistration,
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/health/ready',
      tag: 'health',
      summary: 'Readiness: the database answers',
      auth: 'public',
      responses: { 503: 'Not ready' },
      handler: () => {
        try {
          pingDatabase(ctx.db);
        } catch {
          throw new HttpError(503, 'Database unavailable', 'NOT_READY');
        }
        return { status: 'ready', version: SERVER_VERSION };
      },
    }),
  ];
}
