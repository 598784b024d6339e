import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastMessageTo, readOutbox } from '../support/seed';
import { ADMIN, auditSettled, startServer, type TestServer } from '../support/server';
import {
  PROXY_ENV,
  ACCEPTED,
  INVALID,
  PASSWORD,
  freshIp,
  post,
  partnerBody,
  count,
} from '../support/registration-world';

// Standalone user registration, and registration switched off (ENABLE_REGISTRATION=false).

describe('standalone user registration', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: PROXY_ENV });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('creates an active user without a tenant and no session', async () => {
    const email = 'solo@freelance.test';
    const res = await post(server, '/auth/register', { name: 'Solo', email, password: PASSWORD }, freshIp());
    expect(res.status).toBe(200);
    expect(res.body).toEqual(ACCEPTED);
    const { token } = lastMessageTo(server, email);
    const verified = await post(server, '/auth/verify-email', { token }, freshIp());
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({
      verified: true,
      user: { id: expect.any(String), email, name: 'Solo', mfaEnabled: false },
      partner: null,
      mfaRequired: false,
      tokens: null,
    });
    expect(verified.headers.getSetCookie()).toEqual([]);
    const userId = verified.body.user.id as string;
    const db = server.context.db;
    expect(db.prepare('SELECT status FROM users WHERE id = ?').get(userId)).toEqual({ status: 'active' });
    expect(count(server, 'SELECT COUNT(*) AS n FROM partner_users WHERE user_id = ?', userId)).toBe(0);
    expect(count(server, 'SELECT COUNT(*) AS n FROM organization_users WHERE user_id = ?', userId)).toBe(0);
    // No association yet: an administrator has to invite the account into a tenant before it can sign in.
    expect((await server.api.login(email, PASSWORD)).status).toBe(401);
    await auditSettled(server);
    expect(
      count(
        server,
        "SELECT COUNT(*) AS n FROM audit_logs WHERE action = 'user.register' AND resource_id = ?",
        userId,
      ),
    ).toBe(1);
  });

  it('answers an existing address identically and allows 5 per IP per hour', async () => {
    const ip = freshIp();
    const fresh = await post(
      server,
      '/auth/register',
      { name: 'A', email: 'a@free.test', password: PASSWORD },
      ip,
    );
    const taken = await post(
      server,
      '/auth/register',
      { name: 'B', email: ADMIN.email, password: PASSWORD },
      ip,
    );
    expect(taken.status).toBe(200);
    expect(taken.body).toEqual(fresh.body);
    for (let i = 0; i < 3; i++) {
      expect(
        (
          await post(
            server,
            '/auth/register',
            { name: 'C', email: `c${i}@free.test`, password: PASSWORD },
            ip,
          )
        ).status,
      ).toBe(200);
    }
    const refused = await post(
      server,
      '/auth/register',
      { name: 'D', email: 'd@free.test', password: PASSWORD },
      ip,
    );
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('Too many registration attempts');
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('ENABLE_REGISTRATION=false', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { ENABLE_REGISTRATION: 'false' } });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('answers a plain 404 for register and register-partner, whatever the body', async () => {
    for (const path of ['/auth/register-partner', '/auth/register']) {
      const valid = await server.api.post(path, partnerBody('closed@shut.test'));
      expect(valid.status).toBe(404);
      expect(valid.body).toEqual({ error: 'Not found' });
      const invalid = await server.api.post(path, { nonsense: true });
      expect(invalid.status).toBe(404);
      expect(invalid.body).toEqual({ error: 'Not found' });
    }
    expect(readOutbox(server)).toEqual([]);
  });

  it('no longer completes a link sent before registration was switched off', async () => {
    server.context.db
      .prepare(
        `INSERT INTO email_tokens (token_hash, purpose, email, payload, created_at, expires_at)
         VALUES (?, 'register_partner', 'before@shut.test', ?, ?, ?)`,
      )
      .run(
        createHash('sha256').update('before-the-switch').digest('hex'),
        JSON.stringify({ companyName: 'Shut Co', name: 'Before', passwordHash: '$argon2id$x' }),
        new Date().toISOString(),
        new Date(Date.now() + 3600_000).toISOString(),
      );
    const res = await server.api.post('/auth/verify-email', { token: 'before-the-switch' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INVALID);
    expect(count(server, "SELECT COUNT(*) AS n FROM users WHERE email = 'before@shut.test'")).toBe(0);
  });
});
