import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertOrg,
  insertOrgUser,
  insertPartner,
  nextMessageTo,
  PASSWORD,
  readOutbox,
  ROLES,
} from '../support/seed';
import { auditSettled, startServer, type TestServer } from '../support/server';

// Forgot, reset and change password over real HTTP, reading reset links from the outbox.

const PROXY_ENV = { TRUST_PROXY_HEADERS: 'true', TRUSTED_PROXY_CIDRS: '127.0.0.1/32,::1/128' };
const RESET_ACCEPTED = {
  success: true,
  message:
    'If an account exists for this address, we have sent it a link to reset the password. The link is valid for 1 hour.',
};
const INVALID = { error: 'invalid or expired token' };
const NEW_PASSWORD = 'Quiet-Meadow-2031';

let server: TestServer;
let orgId: string;
beforeAll(async () => {
  server = await startServer({ env: PROXY_ENV });
  const { partnerId } = insertPartner(server);
  orgId = insertOrg(server, partnerId);
});
afterAll(async () => {
  await server.dispose();
});

let ipCounter = 0;
const freshIp = () => `192.0.2.${++ipCounter}`;
const post = (path: string, body: unknown, options: { token?: string; ip?: string } = {}) =>
  server.api.request('POST', path, {
    body,
    token: options.token,
    headers: { 'x-forwarded-for': options.ip ?? freshIp() },
  });

async function newUser(email: string): Promise<string> {
  return insertOrgUser(server, orgId, ROLES.orgTechnician, email);
}

async function requestReset(email: string): Promise<string> {
  const { token } = await nextMessageTo(server, email, async () => {
    expect((await post('/auth/forgot-password', { email })).status).toBe(200);
  });
  if (!token) throw new Error('no reset link');
  return token;
}

const mailsTo = (email: string) =>
  readOutbox(server).filter((m) => m.to.toLowerCase() === email.toLowerCase());

