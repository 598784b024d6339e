import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleSocketFor } from '../support/console-client';
import { ADMIN, ApiClient } from '../support/server';
import { ROOT, startServerProcess, stopServerProcess, type ServerProcess } from '../support/server-process';

// `npm run serve` runs the built bundle, out/main/serve.js, in plain Node (issue 18: no TypeScript transpiling at
// start). Every other test runs the sources; this one runs the bundle, built first when it is missing or stale,
// to prove what bundling and the lazy imports could break: the packages bundled in (express, ws, jose, pino,
// zod), the native ones left in node_modules (better-sqlite3, argon2), the migrations found beside the bundle,
// the console served from out/renderer, the OpenAPI document built on its first request, and a clean stop.

const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-built-'));
let server: ServerProcess;

beforeAll(async () => {
  const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-if-stale.mjs')], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(build.status, `the build failed:\n${build.stdout}\n${build.stderr}`).toBe(0);
  server = await startServerProcess(dataDir, {
    bundle: true,
    env: {
      LOG_LEVEL: 'error',
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      ENABLE_2FA: 'false',
    },
  });
}, 240_000);

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the built headless server (out/main/serve.js)', () => {
  it('answers health, serves the console under its CSP and builds the OpenAPI document on request', async () => {
    const api = new ApiClient(server.url);
    const health = await api.get('/health');
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('ok');

    const page = await fetch(`${server.url}/devices`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toMatch(/<script type="module" crossorigin src="\/assets\/[^"]+\.js"><\/script>/);
    expect(html, 'no inline script: the CSP would refuse it').not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);

    const openapi = await api.get('/openapi.json');
    expect(openapi.status).toBe(200);
    expect(openapi.body.openapi).toBe('3.1.0');
    expect(Object.keys(openapi.body.paths)).toContain('/api/v1/health');
  });

  it('signs in (argon2, jose) and opens the console socket (ws)', async () => {
    const api = new ApiClient(server.url);
    const login = await api.login();
    expect(login.status).toBe(200);
    const socket = await consoleSocketFor(server.url, login.body.accessToken as string);
    socket.socket.close();
    expect(await socket.closed).toBeGreaterThan(0);
  });

  it('ships the console in script chunks of at most 250 kB (the build refuses more: electron.vite.config.ts)', () => {
    const assets = join(ROOT, 'out', 'renderer', 'assets');
    const scripts = readdirSync(assets).filter((name) => name.endsWith('.js'));
    expect(scripts.length, 'pages are chunks of their own').toBeGreaterThan(10);
    const over = scripts.filter((name) => statSync(join(assets, name)).size > 250_000);
    expect(over).toEqual([]);
  });

  it('stops cleanly on SIGTERM', async () => {
    await stopServerProcess(server);
    expect(server.child.exitCode).toBe(0);
  });
});
