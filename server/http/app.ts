import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import express, { type Express, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { SERVER_VERSION } from '../version';
import { clientAddressResolver, type ClientResolver } from './client-info';
import { CONSOLE_CSP } from './csp';
import { errorHandler, notFound } from './errors';
import { hostCheck, type HostPolicy } from './host';
import { mountRoutes, registerOpenApi, type AnyRoute, type RouteMiddleware } from './route';
import { takeTurns } from './turns';

export const API_PREFIX = '/api/v1';

function securityHeaders(): RequestHandler {
  return (_req, res, next) => {
    res.set({
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
      'Cross-Origin-Opener-Policy': 'same-origin',
    });
    next();
  };
}

/** One line per request. The query string is left out: it can carry a WebSocket ticket or a reset token. */
function requestLogger(log: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // Refused requests (bad input, failed sign-ins, rate limits) are worth seeing at the default level.
      const level = res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'debug';
      log[level](
        { method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 },
        'request',
      );
    });
    next();
  };
}

export interface AppParts {
  log: Logger;
  routes: AnyRoute[];
  middleware: RouteMiddleware;
  staticDir: string | null;
  /** Who the client is, honouring trusted proxies (client-info.ts); shared with the WebSocket upgrade path. */
  resolveClient: ClientResolver;
  /** The names this server answers to (host.ts); shared with the WebSocket upgrade path. */
  hosts: HostPolicy;
}

/** Built on the first request for it, with its generator loaded then: it is the largest piece of start-up work. */
export async function buildOpenApiDocument(routes: AnyRoute[]) {
  const { OpenAPIRegistry, OpenApiGeneratorV31 } = await import('@asteasolutions/zod-to-openapi');
  const registry = new OpenAPIRegistry();
  registerOpenApi(registry, routes);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'Gatehouse API', version: SERVER_VERSION },
    servers: [{ url: '/' }],
  });
}

export function buildApp({ log, routes, middleware, staticDir, resolveClient, hosts }: AppParts): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // First: under a storm, requests wait here for a turn of the loop, so new connections keep being accepted.
  app.use(takeTurns());
  app.use(securityHeaders());
  app.use(clientAddressResolver(resolveClient));
  app.use(requestLogger(log));
  // Before anything is served, API or console page: a foreign Host is a DNS-rebinding attempt (host.ts).
  app.use(hostCheck(hosts));

  const api = express.Router();
  // JSON bodies are read per route (mountRoutes), after authentication, by the one reader in body.ts.
  api.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });
  let openapi: ReturnType<typeof buildOpenApiDocument> | null = null;
  api.get('/openapi.json', async (_req, res) => {
    // A failed build is not kept: the next request tries again rather than answering 500 for good.
    openapi ??= buildOpenApiDocument(routes).catch((err: unknown) => {
      openapi = null;
      throw err;
    });
    res.json(await openapi);
  });
  mountRoutes(api, routes, middleware);
  api.use(() => {
    throw notFound('Not found');
  });
  app.use(API_PREFIX, api);

  const consoleDir = staticDir ? resolve(staticDir) : null; // sendFile needs an absolute path
  const indexHtml = consoleDir ? join(consoleDir, 'index.html') : null;
  if (consoleDir && indexHtml && existsSync(indexHtml)) {
    app.use(express.static(consoleDir, { index: false, maxAge: '1h' }));
    // History fallback: every other GET that wants HTML gets the console, which routes on the client.
    app.get(/.*/, (req, res, next) => {
      if (!req.accepts('html')) return next();
      res.set({ 'Content-Security-Policy': CONSOLE_CSP, 'Cache-Control': 'no-cache' });
      res.sendFile(indexHtml);
    });
  } else {
    app.get('/', (_req, res) => {
      res
        .status(503)
        .type('text/plain')
        .send(
          'The Gatehouse console is not built. Run `npm run build`, then restart the server. The API is at /api/v1.',
        );
    });
  }
  app.use(() => {
    throw notFound('Not found');
  });
  app.use(errorHandler(log));
  return app;
}
