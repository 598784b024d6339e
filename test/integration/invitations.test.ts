// Over 400 lines: one scenario world shared by every case below (a split restarts it per file); to be split by
// describe block over a test/support world, as the devices and tenancy suites were.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  insertAcmeTree,
  insertOrgUser,
  insertPartnerUser,
  insertSite,
  lastMessageTo,
  mfaToken,
  PASSWORD,
  plainToken,
  readOutbox,
  ROLES,
  signedToken,
} from '../support/seed';
import { auditSettled, startServer, type TestServer } from '../support/server';
import { userByEmail, userById } from '../../server/modules/users';

// Invitations end to end: invite -> outbox email -> invitation page -> accept -> signed in -> password login.

let server: TestServer;

const tokenFor = (email: string, mfa = true) => signedToken(server, email, mfa);

function auditRows(action: string, resourceId?: string) {
  return server.context.db
    .prepare(
      `SELECT * FROM audit_logs WHERE action = ? ${resourceId ? 'AND resource_id = ?' : ''} ORDER BY seq`,
    )
    .all(...(resourceId ? [action, resourceId] : [action])) as Array<{
    org_id: string | null;
    actor_email: string | null;
    resource_id: string;
    details: string;
  }>;
}

let partnerId: string;
let adminRoleId: string;
let otherPartnerId: string;
let orgA: string;
let orgB: string;
let orgX: string;
let siteA: string;
let siteX: string;

beforeAll(async () => {
  server = await startServer();
  ({ partnerId, adminRoleId, otherPartnerId, orgA, orgB, orgX } = insertAcmeTree(server));
  siteA = insertSite(server, orgA);
  siteX = insertSite(server, orgX);
  await insertPartnerUser(server, partnerId, adminRoleId, 'padmin@acme.test', { orgAccess: 'all' });
  await insertOrgUser(server, orgA, ROLES.orgAdmin, 'oadmin@contoso.test');
  await insertOrgUser(server, orgA, ROLES.orgTechnician, 'otech@contoso.test');
  await insertOrgUser(server, orgX, ROLES.orgAdmin, 'oadmin@initech.test');
});
afterAll(async () => {
  await server.dispose();
});
// Every request here comes from one address: give each test the budget of failed links afresh (the limit itself
// is tested on its own server below).
beforeEach(() => {
  server.context.db.prepare("DELETE FROM rate_limits WHERE bucket LIKE 'secret:email_token:%'").run();
});