describe('forgot-password', () => {
  it('always answers the same 200 and emails a 1-hour link only to an active account with a password', async () => {
    const userId = await newUser('forgetful@contoso.test');
    const unknown = await post('/auth/forgot-password', { email: 'ghost@contoso.test' });
    let known = unknown;
    const { message, token } = await nextMessageTo(server, 'forgetful@contoso.test', async () => {
      known = await post('/auth/forgot-password', { email: 'FORGETFUL@contoso.test' });
    });
    expect(known.status).toBe(200);
    expect(known.body).toEqual(RESET_ACCEPTED);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    expect(mailsTo('ghost@contoso.test')).toEqual([]);

    expect(message.text).toContain(`${server.url}/reset-password?token=${token}`);
    const row = server.context.db
      .prepare(
        "SELECT user_id, created_at, expires_at FROM email_tokens WHERE purpose = 'password_reset' AND user_id = ?",
      )
      .get(userId) as { user_id: string; created_at: string; expires_at: string };
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(3600 * 1000);

    const disabledId = await newUser('disabled@contoso.test');
    server.context.db.prepare("UPDATE users SET status = 'disabled' WHERE id = ?").run(disabledId);
    const disabled = await post('/auth/forgot-password', { email: 'disabled@contoso.test' });
    expect(disabled.body).toEqual(RESET_ACCEPTED);
    expect(mailsTo('disabled@contoso.test')).toEqual([]);
  });

  it('retires the previous link when a new one is requested', async () => {
    await newUser('twice@contoso.test');
    const first = await requestReset('twice@contoso.test');
    const second = await requestReset('twice@contoso.test');
    expect(second).not.toBe(first);
    const old = await post('/auth/reset-password', { token: first, password: NEW_PASSWORD });
    expect(old.status).toBe(400);
    expect(old.body).toEqual(INVALID);
    expect((await post('/auth/reset-password', { token: second, password: NEW_PASSWORD })).status).toBe(200);
  });

  it('limits requests per address (3 per hour) and per IP', async () => {
    await newUser('spammed@contoso.test');
    for (let i = 0; i < 3; i++) {
      expect((await post('/auth/forgot-password', { email: 'spammed@contoso.test' })).status).toBe(200);
    }
    const refused = await post('/auth/forgot-password', { email: 'spammed@contoso.test' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(mailsTo('spammed@contoso.test')).toHaveLength(3);

    const ip = freshIp();
    for (let i = 0; i < 10; i++) {
      expect((await post('/auth/forgot-password', { email: `n${i}@nowhere.test` }, { ip })).status).toBe(200);
    }
    expect((await post('/auth/forgot-password', { email: 'n10@nowhere.test' }, { ip })).status).toBe(429);
  });
});

describe('reset-password', () => {
  it('sets the password once and ends every session and token of the user', async () => {
    const email = 'reset@contoso.test';
    const userId = await newUser(email);
    const session = await server.api.login(email, PASSWORD);
    expect(session.status).toBe(200);
    const token = await requestReset(email);

    const weak = await post('/auth/reset-password', { token, password: 'aaaaaaaaaaaa' });
    expect(weak.status).toBe(400);
    expect(weak.body).toEqual({ error: 'Password is too weak', code: 'WEAK_PASSWORD' });
    const short = await post('/auth/reset-password', { token, password: 'Ab1!' });
    expect(short.body.error).toBe('password: Password must be at least 12 characters');

    // The refused attempts did not spend the link.
    const ok = await post('/auth/reset-password', { token, password: NEW_PASSWORD });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({
      success: true,
      message: 'Your password has been reset. Sign in with the new password.',
    });

    const me = await server.api.get('/auth/me', session.body.accessToken);
    expect(me.status).toBe(401);
    expect(me.body.code).toBe('TOKEN_REVOKED');
    const refresh = await server.api.post('/auth/refresh', { refreshToken: session.body.refreshToken });
    expect(refresh.status).toBe(401);
    expect((await server.api.login(email, PASSWORD)).status).toBe(401);
    const fresh = await server.api.login(email, NEW_PASSWORD);
    expect(fresh.status).toBe(200);
    expect((await server.api.get('/auth/me', fresh.body.accessToken)).status).toBe(200);

    const reuse = await post('/auth/reset-password', { token, password: 'Another-Good-One-99' });
    expect(reuse.status).toBe(400);
    expect(reuse.body).toEqual(INVALID);
    const row = server.context.db
      .prepare('SELECT password_changed_at FROM users WHERE id = ?')
      .get(userId) as { password_changed_at: string | null };
    expect(row.password_changed_at).not.toBeNull();

    await auditSettled(server);
    const audit = server.context.db
      .prepare("SELECT details FROM audit_logs WHERE action = 'user.password.reset' AND actor_id = ?")
      .all(userId) as Array<{ details: string }>;
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details).not.toContain(NEW_PASSWORD);
    expect(audit[0]!.details).not.toContain(token);
  });

  it('answers the same 400 for unknown, expired and other-purpose tokens', async () => {
    const email = 'expired@contoso.test';
    await newUser(email);
    const token = await requestReset(email);
    server.context.db
      .prepare("UPDATE email_tokens SET expires_at = '2000-01-01T00:00:00.000Z' WHERE email = ?")
      .run(email);
    // A registration link is not a reset link, even for the same address.
    server.context.db
      .prepare(
        `INSERT INTO email_tokens (token_hash, purpose, email, payload, created_at, expires_at)
         VALUES (?, 'register_user', ?, '{}', ?, ?)`,
      )
      .run(
        createHash('sha256').update('registration-token').digest('hex'),
        email,
        new Date().toISOString(),
        new Date(Date.now() + 3600_000).toISOString(),
      );
    for (const candidate of [token, 'unknown-token', '', 'registration-token']) {
      const res = await post('/auth/reset-password', { token: candidate, password: NEW_PASSWORD });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID);
    }
    expect((await server.api.login(email, PASSWORD)).status).toBe(200);
  });

  it('drops a pending MFA sign-in that was opened with the old password', async () => {
    const email = 'pending-mfa@contoso.test';
    const userId = await newUser(email);
    server.context.db
      .prepare("UPDATE users SET mfa_enabled = 1, mfa_method = 'totp' WHERE id = ?")
      .run(userId);
    const login = await server.api.login(email, PASSWORD);
    expect(login.body.mfaRequired).toBe(true);
    const token = await requestReset(email);
    expect((await post('/auth/reset-password', { token, password: NEW_PASSWORD })).status).toBe(200);
    const verify = await server.api.post('/auth/mfa/verify', {
      tempToken: login.body.tempToken,
      code: '123456',
    });
    expect(verify.status).toBe(401);
    expect(verify.body.code).toBe('MFA_SESSION_EXPIRED');
  });
});

