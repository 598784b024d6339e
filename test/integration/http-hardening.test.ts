// Over 400 lines: one scenario world shared by every case below (a split restarts it per file); to be split by
// describe block over a test/support world, as the devices and tenancy suites were.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CSP } from '../../server/http/csp';
import { mintEnrollmentKey, TestAgent } from '../support/agent-client';
import { insertOrg, insertPartner } from '../support/seed';
import { ADMIN, startServer, type TestServer } from '../support/server';

// Malformed HTTP gets a clear 4xx, never a 5xx: one body reader for every route (encodings, charsets, media
// types, depth, size, and authentication before a large body is read), the Host check against DNS rebinding
// (API, console page, WebSocket upgrade; forwarded host only from a trusted proxy), Secure cookies behind a
// trusted TLS proxy, and the console CSP.

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
}

/** One HTTP request with full control over the headers (Host included) and the raw body bytes. */
function raw(
  server: TestServer,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: Buffer | string },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        method: options.method ?? 'POST',
        path: options.path,
        headers: { host: `localhost:${server.port}`, ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : null;
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A WebSocket upgrade request; resolves with the status of the refusal (or 101). */
function upgrade(server: TestServer, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: '127.0.0.1',
      port: server.port,
      path,
      headers: {
        host,
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': Buffer.from('0123456789abcdef').toString('base64'),
      },
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 101, body: '' });
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const JSON_TYPE = { 'content-type': 'application/json' };
const LOGIN = JSON.stringify({ email: ADMIN.email, password: ADMIN.password });

let server: TestServer;
let token: string;
let agent: TestAgent;

beforeAll(async () => {
  const staticDir = mkdtempSync(join(tmpdir(), 'gatehouse-static-'));
  mkdirSync(join(staticDir, 'assets'));
  writeFileSync(
    join(staticDir, 'index.html'),
    '<!doctype html><title>Gatehouse</title><div id="root"></div>',
  );
  server = await startServer({ staticDir });
  token = (await server.api.login()).body.accessToken;
  const orgId = insertOrg(server, insertPartner(server).partnerId);
  agent = await TestAgent.enroll(server, mintEnrollmentKey(server, orgId).key);
});
afterAll(async () => {
  await server?.dispose();
});

