import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineRoute } from '../../server/http/route';
import { startServer, type TestServer } from '../support/server';

// The contract's endpoint map (server/contract/endpoints) is what the console's one typed caller is typed by.
// The compiler holds a declared route to it (the fixtures below must not compile); this test holds the map to
// the server: every endpoint in it is a route the server declares, at that method and path.

const ENDPOINTS_DIR = join(import.meta.dirname, '../../server/contract/endpoints');
const KEY = /^\s*'(GET|POST|PUT|PATCH|DELETE) (\/[^']*)':/gm;

function endpointKeys(): Array<{ method: string; path: string }> {
  const keys: Array<{ method: string; path: string }> = [];
  for (const file of readdirSync(ENDPOINTS_DIR)) {
    for (const match of readFileSync(join(ENDPOINTS_DIR, file), 'utf8').matchAll(KEY)) {
      keys.push({ method: match[1]!.toLowerCase(), path: match[2]! });
    }
  }
  return keys;
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.dispose());

describe('the endpoint map', () => {
  it('names only routes the server declares', async () => {
    const keys = endpointKeys();
    expect(keys.length).toBeGreaterThan(0);
    const res = await server.api.get('/openapi.json');
    const paths = res.body.paths as Record<string, Record<string, unknown>>;
    const missing = keys.filter(
      ({ method, path }) => !paths[`/api/v1${path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`]?.[method],
    );
    expect(missing).toEqual([]);
  });

  it('names each endpoint once', () => {
    const keys = endpointKeys().map(({ method, path }) => `${method} ${path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

// Compile-time fixtures: each `@ts-expect-error` fails the typecheck the day its check stops firing.
export const fixtures = [
  defineRoute({
    method: 'get',
    path: '/webhooks/:id',
    tag: 'fixture',
    summary: 'answers with a shape that is not the endpoint response',
    auth: 'user',
    // @ts-expect-error the handler must answer with the endpoint's WebhookDetail
    handler: () => ({ id: 1 }),
  }),
  // @ts-expect-error the schema refuses the body the console sends ({ event: string }): bodyNotAccepted
  defineRoute({
    method: 'post',
    path: '/webhooks/:id/test',
    tag: 'fixture',
    summary: 'takes a body the console does not send',
    auth: 'user',
    body: z.object({ event: z.number() }),
    handler: () => ({ id: 'x', status: 'pending' as const }) as never,
  }),
  defineRoute({
    method: 'get',
    path: '/pam/elevation-audit/export',
    tag: 'fixture',
    summary: 'answers with JSON where the endpoint streams a file',
    auth: 'user',
    // @ts-expect-error a streamed file is written by the handler itself; it answers with nothing
    handler: () => ({ rows: [] }),
  }),
  // @ts-expect-error the schema refuses the query the console sends (status is one of the webhook statuses)
  defineRoute({
    method: 'get',
    path: '/webhooks',
    tag: 'fixture',
    summary: 'takes a query the console does not send',
    auth: 'user',
    query: z.object({ status: z.enum(['other']) }),
    handler: () => undefined as never,
  }),
];
