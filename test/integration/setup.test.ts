import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;
beforeEach(async () => {
  server = await startServer({ bootstrap: false });
});
afterEach(async () => {
  await server.dispose();
});

const admin = { name: 'Grace Hopper', email: 'grace@gatehouse.test', password: 'Compiler-1952-Navy' };

describe('first-run setup', () => {
  it('prints a setup token and reports that setup is required', async () => {
    expect(server.setupToken).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect((await server.api.get('/setup/status')).body).toEqual({ setupRequired: true });
    expect((await server.api.get('/health')).body.setupRequired).toBe(true);
  });

  it('refuses a wrong token and a weak password without spending the token', async () => {
    const wrong = await server.api.post('/setup', { ...admin, setupToken: 'guess' });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({ error: 'Invalid setup token', code: 'INVALID_SETUP_TOKEN' });
    const weak = await server.api.post('/setup', {
      ...admin,
      password: 'short',
      setupToken: server.setupToken,
    });
    expect(weak.status).toBe(400);
    expect(weak.body.code).toBe('WEAK_PASSWORD');
    const ok = await server.api.post('/setup', { ...admin, setupToken: server.setupToken });
    expect(ok.status).toBe(201);
  });

  it('creates a system-scope administrator, signs them in, and then closes for good', async () => {
    const res = await server.api.post('/setup', { ...admin, setupToken: server.setupToken });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({
      email: admin.email,
      name: admin.name,
      scope: 'system',
      mfaEnabled: false,
      roleName: 'Platform Administrator',
    });
    expect((await server.api.get('/auth/me', res.body.accessToken)).status).toBe(200);
    expect((await server.api.get('/setup/status')).body).toEqual({ setupRequired: false });

    const again = await server.api.post('/setup', {
      ...admin,
      email: 'mallory@gatehouse.test',
      setupToken: server.setupToken,
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'Setup already completed', code: 'SETUP_COMPLETE' });
    const hash = server.context.db.prepare('SELECT password_hash FROM users').get() as {
      password_hash: string;
    };
    expect(hash.password_hash).toMatch(/^\$argon2id\$/);
  });
});

describe('bootstrap administrator', () => {
  it('is created from BOOTSTRAP_ADMIN_EMAIL / BOOTSTRAP_ADMIN_PASSWORD on an empty database, with no setup token', async () => {
    const booted = await startServer({
      env: { BOOTSTRAP_ADMIN_EMAIL: 'ops@gatehouse.test', BOOTSTRAP_ADMIN_PASSWORD: 'Bootstrap-Pass-42' },
      bootstrap: false,
    });
    try {
      expect(booted.setupToken).toBeNull();
      const login = await booted.api.login('ops@gatehouse.test', 'Bootstrap-Pass-42');
      expect(login.status).toBe(200);
      expect(login.body.user.scope).toBe('system');
    } finally {
      await booted.dispose();
    }
  });
});

describe('a weak bootstrap password', () => {
  it('stops the start with a configuration error, not a stack trace', async () => {
    await expect(
      startServer({
        env: { BOOTSTRAP_ADMIN_EMAIL: 'ops@gatehouse.test', BOOTSTRAP_ADMIN_PASSWORD: 'opsopsopsops' },
        bootstrap: false,
      }),
    ).rejects.toThrow('Invalid configuration: BOOTSTRAP_ADMIN_PASSWORD: Password is too weak');
  });
});