describe('request bodies', () => {
  const auth = () => ({ authorization: `Bearer ${token}` });
  // A public route and an authenticated one, both with a body schema.
  const routes = () => [
    { name: 'public', path: '/api/v1/auth/login', headers: {} },
    { name: 'authenticated', path: '/api/v1/auth/mfa/enable', headers: auth() },
  ];

  it.each(['gzip', 'x-gzip', 'deflate', 'br'])('answers 400 to a body that is not %s', async (encoding) => {
    for (const route of routes()) {
      for (const body of [
        Buffer.from('{"email": "not compressed"}'),
        Buffer.from([0x1f, 0x8b, 8, 0, 0, 0]),
      ]) {
        const res = await raw(server, {
          path: route.path,
          headers: { ...JSON_TYPE, ...route.headers, 'content-encoding': encoding },
          body,
        });
        expect(res.status, `${route.name} ${encoding}`).toBe(400);
        expect(res.body).toEqual({
          error: `Request body could not be decoded as ${encoding}`,
          code: 'UNDECODABLE_BODY',
        });
      }
    }
  });

  it('decodes gzip, deflate and brotli bodies', async () => {
    const encoders = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };
    for (const [encoding, encode] of Object.entries(encoders)) {
      const res = await raw(server, {
        path: '/api/v1/auth/login',
        headers: { ...JSON_TYPE, 'content-encoding': encoding },
        body: encode(Buffer.from(LOGIN)),
      });
      expect(res.status, encoding).toBe(200);
      expect(res.body.accessToken).toEqual(expect.any(String));
    }
  });

  it('answers 400 to a truncated compressed body', async () => {
    const res = await raw(server, {
      path: '/api/v1/auth/login',
      headers: { ...JSON_TYPE, 'content-encoding': 'gzip' },
      body: gzipSync(Buffer.from(LOGIN)).subarray(0, 20),
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('UNDECODABLE_BODY');
  });

  it('answers 415 to an encoding it does not speak', async () => {
    for (const route of routes()) {
      for (const encoding of ['zstd', 'compress', 'gzip, br', 'bogus']) {
        const res = await raw(server, {
          path: route.path,
          headers: { ...JSON_TYPE, ...route.headers, 'content-encoding': encoding },
          body: '{}',
        });
        expect(res.status, `${route.name} ${encoding}`).toBe(415);
        expect(res.body).toEqual({ error: 'Unsupported content encoding', code: 'UNSUPPORTED_ENCODING' });
      }
    }
  });

  it('limits the decoded size, so a compression bomb is 413', async () => {
    const bomb = gzipSync(Buffer.from(`{"email":"${'a'.repeat(20_000_000)}"}`));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const res = await raw(server, {
      path: '/api/v1/ws/ticket',
      headers: { ...JSON_TYPE, ...auth(), 'content-encoding': 'gzip' },
      body: bomb,
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'Request body too large', code: 'PAYLOAD_TOO_LARGE' });
  });

  it('accepts UTF-8 only', async () => {
    for (const charset of ['utf-8', 'UTF-8', '"utf-8"', 'utf8']) {
      const res = await raw(server, {
        path: '/api/v1/auth/login',
        headers: { 'content-type': `application/json; charset=${charset}` },
        body: LOGIN,
      });
      expect(res.status, charset).toBe(200);
    }
    for (const charset of ['latin1', 'utf-16', 'bogus']) {
      const res = await raw(server, {
        path: '/api/v1/auth/login',
        headers: { 'content-type': `application/json; charset=${charset}` },
        body: LOGIN,
      });
      expect(res.status, charset).toBe(415);
      expect(res.body.code).toBe('UNSUPPORTED_CHARSET');
    }
    const invalidUtf8 = Buffer.concat([
      Buffer.from('{"email":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}'),
    ]);
    const res = await raw(server, { path: '/api/v1/auth/login', headers: JSON_TYPE, body: invalidUtf8 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Malformed JSON body', code: 'INVALID_JSON' });
  });

  it('answers 415 to a body that is not application/json, and accepts no body without a type', async () => {
    for (const route of routes()) {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', null]) {
        const res = await raw(server, {
          path: route.path,
          headers: { ...route.headers, ...(type ? { 'content-type': type } : {}) },
          body: LOGIN,
        });
        expect(res.status, `${route.name} ${type}`).toBe(415);
        expect(res.body).toEqual({
          error: 'Content-Type must be application/json',
          code: 'UNSUPPORTED_MEDIA_TYPE',
        });
      }
    }
    // Routes without a body are called without one (and without a Content-Type) by every client.
    const ticket = await raw(server, { path: '/api/v1/ws/ticket', headers: auth() });
    expect(ticket.status).toBe(200);
    const empty = await raw(server, {
      path: '/api/v1/ws/ticket',
      headers: { ...auth(), 'content-type': 'text/plain', 'content-length': '0' },
    });
    expect(empty.status).toBe(200);
  });

  it('answers 400 to JSON nested deeper than any request needs', async () => {
    const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    const deep = await raw(server, {
      path: '/api/v1/auth/login',
      headers: JSON_TYPE,
      body: `{"email":${nested(100)}}`,
    });
    expect(deep.status).toBe(400);
    expect(deep.body).toEqual({
      error: 'Request body is nested more than 100 levels deep',
      code: 'BODY_TOO_DEEP',
    });
    const fine = await raw(server, {
      path: '/api/v1/auth/login',
      headers: JSON_TYPE,
      body: `{"email":${nested(99)}}`,
    });
    expect(fine.status).toBe(400);
    expect(fine.body.code).toBe('VALIDATION_ERROR');
  });

  it('answers 400 to a NUL character in any string or key of a body', async () => {
    // A NUL would reach SQLite, whose length() stops at it: a CHECK on a name's length would fail as a 500.
    for (const body of [
      '{"email":"\\u0000admin@example.com","password":"x"}',
      '{"email":"a@example.com","password":["ok","\\u0000"]}',
      '{"\\u0000email":"a@example.com","password":"x"}',
    ]) {
      const res = await raw(server, { path: '/api/v1/auth/login', headers: JSON_TYPE, body });
      expect(res.status, body).toBe(400);
      expect(res.body).toEqual({
        error: 'Request body must not contain NUL characters',
        code: 'NUL_IN_BODY',
      });
    }
    // An escaped backslash before "u0000" is not a NUL.
    const fine = await raw(server, {
      path: '/api/v1/auth/login',
      headers: JSON_TYPE,
      body: '{"email":"\\\\u0000@example.com","password":"x"}',
    });
    expect(fine.body.code).not.toBe('NUL_IN_BODY');
  });

  it('keeps public bodies small, and gives identified callers the route limit', async () => {
    const padded = (bytes: number) =>
      json({ email: ADMIN.email, password: ADMIN.password, pad: 'x'.repeat(bytes) });
    const publicBig = await raw(server, {
      path: '/api/v1/auth/login',
      headers: JSON_TYPE,
      body: padded(70_000),
    });
    expect(publicBig.status).toBe(413);
    expect(publicBig.body).toEqual({ error: 'Request body too large', code: 'PAYLOAD_TOO_LARGE' });
    expect(
      (await raw(server, { path: '/api/v1/auth/login', headers: JSON_TYPE, body: padded(60_000) })).status,
    ).toBe(200);
    const signedIn = await raw(server, {
      path: '/api/v1/ws/ticket',
      headers: { ...JSON_TYPE, ...auth() },
      body: padded(500_000),
    });
    expect(signedIn.status).toBe(200);
    const tooBig = await raw(server, {
      path: '/api/v1/ws/ticket',
      headers: { ...JSON_TYPE, ...auth() },
      body: padded(1_100_000),
    });
    expect(tooBig.status).toBe(413);
    // Chunked, so the size is only known while reading.
    const chunked = await raw(server, {
      path: '/api/v1/auth/login',
      headers: { ...JSON_TYPE, 'transfer-encoding': 'chunked' },
      body: padded(70_000),
    });
    expect(chunked.status).toBe(413);
  });

  it('authenticates before reading a large body: 401, not 413 or 400', async () => {
    for (const body of [padded2MB(), Buffer.from(`{"broken": ${'1'.repeat(100_000)}`)]) {
      const res = await raw(server, { path: '/api/v1/auth/mfa/enable', headers: JSON_TYPE, body });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'AUTH_REQUIRED' });
      const key = await raw(server, {
        path: '/api/v1/auth/mfa/enable',
        headers: { ...JSON_TYPE, authorization: 'Bearer not-a-token' },
        body,
      });
      expect(key.status).toBe(401);
    }
  });

  it('authenticates agents before reading their bodies', async () => {
    const heartbeat = `/api/v1/agents/${agent.creds.agentId}/heartbeat`;
    const broken = Buffer.from(`{"status": "ok", ${'x'.repeat(100_000)}`);
    const stranger = await raw(server, { path: heartbeat, headers: JSON_TYPE, body: broken });
    expect(stranger.status).toBe(401);
    const unknown = await raw(server, {
      path: '/api/v1/agents/no-such-agent/heartbeat',
      headers: { ...JSON_TYPE, authorization: `Bearer ${agent.creds.authToken}` },
      body: padded2MB(),
    });
    expect(unknown.status).toBe(404);
    // The agent itself may send more than a stranger (a heartbeat with a large posture report).
    const big = await raw(server, {
      path: heartbeat,
      headers: { ...JSON_TYPE, authorization: `Bearer ${agent.creds.authToken}` },
      body: json({ status: 'ok', agentVersion: '1.0.0', pad: 'x'.repeat(200_000) }),
    });
    expect(big.status).toBe(200);
  });

  it('still answers malformed JSON with the spec message', async () => {
    const res = await raw(server, { path: '/api/v1/auth/login', headers: JSON_TYPE, body: '{"email": ' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Malformed JSON body', code: 'INVALID_JSON' });
  });
});

function padded2MB(): Buffer {
  return json({ pad: 'x'.repeat(2_000_000) });
}

describe('Host header', () => {
  it('serves its own names and IP addresses', async () => {
    for (const host of [
      `localhost:${server.port}`,
      `127.0.0.1:${server.port}`,
      `[::1]:${server.port}`,
      'localhost',
    ]) {
      const res = await raw(server, { method: 'GET', path: '/api/v1/health', headers: { host } });
      expect(res.status, host).toBe(200);
    }
  });

  it('refuses a foreign Host for the API, the console and the WebSocket upgrades', async () => {
    for (const host of [
      'evil.example',
      `rebind.attacker.test:${server.port}`,
      'localhost.evil.example',
      'bad host',
    ]) {
      const api = await raw(server, { method: 'GET', path: '/api/v1/health', headers: { host } });
      expect(api.status, host).toBe(421);
      expect(api.body).toEqual({ error: 'Host not allowed', code: 'HOST_NOT_ALLOWED' });
      const page = await raw(server, { method: 'GET', path: '/', headers: { host, accept: 'text/html' } });
      expect(page.status, host).toBe(421);
      const login = await raw(server, {
        path: '/api/v1/auth/login',
        headers: { host, ...JSON_TYPE },
        body: LOGIN,
      });
      expect(login.status, host).toBe(421);
    }
    const consoleSocket = await upgrade(server, '/api/v1/ws?ticket=nope', 'evil.example');
    expect(consoleSocket.status).toBe(421);
    expect(JSON.parse(consoleSocket.body)).toEqual({ error: 'Host not allowed', code: 'HOST_NOT_ALLOWED' });
    expect((await upgrade(server, `/api/v1/agents/${agent.creds.agentId}/ws`, 'evil.example')).status).toBe(
      421,
    );
    // The same upgrade on our own name reaches the hub, which refuses the ticket.
    expect((await upgrade(server, '/api/v1/ws?ticket=nope', `localhost:${server.port}`)).status).toBe(401);
  });

  it('does not believe X-Forwarded-Host from a peer that is not a trusted proxy', async () => {
    const claimed = await raw(server, {
      method: 'GET',
      path: '/api/v1/health',
      headers: { host: 'evil.example', 'x-forwarded-host': 'localhost' },
    });
    expect(claimed.status).toBe(421);
    const ignored = await raw(server, {
      method: 'GET',
      path: '/api/v1/health',
      headers: { 'x-forwarded-host': 'evil.example' },
    });
    expect(ignored.status).toBe(200);
  });
});

describe('behind a trusted TLS proxy', () => {
  let proxied: TestServer;
  beforeAll(async () => {
    proxied = await startServer({
      env: {
        TRUST_PROXY_HEADERS: 'true',
        TRUSTED_PROXY_CIDRS: '127.0.0.1/32',
        PUBLIC_URL: 'https://gatehouse.example.com',
        WEBAUTHN_ORIGINS: 'https://console.example.net:8443',
      },
    });
  });
  afterAll(async () => {
    await proxied?.dispose();
  });

  const cookies = (res: RawAnswer) => res.headers['set-cookie'] ?? [];

  it('marks the session cookies Secure when the proxy says https, and only then', async () => {
    const viaTls = await raw(proxied, {
      path: '/api/v1/auth/login',
      headers: { ...JSON_TYPE, 'x-forwarded-proto': 'https' },
      body: LOGIN,
    });
    expect(viaTls.status).toBe(200);
    expect(cookies(viaTls)).toHaveLength(2);
    for (const cookie of cookies(viaTls)) expect(cookie).toMatch(/;\s*Secure/i);

    const plain = await raw(proxied, { path: '/api/v1/auth/login', headers: JSON_TYPE, body: LOGIN });
    expect(plain.status).toBe(200);
    for (const cookie of cookies(plain)) expect(cookie).not.toMatch(/;\s*Secure/i);
  });

  it('ignores X-Forwarded-Proto from a peer that is not a trusted proxy', async () => {
    const res = await raw(server, {
      path: '/api/v1/auth/login',
      headers: { ...JSON_TYPE, 'x-forwarded-proto': 'https' },
      body: LOGIN,
    });
    expect(res.status).toBe(200);
    expect(cookies(res)).toHaveLength(2);
    for (const cookie of cookies(res)) expect(cookie).not.toMatch(/;\s*Secure/i);
  });

  it('checks the forwarded host, and knows the names of PUBLIC_URL and WEBAUTHN_ORIGINS', async () => {
    const get = (headers: Record<string, string>) =>
      raw(proxied, { method: 'GET', path: '/api/v1/health', headers }).then((r) => r.status);
    expect(await get({ host: 'upstream:4600', 'x-forwarded-host': 'gatehouse.example.com' })).toBe(200);
    expect(await get({ host: 'upstream:4600', 'x-forwarded-host': 'console.example.net:8443' })).toBe(200);
    expect(await get({ host: 'gatehouse.example.com' })).toBe(200);
    expect(await get({ host: `localhost:${proxied.port}`, 'x-forwarded-host': 'evil.example' })).toBe(421);
    expect(await get({ host: 'upstream:4600' })).toBe(421);
    expect((await upgrade(proxied, '/api/v1/ws?ticket=nope', 'evil.example')).status).toBe(421);
  });
});

describe('console CSP', () => {
  it('sends the one console policy: WebSockets to its own origin only', async () => {
    const res = await raw(server, { method: 'GET', path: '/approvals', headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
    expect(CONSOLE_CSP).toContain("connect-src 'self'");
    expect(CONSOLE_CSP).not.toMatch(/ws:|wss:/);
  });
});
