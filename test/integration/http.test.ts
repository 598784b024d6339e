import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;
let token: string;
beforeAll(async () => {
  const staticDir = mkdtempSync(join(tmpdir(), 'gatehouse-static-'));
  mkdirSync(join(staticDir, 'assets'));
  writeFileSync(
    join(staticDir, 'index.html'),
    '<!doctype html><title>Gatehouse</title><div id="root"></div>',
  );
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log(1)');
  server = await startServer({ staticDir });
  token = (await server.api.login()).body.accessToken;
});
afterAll(async () => {
  await server.dispose();
});

describe('health', () => {
  it('reports the version and readiness', async () => {
    const health = await server.api.get('/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect((await server.api.get('/health/ready')).body).toMatchObject({ status: 'ready' });
  });
});

describe('bad input gets a 4xx, never a 5xx', () => {
  it('answers malformed JSON with 400', async () => {
    const res = await server.api.request('POST', '/auth/login', { rawBody: '{"email": "a@b.c", ' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Malformed JSON body', code: 'INVALID_JSON' });
  });

  it('answers a path that is not valid percent-encoding with 400', async () => {
    const res = await server.api.get('/users/%E0%A4%A');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Malformed URL', code: 'INVALID_PATH' });
  });

  it('answers an oversized body with 413', async () => {
    const res = await server.api.request('POST', '/auth/login', {
      rawBody: JSON.stringify({ email: 'x'.repeat(2_000_000) }),
    });
    expect(res.status).toBe(413);
  });

  it('names the first problem of an invalid body', async () => {
    const res = await server.api.post('/auth/login', { email: 'not-an-email', password: 'x' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'email: Invalid email address', code: 'VALIDATION_ERROR' });
  });

  const bodies: unknown[] = [
    null,
    [],
    'text',
    42,
    true,
    {},
    { email: 1 },
    { email: [], password: {} },
    { code: 123456 },
    { tempToken: null, code: '' },
    { refreshToken: 7 },
    { email: 'a@b.c', password: 'x'.repeat(5000) },
  ];
  const routes: Array<[string, string]> = [
    ['POST', '/auth/login'],
    ['POST', '/auth/mfa/verify'],
    ['POST', '/auth/refresh'],
    ['POST', '/auth/mfa/enable'],
    ['POST', '/auth/mfa/disable'],
    ['POST', '/auth/mfa/setup'],
    ['POST', '/setup'],
    ['POST', '/ws/ticket'],
    ['POST', '/auth/logout'],
  ];
  it.each(routes)('%s %s survives hostile bodies', async (method, path) => {
    for (const body of bodies) {
      for (const withToken of [false, true]) {
        const res = await server.api.request(method, path, {
          rawBody: JSON.stringify(body),
          ...(withToken ? { token } : {}),
        });
        expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(200);
        expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBeLessThan(500);
        if (res.status >= 400) expect(res.body.error).toEqual(expect.any(String));
      }
    }
    // Sign in again: the hostile bodies above included a logout.
    token = (await server.api.login()).body.accessToken;
  });

  it('validates queries', async () => {
    const res = await server.api.get('/audit-logs/logs?from=yesterday', token);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^from: /);
    expect((await server.api.get('/audit-logs/verify?orgId=42', token)).status).toBe(400);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await server.api.get('/no/such/thing', token);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Not found' });
  });
});

describe('OpenAPI', () => {
  it('documents every route from the same schemas that validate it', async () => {
    const res = await server.api.get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/auth/login',
        '/api/v1/auth/mfa/verify',
        '/api/v1/setup',
        '/api/v1/audit-logs/logs',
        '/api/v1/ws/ticket',
      ]),
    );
    const login = res.body.paths['/api/v1/auth/login'].post;
    expect(login.requestBody.content['application/json'].schema.required).toEqual(['email', 'password']);
  });
});

describe('console static files', () => {
  it('serves assets and falls back to index.html for client routes, with a CSP', async () => {
    const asset = await fetch(`${server.url}/assets/app.js`);
    expect(asset.status).toBe(200);
    for (const path of ['/', '/login', '/approvals/123']) {
      const res = await fetch(`${server.url}${path}`, { headers: { accept: 'text/html' } });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<div id="root">');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    }
    const missing = await fetch(`${server.url}/assets/missing.js`, {
      headers: { accept: 'application/javascript' },
    });
    expect(missing.status).toBe(404);
  });
});