describe('organization invitation', () => {
  it('invites, emails a link, shows the invitation, accepts it once and signs the user in', async () => {
    const token = await tokenFor('oadmin@contoso.test');
    const invite = await server.api.post(
      '/users/invite',
      { email: 'New.Tech@Contoso.test', name: 'New Tech', roleId: ROLES.orgTechnician, siteIds: [siteA] },
      token,
    );
    expect(invite.status).toBe(201);
    expect(invite.body).toMatchObject({
      email: 'new.tech@contoso.test',
      name: 'New Tech',
      status: 'invited',
      association: {
        scope: 'organization',
        orgId: orgA,
        partnerId,
        roleId: ROLES.orgTechnician,
        roleName: 'Organization Technician',
        siteIds: [siteA],
        deviceGroupIds: null,
      },
    });
    const stored = server.context.db
      .prepare('SELECT password_hash, status FROM users WHERE id = ?')
      .get(invite.body.id) as { password_hash: string | null; status: string };
    expect(stored).toEqual({ password_hash: null, status: 'invited' });

    const { message, token: inviteToken } = lastMessageTo(server, 'new.tech@contoso.test');
    expect(message.kind).toBe('email');
    expect(message.text).toContain(`${server.context.publicOrigin}/accept-invite?token=`);
    expect(message.text).toContain('Contoso');
    expect(inviteToken).toBeTruthy();
    // Stored as a hash only, purpose invite, valid 7 days.
    const tokenRow = server.context.db
      .prepare("SELECT * FROM email_tokens WHERE user_id = ? AND purpose = 'invite'")
      .get(invite.body.id) as { token_hash: string; expires_at: string };
    expect(tokenRow.token_hash).not.toContain(inviteToken);
    const ttl = Date.parse(tokenRow.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(7 * 24 * 3600 * 1000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(7 * 24 * 3600 * 1000);

    const info = await server.api.get(`/auth/invitation?token=${inviteToken}`);
    expect(info.status).toBe(200);
    expect(info.body).toEqual({
      email: 'new.tech@contoso.test',
      name: 'New Tech',
      tenantName: 'Contoso',
      roleName: 'Organization Technician',
      expiresAt: tokenRow.expires_at,
      invitedByName: 'oadmin',
    });

    const weak = await server.api.post('/auth/accept-invite', { token: inviteToken, password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body.error).toBe('Password must be at least 12 characters');
    const common = await server.api.post('/auth/accept-invite', {
      token: inviteToken,
      password: 'administrator',
    });
    expect(common.status).toBe(400);
    expect(common.body.error).toBe('Password is too weak');

    const accepted = await server.api.post('/auth/accept-invite', {
      token: inviteToken,
      password: 'Fresh-Start-2026!',
      name: 'Newton Tech',
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({
      mfa: false,
      user: { email: 'new.tech@contoso.test', name: 'Newton Tech', scope: 'organization', orgId: orgA },
    });
    expect(accepted.headers.getSetCookie().join('\n')).toMatch(/service_refresh_token=/);
    const me = await server.api.get('/users/me', accepted.body.accessToken);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ status: 'active', name: 'Newton Tech' });
    expect(me.body.passwordChangedAt).toBeTruthy();

    // Single use: the page and the acceptance both refuse the spent token with the one generic body.
    const again = await server.api.post('/auth/accept-invite', {
      token: inviteToken,
      password: 'Another-Start-2026!',
    });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: 'invalid or expired token', code: 'INVALID_TOKEN' });
    expect((await server.api.get(`/auth/invitation?token=${inviteToken}`)).status).toBe(400);

    const login = await server.api.login('new.tech@contoso.test', 'Fresh-Start-2026!');
    expect(login.status).toBe(200);
    expect(login.body.user.roleId).toBe(ROLES.orgTechnician);

    await auditSettled(server);
    const [entry] = auditRows('user.invite', invite.body.id);
    expect(entry).toMatchObject({ org_id: orgA, actor_email: 'oadmin@contoso.test' });
    expect(JSON.parse(entry!.details)).toMatchObject({
      roleId: ROLES.orgTechnician,
      scope: 'organization',
      siteIds: [siteA],
    });
    expect(JSON.stringify(entry)).not.toContain(inviteToken);
    expect(auditRows('user.invite.accept', invite.body.id)).toHaveLength(1);
  });

  it('lets exactly one of two concurrent acceptances win', async () => {
    const token = await tokenFor('oadmin@contoso.test');
    const invite = await server.api.post(
      '/users/invite',
      { email: 'race@contoso.test', name: 'Race', roleId: ROLES.orgReadOnly },
      token,
    );
    const { token: inviteToken } = lastMessageTo(server, 'race@contoso.test');
    const results = await Promise.all(
      ['First-Password-2026', 'Second-Password-2026'].map((password) =>
        server.api.post('/auth/accept-invite', { token: inviteToken, password }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const winner = results.findIndex((r) => r.status === 200);
    const password = ['First-Password-2026', 'Second-Password-2026'][winner]!;
    expect((await server.api.login('race@contoso.test', password)).status).toBe(200);
    expect(userById(server.context.db, invite.body.id)!.status).toBe('active');
  });

  it('refuses an unknown, expired or garbled token with the same 400', async () => {
    const token = await tokenFor('oadmin@contoso.test');
    const invite = await server.api.post(
      '/users/invite',
      { email: 'late@contoso.test', name: 'Late', roleId: ROLES.orgReadOnly },
      token,
    );
    expect(invite.status).toBe(201);
    const { token: inviteToken } = lastMessageTo(server, 'late@contoso.test');
    server.context.db
      .prepare("UPDATE email_tokens SET expires_at = '2001-01-01T00:00:00.000Z' WHERE user_id = ?")
      .run(invite.body.id);
    for (const t of [inviteToken, 'not-a-real-token']) {
      const info = await server.api.get(`/auth/invitation?token=${t}`);
      expect(info.status).toBe(400);
      expect(info.body).toEqual({ error: 'invalid or expired token', code: 'INVALID_TOKEN' });
      const accept = await server.api.post('/auth/accept-invite', {
        token: t,
        password: 'Fresh-Start-2026!',
      });
      expect(accept.status).toBe(400);
      expect(accept.body).toEqual({ error: 'invalid or expired token', code: 'INVALID_TOKEN' });
    }
    const user = userById(server.context.db, invite.body.id)!;
    expect(user.status).toBe('invited');
    expect(user.password_hash).toBeNull();
  });

  it('resends only to invited users: the new link replaces the old one', async () => {
    const token = await tokenFor('oadmin@contoso.test');
    const invite = await server.api.post(
      '/users/invite',
      { email: 'resend@contoso.test', name: 'Resend', roleId: ROLES.orgReadOnly },
      token,
    );
    const first = lastMessageTo(server, 'resend@contoso.test').token!;
    const resend = await server.api.post('/users/resend-invite', { userId: invite.body.id }, token);
    expect(resend.status).toBe(200);
    expect(resend.body.success).toBe(true);
    expect(Date.parse(resend.body.expiresAt)).toBeGreaterThan(Date.now());
    const second = lastMessageTo(server, 'resend@contoso.test').token!;
    expect(second).not.toBe(first);
    expect((await server.api.get(`/auth/invitation?token=${first}`)).status).toBe(400);
    expect((await server.api.get(`/auth/invitation?token=${second}`)).status).toBe(200);

    const active = userByEmail(server.context.db, 'otech@contoso.test')!;
    const refused = await server.api.post('/users/resend-invite', { userId: active.id }, token);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('Only invited users can be sent a new invitation');

    // Out of scope users do not exist for the caller.
    const foreign = userByEmail(server.context.db, 'oadmin@initech.test')!;
    const hidden = await server.api.post('/users/resend-invite', { userId: foreign.id }, token);
    expect(hidden.status).toBe(404);

    await auditSettled(server);
    expect(auditRows('user.invite.resend', invite.body.id)).toHaveLength(1);

    // Five resends an hour; the sixth is refused in one sentence, the wait said once, by Retry-After.
    for (let i = 0; i < 4; i++)
      expect((await server.api.post('/users/resend-invite', { userId: invite.body.id }, token)).status).toBe(
        200,
      );
    const limited = await server.api.post('/users/resend-invite', { userId: invite.body.id }, token);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({
      error: 'Too many invitations sent to this user',
      code: 'RATE_LIMITED',
    });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('answers 409 for an email that already belongs to a tenant, here or elsewhere', async () => {
    const token = await tokenFor('oadmin@contoso.test');
    for (const email of ['otech@contoso.test', 'OADMIN@initech.test', 'padmin@acme.test']) {
      const res = await server.api.post(
        '/users/invite',
        { email, name: 'Dup', roleId: ROLES.orgReadOnly },
        token,
      );
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: 'User already exists in this scope', code: 'USER_EXISTS' });
      expect(res.body.detail).toMatch(/belongs to one partner or organization/);
    }
  });

  it('re-attaches and re-invites an account whose association was removed', async () => {
    const token = await tokenFor('oadmin@contoso.test');
    const userId = await insertOrgUser(server, orgA, ROLES.orgReadOnly, 'comeback@contoso.test');
    const oldSession = await plainToken(server, 'comeback@contoso.test');
    expect((await server.api.request('DELETE', `/users/${userId}`, { token })).status).toBe(200);
    expect((await server.api.get('/users/me', oldSession)).status).toBe(401);

    const again = await server.api.post(
      '/users/invite',
      { email: 'comeback@contoso.test', name: 'Ignored', roleId: ROLES.orgTechnician },
      token,
    );
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ id: userId, status: 'invited', name: 'comeback' });
    // Invited again: the old password no longer signs in until the invitation is accepted.
    expect((await server.api.login('comeback@contoso.test', PASSWORD)).status).toBe(401);
    const { token: inviteToken } = lastMessageTo(server, 'comeback@contoso.test');
    const accepted = await server.api.post('/auth/accept-invite', {
      token: inviteToken,
      password: 'Second-Chance-77',
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.user).toMatchObject({ id: userId, roleId: ROLES.orgTechnician });
    await auditSettled(server);
    const entries = auditRows('user.invite', userId);
    expect(JSON.parse(entries.at(-1)!.details).reattached).toBe(true);
  });

  it('withdraws the invitation when an invited user is removed', async () => {
    const token = await tokenFor('oadmin@contoso.test');
    const invite = await server.api.post(
      '/users/invite',
      { email: 'withdrawn@contoso.test', name: 'Withdrawn', roleId: ROLES.orgReadOnly },
      token,
    );
    const { token: inviteToken } = lastMessageTo(server, 'withdrawn@contoso.test');
    expect((await server.api.request('DELETE', `/users/${invite.body.id}`, { token })).status).toBe(200);
    const accept = await server.api.post('/auth/accept-invite', {
      token: inviteToken,
      password: 'Fresh-Start-2026!',
    });
    expect(accept.status).toBe(400);
    expect(userById(server.context.db, invite.body.id)).toBeDefined();
  });

  it('checks roles, sites and grants against the organization', async () => {
    const token = await tokenFor('oadmin@contoso.test');
    const base = { email: 'checks@contoso.test', name: 'Checks' };
    const cases: Array<[object, number, string]> = [
      [{ roleId: ROLES.partnerTechnician }, 400, 'Role is not available in this scope'],
      [{ roleId: ROLES.platformAdmin }, 400, 'Role is not available in this scope'],
      [{ roleId: adminRoleId }, 400, 'Role is not available in this scope'],
      [
        { roleId: ROLES.orgReadOnly, siteIds: [siteX] },
        400,
        `siteIds: ${siteX} is not a site of this organization`,
      ],
      [
        { roleId: ROLES.orgReadOnly, orgAccess: 'all' },
        400,
        'orgAccess and orgIds apply to partner users only',
      ],
      [{ roleId: ROLES.orgReadOnly, orgId: orgX }, 403, 'Access to this organization denied'],
      [{ roleId: ROLES.orgReadOnly, partnerId }, 403, 'Access denied to this partner'],
      [{ roleId: 'not-a-uuid' }, 400, 'roleId: roleId must be a UUID'],
    ];
    for (const [extra, status, error] of cases) {
      const res = await server.api.post('/users/invite', { ...base, ...extra }, token);
      expect({ status: res.status, error: res.body.error }).toEqual({ status, error });
    }
    // A custom role of another organization is as unknown as a made-up id.
    const foreignRole = server.context.db
      .prepare(
        "INSERT INTO roles (id, org_id, scope, name, created_at, updated_at) VALUES (?, ?, 'organization', 'X', '', '') RETURNING id",
      )
      .get(randomUUID(), orgX) as { id: string };
    const res = await server.api.post('/users/invite', { ...base, roleId: foreignRole.id }, token);
    expect(res.status).toBe(400);
    expect(userByEmail(server.context.db, 'checks@contoso.test')).toBeUndefined();
  });

  it('needs users:invite, MFA, and no role above the inviter', async () => {
    const body = { email: 'gate@contoso.test', name: 'Gate', roleId: ROLES.orgReadOnly };
    const tech = await server.api.post('/users/invite', body, await tokenFor('otech@contoso.test'));
    expect(tech.status).toBe(403);
    expect(tech.body.code).toBe('PERMISSION_DENIED');
    const noMfa = await server.api.post('/users/invite', body, await tokenFor('oadmin@contoso.test', false));
    expect(noMfa.status).toBe(403);
    expect(noMfa.body.code).toBe('MFA_REQUIRED');

    // A helpdesk role may invite but holds less than an administrator: it cannot invite one.
    const db = server.context.db;
    const helpdesk = db
      .prepare(
        `INSERT INTO roles (id, org_id, scope, name, created_at, updated_at)
         VALUES (?, ?, 'organization', 'Helpdesk', '', '') RETURNING id`,
      )
      .get(randomUUID(), orgA) as { id: string };
    const insert = db.prepare('INSERT INTO role_permissions (role_id, resource, action) VALUES (?, ?, ?)');
    for (const [r, a] of [
      ['users', 'view'],
      ['users', 'create'],
      ['devices', 'view'],
    ])
      insert.run(helpdesk.id, r, a);
    await insertOrgUser(server, orgA, helpdesk.id, 'helpdesk@contoso.test');
    const helpToken = await tokenFor('helpdesk@contoso.test');
    const escalate = await server.api.post('/users/invite', { ...body, roleId: ROLES.orgAdmin }, helpToken);
    expect(escalate.status).toBe(403);
    expect(escalate.body).toMatchObject({
      error: 'Cannot grant permissions you do not hold',
      code: 'PERMISSION_ESCALATION',
      missing: ['*:*'],
    });
    const tooMuch = await server.api.post('/users/invite', body, helpToken);
    expect(tooMuch.status).toBe(403);
    expect(tooMuch.body.missing).toContain('scripts:view');
    const fine = await server.api.post('/users/invite', { ...body, roleId: helpdesk.id }, helpToken);
    expect(fine.status).toBe(201);
  });
});

describe('partner invitation', () => {
  it('invites a partner user with selected organizations, who then signs in with partner scope', async () => {
    const token = await tokenFor('padmin@acme.test');
    const invite = await server.api.post(
      '/users/invite',
      {
        email: 'ptech@acme.test',
        name: 'Partner Tech',
        roleId: ROLES.partnerTechnician,
        orgAccess: 'selected',
        orgIds: [orgB, orgB],
      },
      token,
    );
    expect(invite.status).toBe(201);
    expect(invite.body.association).toEqual({
      scope: 'partner',
      partnerId,
      orgId: null,
      roleId: ROLES.partnerTechnician,
      roleName: 'Partner Technician',
      orgAccess: 'selected',
      orgIds: [orgB],
    });
    const { message, token: inviteToken } = lastMessageTo(server, 'ptech@acme.test');
    expect(message.text).toContain('Acme MSP');
    const info = await server.api.get(`/auth/invitation?token=${inviteToken}`);
    expect(info.body).toMatchObject({ tenantName: 'Acme MSP', roleName: 'Partner Technician' });
    const accepted = await server.api.post('/auth/accept-invite', {
      token: inviteToken,
      password: 'Partner-Tech-2026',
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.user).toMatchObject({ scope: 'partner', partnerId, orgId: null });
    await auditSettled(server);
    const [entry] = auditRows('user.invite', invite.body.id);
    expect(entry!.org_id).toBeNull();
    expect(JSON.parse(entry!.details)).toMatchObject({ orgAccess: 'selected', orgIds: [orgB] });
  });

  it('checks orgAccess and orgIds against the partner', async () => {
    const token = await tokenFor('padmin@acme.test');
    const base = { email: 'pchecks@acme.test', name: 'Checks', roleId: ROLES.partnerTechnician };
    const cases: Array<[object, number, string]> = [
      [{}, 400, 'orgAccess is required when inviting a partner user'],
      [
        { orgAccess: 'selected' },
        400,
        'orgIds must list at least one organization when orgAccess is selected',
      ],
      [
        { orgAccess: 'selected', orgIds: [orgX] },
        400,
        `orgIds: ${orgX} is not an organization of this partner`,
      ],
      [{ orgAccess: 'all', orgIds: [orgA] }, 400, 'orgIds apply only when orgAccess is selected'],
      [
        { orgAccess: 'none', siteIds: [siteA] },
        400,
        'siteIds and deviceGroupIds apply to organization users only',
      ],
      [{ orgAccess: 'all', roleId: ROLES.orgAdmin }, 400, 'Role is not available in this scope'],
      [{ orgAccess: 'all', partnerId: otherPartnerId }, 403, 'Access denied to this partner'],
      [{ orgAccess: 'all', partnerId, orgId: orgA }, 400, 'Provide either partnerId or orgId, not both'],
      [{ roleId: ROLES.orgReadOnly, orgId: orgX }, 404, 'Organization not found'],
    ];
    for (const [extra, status, error] of cases) {
      const res = await server.api.post('/users/invite', { ...base, ...extra }, token);
      expect({ status: res.status, error: res.body.error }).toEqual({ status, error });
    }
  });

  it('lets a partner administrator invite an organization user into one of its organizations', async () => {
    const token = await tokenFor('padmin@acme.test');
    const res = await server.api.post(
      '/users/invite',
      { email: 'viaPartner@fabrikam.test', name: 'Via', roleId: ROLES.orgReadOnly, orgId: orgB },
      token,
    );
    expect(res.status).toBe(201);
    expect(res.body.association).toMatchObject({ scope: 'organization', orgId: orgB, partnerId });
  });
});

describe('system scope invitation', () => {
  it('names the tenant with partnerId or orgId, and must name one', async () => {
    const token = await mfaToken(server);
    const none = await server.api.post(
      '/users/invite',
      { email: 'sys@acme.test', name: 'Sys', roleId: ROLES.orgAdmin },
      token,
    );
    expect(none.status).toBe(400);
    expect(none.body.error).toBe('partnerId or orgId is required for system scope');

    const org = await server.api.post(
      '/users/invite',
      { email: 'sys-org@initech.test', name: 'Sys Org', roleId: ROLES.orgAdmin, orgId: orgX },
      token,
    );
    expect(org.status).toBe(201);
    expect(org.body.association).toMatchObject({ scope: 'organization', orgId: orgX });

    const partner = await server.api.post(
      '/users/invite',
      {
        email: 'sys-partner@other.test',
        name: 'Sys Partner',
        roleId: ROLES.partnerTechnician,
        partnerId: otherPartnerId,
        orgAccess: 'selected',
        orgIds: [orgX],
      },
      token,
    );
    expect(partner.status).toBe(201);
    expect(partner.body.association).toMatchObject({ scope: 'partner', partnerId: otherPartnerId });

    const missing = await server.api.post(
      '/users/invite',
      {
        email: 'ghost@nowhere.test',
        name: 'Ghost',
        roleId: ROLES.partnerTechnician,
        partnerId: '22222222-2222-4222-8222-222222222222',
        orgAccess: 'all',
      },
      token,
    );
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('Partner not found');
    expect(readOutbox(server).some((m) => m.to === 'ghost@nowhere.test')).toBe(false);
  });
});

describe('invitation rate limit', () => {
  it('limits invitation lookups and acceptances per IP', async () => {
    const own = await startServer();
    try {
      let last = 0;
      for (let i = 0; i < 21; i++) last = (await own.api.get('/auth/invitation?token=nope')).status;
      expect(last).toBe(429);
      const res = await own.api.post('/auth/accept-invite', { token: 'nope', password: 'Whatever-2026' });
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBeTruthy();
    } finally {
      await own.dispose();
    }
  });
});
