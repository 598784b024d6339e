import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../support/server';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server.dispose();
});

function cookiesFrom(headers: Headers): Record<string, string> {
  const jar: Record<string, string> = {};
  for (const line of headers.getSetCookie()) {
    const [pair] = line.split(';');
    const eq = pair!.indexOf('=');
    jar[pair!.slice(0, eq)] = pair!.slice(eq + 1);
  }
  return jar;
}

describe('login', () => {
  it('signs in with email and password and describes the user', async () => {
    const res = await server.api.login(ADMIN.email.toUpperCase(), ADMIN.password);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ email: ADMIN.email, scope: 'system', mfaEnabled: false });
    expect(res.body.mfa).toBe(false);
    const me = await server.api.get('/auth/me', res.body.accessToken);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ user: { email: ADMIN.email, scope: 'system' }, mfa: false });
  });

  it('answers the same 401 for a wrong password and an unknown email', async () => {
    const wrong = await server.api.login(ADMIN.email, 'not-the-password');
    const unknown = await server.api.login('nobody@gatehouse.test', ADMIN.password);
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'Invalid email or password' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('refuses a disabled account with the same message', async () => {
    server.context.db.prepare("UPDATE users SET status = 'disabled' WHERE email = ?").run(ADMIN.email);
    const res = await server.api.login();
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('Invalid email or password');
  });

  it('rejects requests without a valid bearer token', async () => {
    expect((await server.api.get('/auth/me')).status).toBe(401);
    const forged = await server.api.get('/auth/me', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl');
    expect(forged.status).toBe(401);
    expect(forged.body.code).toBe('TOKEN_INVALID');
  });
});

describe('refresh tokens', () => {
  it('rotates on every use and detects reuse of a rotated token by revoking the family', async () => {
    const login = await server.api.login();
    const first = login.body.refreshToken as string;
    const rotated = await server.api.post('/auth/refresh', { refreshToken: first });
    expect(rotated.status).toBe(200);
    expect(rotated.body.refreshToken).not.toBe(first);
    expect((await server.api.get('/auth/me', rotated.body.accessToken)).status).toBe(200);

    const replay = await server.api.post('/auth/refresh', { refreshToken: first });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('REFRESH_TOKEN_REUSED');
    // The legitimate holder's newer token died with the family.
    const after = await server.api.post('/auth/refresh', { refreshToken: rotated.body.refreshToken });
    expect(after.status).toBe(401);
  });

  it('accepts the cookie only together with the CSRF header', async () => {
    const login = await server.api.login();
    const jar = cookiesFrom(login.headers);
    expect(jar.service_refresh_token).toBe(login.body.refreshToken);
    const setCookie = login.headers.getSetCookie().join('\n');
    expect(setCookie).toMatch(/service_refresh_token=[^;]+;.*HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    const cookie = `service_refresh_token=${jar.service_refresh_token}; service_csrf_token=${jar.service_csrf_token}`;

    const noHeader = await server.api.request('POST', '/auth/refresh', { body: {}, headers: { cookie } });
    expect(noHeader.status).toBe(403);
    expect(noHeader.body.code).toBe('CSRF_INVALID');
    const wrongHeader = await server.api.request('POST', '/auth/refresh', {
      body: {},
      headers: { cookie, 'x-service-csrf': 'guess' },
    });
    expect(wrongHeader.status).toBe(403);

    const ok = await server.api.request('POST', '/auth/refresh', {
      body: {},
      headers: { cookie, 'x-service-csrf': jar.service_csrf_token! },
    });
    expect(ok.status).toBe(200);
    expect(cookiesFrom(ok.headers).service_refresh_token).toBe(ok.body.refreshToken);
    expect(ok.body.refreshToken).not.toBe(login.body.refreshToken);
  });

  it('refuses an expired refresh token', async () => {
    const login = await server.api.login();
    server.context.db.prepare("UPDATE refresh_tokens SET expires_at = '2000-01-01T00:00:00.000Z'").run();
    const res = await server.api.post('/auth/refresh', { refreshToken: login.body.refreshToken });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('REFRESH_TOKEN_INVALID');
  });
});

describe('logout', () => {
  it('revokes every access and refresh token of the user and clears the cookie', async () => {
    const a = await server.api.login();
    const b = await server.api.login();
    const out = await server.api.post('/auth/logout', {}, a.body.accessToken);
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true });
    expect(out.headers.getSetCookie().join('\n')).toMatch(/service_refresh_token=;/);

    for (const session of [a, b]) {
      const me = await server.api.get('/auth/me', session.body.accessToken);
      expect(me.status).toBe(401);
      expect(me.body.code).toBe('TOKEN_REVOKED');
      expect(
        (await server.api.post('/auth/refresh', { refreshToken: session.body.refreshToken })).status,
      ).toBe(401);
    }
    // Signing in again works.
    expect((await server.api.login()).status).toBe(200);
  });
});

describe('rate limits', () => {
  it('limits failed logins per account and address with 429 and Retry-After', async () => {
    for (let i = 0; i < 10; i++)
      expect((await server.api.login(ADMIN.email, 'wrong-password')).status).toBe(401);
    const limited = await server.api.login(ADMIN.email, ADMIN.password);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another account from the same address is still allowed (the per-IP budget is larger).
    expect((await server.api.login('someone-else@gatehouse.test', 'whatever-pass')).status).toBe(401);
  });

  it('limits login attempts per IP across emails', async () => {
    for (let i = 0; i < 30; i++) await server.api.login(`probe${i}@gatehouse.test`, 'wrong-password');
    const limited = await server.api.login();
    expect(limited.status).toBe(429);
  });

  it('keeps counting across a restart', async () => {
    for (let i = 0; i < 10; i++) await server.api.login(ADMIN.email, 'wrong-password');
    await server.close();
    const again = await startServer({ dataDir: server.dataDir });
    try {
      expect((await again.api.login()).status).toBe(429);
    } finally {
      await again.close();
    }
  });
});