describe('change-password', () => {
  it('checks the current password and ends every session, the caller’s included', async () => {
    const email = 'changer@contoso.test';
    const userId = await newUser(email);
    const mine = await server.api.login(email, PASSWORD);
    const other = await server.api.login(email, PASSWORD);
    const token = mine.body.accessToken as string;

    const wrong = await post(
      '/auth/change-password',
      { currentPassword: 'nope', newPassword: NEW_PASSWORD },
      { token },
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ error: 'Current password is incorrect', code: 'INVALID_CURRENT_PASSWORD' });
    const weak = await post(
      '/auth/change-password',
      { currentPassword: PASSWORD, newPassword: 'qwertyuiopas' },
      { token },
    );
    expect(weak.status).toBe(400);
    expect(weak.body.code).toBe('WEAK_PASSWORD');
    const same = await post(
      '/auth/change-password',
      { currentPassword: PASSWORD, newPassword: PASSWORD },
      { token },
    );
    expect(same.status).toBe(400);
    expect(same.body.code).toBe('PASSWORD_UNCHANGED');
    expect(
      (await post('/auth/change-password', { currentPassword: PASSWORD, newPassword: NEW_PASSWORD })).status,
    ).toBe(401);

    const ok = await post(
      '/auth/change-password',
      { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
      { token },
    );
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ success: true });

    expect((await server.api.get('/auth/me', token)).status).toBe(401);
    expect((await server.api.get('/auth/me', other.body.accessToken)).status).toBe(401);
    expect((await server.api.post('/auth/refresh', { refreshToken: mine.body.refreshToken })).status).toBe(
      401,
    );
    expect((await server.api.post('/auth/refresh', { refreshToken: other.body.refreshToken })).status).toBe(
      401,
    );
    expect((await server.api.login(email, PASSWORD)).status).toBe(401);
    expect((await server.api.login(email, NEW_PASSWORD)).status).toBe(200);

    await auditSettled(server);
    const audit = server.context.db
      .prepare(
        "SELECT result, details FROM audit_logs WHERE action = 'user.password.change' AND actor_id = ? ORDER BY seq",
      )
      .all(userId) as Array<{ result: string; details: string }>;
    expect(audit.map((a) => a.result)).toEqual(['failure', 'success']);
    for (const entry of audit) expect(entry.details).not.toMatch(/Meadow|Horse/);
  });

  it('limits wrong current-password guesses per user and address', async () => {
    const email = 'guessed@contoso.test';
    await newUser(email);
    const token = (await server.api.login(email, PASSWORD)).body.accessToken as string;
    const ip = freshIp();
    for (let i = 0; i < 10; i++) {
      const res = await post(
        '/auth/change-password',
        { currentPassword: `guess-${i}`, newPassword: NEW_PASSWORD },
        { token, ip },
      );
      expect(res.status).toBe(400);
    }
    const refused = await post(
      '/auth/change-password',
      { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
      { token, ip },
    );
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
