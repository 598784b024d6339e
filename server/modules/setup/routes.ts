import { z } from 'zod';
import type { AppContext } from '../../context';
import type { SetupStatusResponse, TokenPair } from '../../contract';
import { conflict, forbidden } from '../../http/errors';
import { defineRoute, type AnyRoute } from '../../http/route';
import { auditUser } from '../../http/account';
import { issueSession } from '../sessions';
import type { FirstRun } from './service';

export function setupRoutes(ctx: AppContext, firstRun: FirstRun): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/setup/status',
      tag: 'setup',
      summary: 'Whether the first administrator still has to be created',
      auth: 'public',
      handler: (): SetupStatusResponse => ({ setupRequired: firstRun.required }),
    }),
    defineRoute({
      method: 'post',
      path: '/setup',
      tag: 'setup',
      summary: 'Create the first administrator with the one-time setup token printed at start',
      auth: 'public',
      status: 201,
      body: z.object({
        setupToken: z.string().trim().min(1, 'Setup token is required').max(200),
        name: z.string().trim().min(1, 'Name is required').max(255),
        email: z.email('Invalid email address').max(255),
        password: z.string().max(256),
      }),
      responses: {
        403: 'Invalid setup token',
        409: 'Setup already completed',
        429: 'Too many failed setup attempts',
      },
      handler: async ({ req, res, body }): Promise<TokenPair> => {
        if (!firstRun.required) throw conflict('Setup already completed', 'SETUP_COMPLETE');
        firstRun.assertPasswordAcceptable(body);
        if (!ctx.guard.check({ kind: 'setup_token', req }, () => firstRun.consumeToken(body.setupToken)))
          throw forbidden('Invalid setup token', 'INVALID_SETUP_TOKEN');
        const user = await firstRun.createAdministrator(body);
        auditUser(ctx, req, user, 'setup.admin.create');
        return issueSession(ctx, req, res, user, false);
      },
    }),
  ];
}
