import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slugBase } from '../../server/modules/registration/slug';
import { insertPartner, lastMessageTo, readOutbox } from '../support/seed';
import { ADMIN, auditSettled, startServer, type TestServer } from '../support/server';
import {
  PROXY_ENV,
  ACCEPTED,
  INVALID,
  PASSWORD,
  freshIp,
  post,
  partnerBody,
  registerPartner,
  count,
} from '../support/registration-world';

// Partner self-registration, and the slug its organization gets.

describe('slug derivation', () => {
  it('lowercases, turns other characters into single hyphens, trims and caps at 50', () => {
    expect(slugBase('Acme IT Services')).toBe('acme-it-services');
    expect(slugBase('  --Müller & Söhne GmbH!!  ')).toBe('muller-sohne-gmbh');
    const long = slugBase('The Extraordinarily Long Named Managed Service Provider Company of Springfield');
    expect(long.length).toBeLessThanOrEqual(50);
    expect(long).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(slugBase('a'.repeat(49) + ' b')).toBe('a'.repeat(49)); // no trailing hyphen after the cut
    expect(slugBase('株式会社')).toBe('partner');
  });
});

describe('partner registration', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: PROXY_ENV });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('creates nothing but a token and an email, then verify-email creates the tenant and signs in', async () => {
    const email = 'Hank@Globex.test';
    const usersBefore = count(server, 'SELECT COUNT(*) AS n FROM users');
    const res = await post(server, '/auth/register-partner', partnerBody(email), freshIp());
    expect(res.status).toBe(200);
    expect(res.body).toEqual(ACCEPTED);
    expect(count(server, 'SELECT COUNT(*) AS n FROM users')).toBe(usersBefore);
    expect(count(server, "SELECT COUNT(*) AS n FROM partners WHERE name = 'Globex Services'")).toBe(0);

    const row = server.context.db
      .prepare("SELECT * FROM email_tokens WHERE purpose = 'register_partner' AND email = ?")
      .get(email) as { payload: string; expires_at: string; created_at: string; token_hash: string };
    const payload = JSON.parse(row.payload);
    expect(payload).toEqual({
      companyName: 'Globex Services',
      name: 'Hank Scorpio',
      passwordHash: expect.stringMatching(/^\$argon2id\$/),
    });
    expect(row.payload).not.toContain(PASSWORD);
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(24 * 3600 * 1000);

    const { message, token } = lastMessageTo(server, email);
    expect(message.kind).toBe('email');
    expect(message.text).toContain(`${server.url}/verify-email?token=${token}`);
    expect(message.text).toContain('Globex Services');
    expect(row.token_hash).toBe(createHash('sha256').update(token!).digest('hex'));

    const verified = await post(server, '/auth/verify-email', { token }, freshIp());
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({
      verified: true,
      user: { id: expect.any(String), email, name: 'Hank Scorpio', mfaEnabled: false },
      partner: { id: expect.any(String), name: 'Globex Services', slug: 'globex-services', status: 'active' },
      mfaRequired: true,
      tokens: { accessToken: expect.any(String), expiresInSeconds: 900 },
    });
    expect(verified.headers.getSetCookie().join('\n')).toMatch(/service_refresh_token=[^;]+;.*HttpOnly/i);

    const { user, partner, tokens } = verified.body;
    const me = await server.api.get('/auth/me', tokens.accessToken);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      user: {
        id: user.id,
        scope: 'partner',
        partnerId: partner.id,
        roleName: 'Partner Admin',
        status: 'active',
      },
      mfa: false,
      mfaRequiredByPolicy: false,
    });

    const db = server.context.db;
    expect(
      db.prepare('SELECT type, plan, status, billing_email FROM partners WHERE id = ?').get(partner.id),
    ).toEqual({
      type: 'msp',
      plan: 'free',
      status: 'active',
      billing_email: email,
    });
    const role = db
      .prepare('SELECT id, name, scope, is_system, partner_id FROM roles WHERE partner_id = ?')
      .get(partner.id) as { id: string };
    expect(role).toMatchObject({
      name: 'Partner Admin',
      scope: 'partner',
      is_system: 1,
      partner_id: partner.id,
    });
    expect(
      db.prepare('SELECT resource, action FROM role_permissions WHERE role_id = ?').all(role.id),
    ).toEqual([{ resource: '*', action: '*' }]);
    expect(
      db
        .prepare('SELECT role_id, org_access FROM partner_users WHERE user_id = ? AND partner_id = ?')
        .get(user.id, partner.id),
    ).toEqual({ role_id: role.id, org_access: 'all' });
    expect(db.prepare('SELECT status, password_changed_at FROM users WHERE id = ?').get(user.id)).toEqual({
      status: 'active',
      password_changed_at: expect.any(String),
    });

    // The password chosen at registration signs in.
    const login = await server.api.login(email, PASSWORD);
    expect(login.status).toBe(200);
    expect(login.body.user.partnerId).toBe(partner.id);

    await auditSettled(server);
    const audit = db
      .prepare(
        "SELECT action, actor_id, resource_id, details FROM audit_logs WHERE action IN ('partner.create', 'user.login') AND actor_id = ? ORDER BY seq",
      )
      .all(user.id) as Array<{ action: string; actor_id: string; resource_id: string; details: string }>;
    expect(audit[0]).toMatchObject({ action: 'partner.create', resource_id: partner.id });
    expect(JSON.parse(audit[0]!.details)).toMatchObject({
      slug: 'globex-services',
      type: 'msp',
      plan: 'free',
    });
    expect(audit[1]).toMatchObject({ action: 'user.login' });
    expect(JSON.parse(audit[1]!.details)).toMatchObject({ method: 'email_verification' });
    for (const entry of audit) expect(entry.details).not.toMatch(/argon2|Lantern/);
  });

  it('spends the token once and answers one identical 400 for every failure', async () => {
    const token = await registerPartner(server, 'once@initech.test', 'Initech');
    expect((await post(server, '/auth/verify-email', { token }, freshIp())).status).toBe(200);
    const again = await post(server, '/auth/verify-email', { token }, freshIp());
    expect(again.status).toBe(400);
    expect(again.body).toEqual(INVALID);

    const unknown = await post(server, '/auth/verify-email', { token: 'x'.repeat(43) }, freshIp());
    expect(unknown.body).toEqual(INVALID);
    expect((await post(server, '/auth/verify-email', { token: '' }, freshIp())).body).toEqual(INVALID);

    const expiring = await registerPartner(server, 'late@initrode.test', 'Initrode');
    server.context.db
      .prepare("UPDATE email_tokens SET expires_at = '2000-01-01T00:00:00.000Z' WHERE email = ?")
      .run('late@initrode.test');
    const expired = await post(server, '/auth/verify-email', { token: expiring }, freshIp());
    expect(expired.status).toBe(400);
    expect(expired.body).toEqual(INVALID);
    expect(count(server, "SELECT COUNT(*) AS n FROM partners WHERE name = 'Initrode'")).toBe(0);
  });

  it('refuses a token whose address got an account in the meantime, creating nothing', async () => {
    const first = await registerPartner(server, 'race@umbrella.test', 'Umbrella');
    // Same address, now through a standalone registration that completes first.
    await post(
      server,
      '/auth/register',
      { name: 'Racer', email: 'race@umbrella.test', password: PASSWORD },
      freshIp(),
    );
    const second = lastMessageTo(server, 'race@umbrella.test').token;
    // The newer request retired the older link.
    expect((await post(server, '/auth/verify-email', { token: first }, freshIp())).body).toEqual(INVALID);
    expect((await post(server, '/auth/verify-email', { token: second }, freshIp())).status).toBe(200);
    expect(count(server, "SELECT COUNT(*) AS n FROM partners WHERE name = 'Umbrella'")).toBe(0);

    // A link issued while no account existed is refused once one does.
    const userCount = count(server, 'SELECT COUNT(*) AS n FROM users');
    server.context.db
      .prepare(
        `INSERT INTO email_tokens (token_hash, purpose, email, payload, created_at, expires_at)
         VALUES (?, 'register_partner', ?, ?, ?, ?)`,
      )
      .run(
        createHash('sha256').update('meanwhile-token').digest('hex'),
        'RACE@umbrella.test',
        JSON.stringify({ companyName: 'Umbrella', name: 'Late', passwordHash: '$argon2id$x' }),
        new Date().toISOString(),
        new Date(Date.now() + 3600_000).toISOString(),
      );
    const late = await post(server, '/auth/verify-email', { token: 'meanwhile-token' }, freshIp());
    expect(late.status).toBe(400);
    expect(late.body).toEqual(INVALID);
    expect(count(server, 'SELECT COUNT(*) AS n FROM users')).toBe(userCount);
    expect(count(server, "SELECT COUNT(*) AS n FROM partners WHERE name = 'Umbrella'")).toBe(0);
  });

  it('suffixes the slug on collision: -1, -2 ...', async () => {
    insertPartner(server, { name: 'Existing', slug: 'vandelay' });
    insertPartner(server, { name: 'Existing too', slug: 'vandelay-1' });
    const token = await registerPartner(server, 'art@vandelay.test', 'Vandelay');
    const res = await post(server, '/auth/verify-email', { token }, freshIp());
    expect(res.status).toBe(200);
    expect(res.body.partner.slug).toBe('vandelay-2');
    const next = await registerPartner(server, 'kramer@vandelay.test', 'VANDELAY!');
    expect((await post(server, '/auth/verify-email', { token: next }, freshIp())).body.partner.slug).toBe(
      'vandelay-3',
    );
  });

  it('answers 500 after 100 taken slugs and keeps the link usable', async () => {
    insertPartner(server, { slug: 'cyberdyne' });
    for (let i = 1; i < 100; i++) insertPartner(server, { slug: `cyberdyne-${i}` });
    const token = await registerPartner(server, 'miles@cyberdyne.test', 'Cyberdyne');
    const users = count(server, 'SELECT COUNT(*) AS n FROM users');
    const res = await post(server, '/auth/verify-email', { token }, freshIp());
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'Unable to generate unique company identifier' });
    expect(count(server, 'SELECT COUNT(*) AS n FROM users')).toBe(users);

    // Nothing was committed, the token included: once a slug is free the same link completes.
    server.context.db.prepare("UPDATE partners SET slug = 'cyberdyne-old' WHERE slug = 'cyberdyne-42'").run();
    const retry = await post(server, '/auth/verify-email', { token }, freshIp());
    expect(retry.status).toBe(200);
    expect(retry.body.partner.slug).toBe('cyberdyne-42');
  });

  it('answers an existing address exactly like a new one, creates no token and only notifies the owner', async () => {
    const ip = freshIp();
    const fresh = await post(
      server,
      '/auth/register-partner',
      partnerBody('nobody-yet@stark.test', 'Stark'),
      ip,
    );
    const tokensBefore = count(server, 'SELECT COUNT(*) AS n FROM email_tokens');
    const existing = await post(
      server,
      '/auth/register-partner',
      partnerBody(ADMIN.email.toUpperCase(), 'Stark'),
      ip,
    );
    expect(existing.status).toBe(fresh.status);
    expect(existing.body).toEqual(fresh.body);
    expect(existing.headers.get('content-length')).toBe(fresh.headers.get('content-length'));
    expect(count(server, 'SELECT COUNT(*) AS n FROM email_tokens')).toBe(tokensBefore);

    const notice = lastMessageTo(server, ADMIN.email);
    expect(notice.token).toBeNull();
    expect(notice.message.subject).toBe('Someone tried to register with your address');
    expect(notice.message.text).not.toContain('Stark');
    expect(notice.message.text).not.toContain('Hank');
  });

  it('validates the body and the password strength', async () => {
    const ip = freshIp();
    const terms = await post(
      server,
      '/auth/register-partner',
      { ...partnerBody('t@t.test'), acceptTerms: false },
      ip,
    );
    expect(terms.status).toBe(400);
    expect(terms.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: 'acceptTerms: You must accept the terms of service',
    });
    const missingTerms = await post(
      server,
      '/auth/register-partner',
      { ...partnerBody('t@t.test'), acceptTerms: 'true' },
      ip,
    );
    expect(missingTerms.status).toBe(400);
    const company = await post(server, '/auth/register-partner', partnerBody('t@t.test', ' X '), ip);
    expect(company.body.error).toBe('companyName: Company name must be at least 2 characters');
    const email = await post(server, '/auth/register-partner', partnerBody('not-an-email'), ip);
    expect(email.body.error).toBe('email: Invalid email address');
    const short = await post(
      server,
      '/auth/register-partner',
      { ...partnerBody('t@t.test'), password: 'Ab1!' },
      ip,
    );
    expect(short.body.error).toBe('password: Password must be at least 12 characters');
    const weak = await post(
      server,
      '/auth/register-partner',
      { ...partnerBody('t@t.test'), password: 'aaaaaaaaaaaa' },
      ip,
    );
    expect(weak.status).toBe(400);
    expect(weak.body).toEqual({ error: 'Password is too weak', code: 'WEAK_PASSWORD' });
    // None of the refusals spent an attempt: three accepted requests still fit in this address's hour.
    for (let i = 0; i < 3; i++) {
      expect((await post(server, '/auth/register-partner', partnerBody(`ok${i}@t.test`), ip)).status).toBe(
        200,
      );
    }
  });

  it('allows 3 partner registrations per IP per hour, then 429 with Retry-After', async () => {
    const ip = freshIp();
    for (let i = 0; i < 3; i++) {
      const ok = await post(server, '/auth/register-partner', partnerBody(`limit${i}@wayne.test`), ip);
      expect(ok.status).toBe(200);
    }
    const refused = await post(server, '/auth/register-partner', partnerBody('limit3@wayne.test'), ip);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: 'Too many registration attempts', code: 'RATE_LIMITED' });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(readOutbox(server).some((m) => m.to === 'limit3@wayne.test')).toBe(false);
    // Another address is unaffected.
    expect(
      (await post(server, '/auth/register-partner', partnerBody('limit3@wayne.test'), freshIp())).status,
    ).toBe(200);
  });

  it('limits verify-email per IP on its own', async () => {
    const ip = freshIp();
    for (let i = 0; i < 20; i++) {
      expect((await post(server, '/auth/verify-email', { token: `guess-${i}` }, ip)).status).toBe(400);
    }
    const refused = await post(server, '/auth/verify-email', { token: 'guess-20' }, ip);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
