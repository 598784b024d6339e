// Over 400 lines: one scenario world shared by every case below (a split restarts it per file); to be split by
// describe block over a test/support world, as the devices and tenancy suites were.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertAcmeTree,
  insertOrgUser,
  insertPartnerUser,
  lastAudit as lastAuditOf,
  mfaToken,
  PASSWORD,
  plainToken,
  ROLES,
  signedToken,
  startSession,
} from '../support/seed';
import { ADMIN, auditSettled, startServer, type TestServer } from '../support/server';
import { membershipOf, userByEmail, userById } from '../../server/modules/users';

// /users against a real server: tenant isolation, the full partner access rule, status, removal and role changes
// that take effect on the target's next request.

let server: TestServer;

const tokenFor = (email: string, mfa = true) => signedToken(server, email, mfa);

const idOf = (email: string) => userByEmail(server.context.db, email)!.id;

const lastAudit = (action: string, resourceId: string) => lastAuditOf(server, action, resourceId);

function customRole(orgId: string, name: string, permissions: Array<[string, string]>): string {
  const id = randomUUID();
  const db = server.context.db;
  db.prepare(
    "INSERT INTO roles (id, org_id, scope, name, created_at, updated_at) VALUES (?, ?, 'organization', ?, '', '')",
  ).run(id, orgId, name);
  const insert = db.prepare('INSERT INTO role_permissions (role_id, resource, action) VALUES (?, ?, ?)');
  for (const [resource, action] of permissions) insert.run(id, resource, action);
  return id;
}

let partnerId: string;
let adminRoleId: string;
let otherPartnerId: string;
let otherAdminRoleId: string;
let orgA: string;
let orgB: string;
let orgX: string;

beforeAll(async () => {
  server = await startServer();
  ({ partnerId, adminRoleId, otherPartnerId, otherAdminRoleId, orgA, orgB, orgX } = insertAcmeTree(server));
  await insertPartnerUser(server, partnerId, adminRoleId, 'padmin@acme.test', { orgAccess: 'all' });
  await insertPartnerUser(server, partnerId, adminRoleId, 'pselected@acme.test', {
    orgAccess: 'selected',
    orgIds: [orgA],
  });
  await insertPartnerUser(server, partnerId, adminRoleId, 'pnone@acme.test', { orgAccess: 'none' });
  await insertPartnerUser(server, partnerId, adminRoleId, 'pevery@acme.test', {
    orgAccess: 'selected',
    orgIds: [orgA, orgB],
  });
  await insertPartnerUser(server, partnerId, ROLES.partnerTechnician, 'ptech@acme.test', {
    orgAccess: 'all',
  });
  await insertOrgUser(server, orgA, ROLES.orgAdmin, 'oadmin@contoso.test');
  await insertOrgUser(server, orgA, ROLES.orgTechnician, 'otech@contoso.test');
  await insertOrgUser(server, orgA, ROLES.orgReadOnly, 'oread@contoso.test');
  await insertOrgUser(server, orgB, ROLES.orgAdmin, 'oadmin@fabrikam.test');
  await insertOrgUser(server, orgX, ROLES.orgAdmin, 'oadmin@initech.test');
  await insertPartnerUser(server, otherPartnerId, otherAdminRoleId, 'padmin@other.test', {
    orgAccess: 'all',
  });
});
afterAll(async () => {
  await server.dispose();
});

describe('/users/me', () => {
  it('returns and updates the own profile, for any signed-in user', async () => {
    const token = await tokenFor('otech@contoso.test', false);
    const me = await server.api.get('/users/me', token);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      email: 'otech@contoso.test',
      status: 'active',
      avatarUrl: null,
      mfaEnabled: false,
      phoneVerified: false,
    });
    expect(me.body).not.toHaveProperty('passwordHash');
    expect(JSON.stringify(me.body)).not.toContain('argon2');

    const empty = await server.api.request('PATCH', '/users/me', { token, body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe('No updates provided');
    const badUrl = await server.api.request('PATCH', '/users/me', {
      token,
      body: { avatarUrl: 'javascript:alert(1)' },
    });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.code).toBe('VALIDATION_ERROR');
    const tooLong = await server.api.request('PATCH', '/users/me', {
      token,
      body: { name: 'x'.repeat(256) },
    });
    expect(tooLong.status).toBe(400);

    const patch = await server.api.request('PATCH', '/users/me', {
      token,
      body: { name: '  Olivia Tech ', avatarUrl: 'https://cdn.example.test/olivia.png' },
    });
    expect(patch.status).toBe(200);
    expect(patch.body).toMatchObject({
      name: 'Olivia Tech',
      avatarUrl: 'https://cdn.example.test/olivia.png',
    });
    expect(userByEmail(server.context.db, 'otech@contoso.test')!.name).toBe('Olivia Tech');
    const clear = await server.api.request('PATCH', '/users/me', { token, body: { avatarUrl: null } });
    expect(clear.body.avatarUrl).toBeNull();

    await auditSettled(server);
    const entry = lastAudit('user.profile.update', idOf('otech@contoso.test'));
    expect(entry).toMatchObject({ org_id: orgA, actor_email: 'otech@contoso.test' });
    expect(JSON.parse(entry!.details)).toEqual({ changedFields: ['avatarUrl'] });
  });

  it('works for partner users without full organization access and for platform administrators', async () => {
    for (const email of ['pnone@acme.test', ADMIN.email]) {
      const res = await server.api.get('/users/me', await tokenFor(email));
      expect(res.status).toBe(200);
      expect(res.body.email).toBe(email);
    }
  });

  it('requires a session', async () => {
    expect((await server.api.get('/users/me')).status).toBe(401);
  });
});

describe('listing users in scope', () => {
  const emails = (body: { data: Array<{ email: string }> }) => body.data.map((u) => u.email).sort();

  it('shows an organization its own users only', async () => {
    const res = await server.api.get('/users', await tokenFor('oadmin@contoso.test'));
    expect(res.status).toBe(200);
    expect(emails(res.body)).toEqual(['oadmin@contoso.test', 'oread@contoso.test', 'otech@contoso.test']);
    expect(res.body.pagination).toEqual({ page: 1, limit: 50, total: 3 });
    const tech = res.body.data.find((u: { email: string }) => u.email === 'otech@contoso.test');
    expect(tech.association).toEqual({
      scope: 'organization',
      partnerId,
      orgId: orgA,
      roleId: ROLES.orgTechnician,
      roleName: 'Organization Technician',
      siteIds: null,
      deviceGroupIds: null,
    });
  });

  it('shows a partner its partner users and the users of its organizations', async () => {
    const token = await tokenFor('padmin@acme.test');
    const res = await server.api.get('/users?limit=100', token);
    expect(res.status).toBe(200);
    expect(emails(res.body)).toEqual(
      [
        'oadmin@contoso.test',
        'oadmin@fabrikam.test',
        'oread@contoso.test',
        'otech@contoso.test',
        'padmin@acme.test',
        'pevery@acme.test',
        'pnone@acme.test',
        'pselected@acme.test',
        'ptech@acme.test',
      ].sort(),
    );
    const selected = res.body.data.find((u: { email: string }) => u.email === 'pselected@acme.test');
    expect(selected.association).toEqual({
      scope: 'partner',
      partnerId,
      orgId: null,
      roleId: adminRoleId,
      roleName: 'Partner Admin',
      orgAccess: 'selected',
      orgIds: [orgA],
    });

    const filtered = await server.api.get(`/users?orgId=${orgB}`, token);
    expect(emails(filtered.body)).toEqual(['oadmin@fabrikam.test']);
    const foreign = await server.api.get(`/users?orgId=${orgX}`, token);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('Organization not found');
    const otherPartner = await server.api.get(`/users?partnerId=${otherPartnerId}`, token);
    expect(otherPartner.status).toBe(403);
    expect(otherPartner.body.error).toBe('Access denied to this partner');
  });

  it('paginates, searches and filters by status', async () => {
    const token = await tokenFor('padmin@acme.test');
    const page1 = await server.api.get('/users?limit=4&page=1', token);
    const page3 = await server.api.get('/users?limit=4&page=3', token);
    expect(page1.body.data).toHaveLength(4);
    expect(page1.body.pagination).toEqual({ page: 1, limit: 4, total: 9 });
    expect(page3.body.data).toHaveLength(1);
    const clamped = await server.api.get('/users?limit=1000&page=0', token);
    expect(clamped.body.pagination).toMatchObject({ page: 1, limit: 100 });

    const search = await server.api.get('/users?q=FABRIKAM', token);
    expect(emails(search.body)).toEqual(['oadmin@fabrikam.test']);
    const wildcard = await server.api.get('/users?q=%25', token);
    expect(wildcard.body.data).toHaveLength(0);

    server.context.db
      .prepare("UPDATE users SET status = 'disabled' WHERE email = 'oread@contoso.test'")
      .run();
    try {
      const disabled = await server.api.get('/users?status=disabled', token);
      expect(emails(disabled.body)).toEqual(['oread@contoso.test']);
      const bad = await server.api.get('/users?status=gone', token);
      expect(bad.status).toBe(400);
    } finally {
      server.context.db
        .prepare("UPDATE users SET status = 'active' WHERE email = 'oread@contoso.test'")
        .run();
    }
  });

  it('lets system scope list everyone, or one partner or organization', async () => {
    const token = await mfaToken(server);
    const all = await server.api.get('/users?limit=100', token);
    expect(all.status).toBe(200);
    const admin = all.body.data.find((u: { email: string }) => u.email === ADMIN.email);
    expect(admin.association).toMatchObject({ scope: 'system', roleId: ROLES.platformAdmin });
    expect(emails(all.body)).toEqual(expect.arrayContaining(['oadmin@initech.test', 'padmin@other.test']));

    const other = await server.api.get(`/users?partnerId=${otherPartnerId}`, token);
    expect(emails(other.body)).toEqual(['oadmin@initech.test', 'padmin@other.test']);
    const org = await server.api.get(`/users?orgId=${orgA}`, token);
    expect(emails(org.body)).toEqual(['oadmin@contoso.test', 'oread@contoso.test', 'otech@contoso.test']);
  });

  it('needs users:read', async () => {
    const res = await server.api.get('/users', await tokenFor('otech@contoso.test'));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('PERMISSION_DENIED');
  });
});

describe('scope rules', () => {
  it('hides users outside the scope with 404', async () => {
    const org = await tokenFor('oadmin@contoso.test');
    const partner = await tokenFor('padmin@acme.test');
    const cases: Array<[string, string, number]> = [
      [org, 'otech@contoso.test', 200],
      [org, 'oadmin@fabrikam.test', 404],
      [org, 'padmin@acme.test', 404],
      [org, ADMIN.email, 404],
      [partner, 'oadmin@fabrikam.test', 200],
      [partner, 'oadmin@initech.test', 404],
      [partner, 'padmin@other.test', 404],
    ];
    for (const [token, email, status] of cases) {
      const res = await server.api.get(`/users/${idOf(email)}`, token);
      expect({ email, status: res.status }).toEqual({ email, status });
      if (status === 404) expect(res.body.error).toBe('User not found');
    }
    // Writes outside the scope are the same 404.
    const target = idOf('oadmin@initech.test');
    const writes = [
      server.api.request('PATCH', `/users/${target}`, { token: org, body: { status: 'disabled' } }),
      server.api.request('DELETE', `/users/${target}`, { token: org }),
      server.api.post(`/users/${target}/role`, { roleId: ROLES.orgReadOnly }, org),
      server.api.request('PATCH', `/users/${target}`, { token: partner, body: { name: 'x' } }),
    ];
    for (const res of await Promise.all(writes)) expect(res.status).toBe(404);
    expect(userById(server.context.db, target)!.status).toBe('active');
  });

  it('requires full partner organization access for every /users route but /users/me', async () => {
    const someone = idOf('otech@contoso.test');
    for (const email of ['pselected@acme.test', 'pnone@acme.test']) {
      const token = await tokenFor(email);
      const requests = [
        server.api.get('/users', token),
        server.api.get('/users/roles', token),
        server.api.get(`/users/${someone}`, token),
        server.api.post(
          '/users/invite',
          { email: 'x@acme.test', name: 'X', roleId: ROLES.partnerTechnician, orgAccess: 'none' },
          token,
        ),
        server.api.post('/users/resend-invite', { userId: someone }, token),
        server.api.request('PATCH', `/users/${someone}`, { token, body: { name: 'X' } }),
        server.api.request('DELETE', `/users/${someone}`, { token }),
        server.api.post(`/users/${someone}/role`, { roleId: ROLES.orgReadOnly }, token),
      ];
      for (const res of await Promise.all(requests)) {
        expect(res.status).toBe(403);
        expect(res.body.error).toBe('Full partner organization access required');
      }
      expect((await server.api.get('/users/me', token)).status).toBe(200);
    }
    // `selected` listing every organization of the partner is full access.
    const every = await server.api.get('/users', await tokenFor('pevery@acme.test'));
    expect(every.status).toBe(200);
  });

  it('refuses callers with neither a partner nor an organization', async () => {
    const user = userByEmail(server.context.db, 'padmin@acme.test')!;
    const token = await server.context.tokens.signAccess(
      user.id,
      { scope: 'partner', partnerId: null, orgId: null, roleId: adminRoleId, roleName: 'Partner Admin' },
      true,
      user.token_version,
      startSession(server, user.id),
    );
    for (const path of ['/users', '/users/roles', '/roles']) {
      const res = await server.api.get(path, token);
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('Partner or organization context required');
    }
  });
});

describe('status changes', () => {
  it('disables a user at once (tokens, refresh, login) and enables them again', async () => {
    const targetEmail = 'disable-me@contoso.test';
    const target = await insertOrgUser(server, orgA, ROLES.orgReadOnly, targetEmail);
    const session = await server.api.login(targetEmail, PASSWORD);
    const admin = await tokenFor('oadmin@contoso.test');

    const empty = await server.api.request('PATCH', `/users/${target}`, { token: admin, body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe('No updates provided');
    const invalid = await server.api.request('PATCH', `/users/${target}`, {
      token: admin,
      body: { status: 'invited' },
    });
    expect(invalid.status).toBe(400);

    const disable = await server.api.request('PATCH', `/users/${target}`, {
      token: admin,
      body: { status: 'disabled', name: 'Gone Soon' },
    });
    expect(disable.status).toBe(200);
    expect(disable.body).toMatchObject({ status: 'disabled', name: 'Gone Soon' });
    const old = await server.api.get('/users/me', session.body.accessToken);
    expect(old.status).toBe(401);
    expect(old.body.code).toBe('TOKEN_REVOKED');
    const refresh = await server.api.post('/auth/refresh', { refreshToken: session.body.refreshToken });
    expect(refresh.status).toBe(401);
    expect((await server.api.login(targetEmail, PASSWORD)).status).toBe(401);

    await auditSettled(server);
    const entry = lastAudit('user.update', target);
    expect(entry!.org_id).toBe(orgA);
    expect(JSON.parse(entry!.details)).toEqual({
      changedFields: ['name', 'status'],
      previousStatus: 'active',
      status: 'disabled',
    });

    const enable = await server.api.request('PATCH', `/users/${target}`, {
      token: admin,
      body: { status: 'active' },
    });
    expect(enable.body.status).toBe('active');
    expect((await server.api.login(targetEmail, PASSWORD)).status).toBe(200);
  });

  it('refuses to change the own status, and to enable or disable an invitation', async () => {
    const admin = await tokenFor('oadmin@contoso.test');
    const self = await server.api.request('PATCH', `/users/${idOf('oadmin@contoso.test')}`, {
      token: admin,
      body: { status: 'disabled' },
    });
    expect(self.status).toBe(400);
    expect(self.body.error).toBe('You cannot change your own status');
    const rename = await server.api.request('PATCH', `/users/${idOf('oadmin@contoso.test')}`, {
      token: admin,
      body: { name: 'Org Admin' },
    });
    expect(rename.status).toBe(200);

    const invite = await server.api.post(
      '/users/invite',
      { email: 'pending@contoso.test', name: 'Pending', roleId: ROLES.orgReadOnly },
      admin,
    );
    const res = await server.api.request('PATCH', `/users/${invite.body.id}`, {
      token: admin,
      body: { status: 'disabled' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(
      'Invited users cannot be enabled or disabled; remove the user to withdraw the invitation',
    );
  });

  it('does not let a lesser role manage a user who holds more', async () => {
    const helpdesk = customRole(orgA, 'Helpdesk', [
      ['users', 'view'],
      ['users', 'update'],
      ['users', 'delete'],
      ['devices', 'view'],
      ['scripts', 'view'],
    ]);
    await insertOrgUser(server, orgA, helpdesk, 'helpdesk@contoso.test');
    const token = await tokenFor('helpdesk@contoso.test');
    const admin = idOf('oadmin@contoso.test');
    const res = await server.api.request('PATCH', `/users/${admin}`, { token, body: { status: 'disabled' } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      error: 'Cannot manage a user who holds permissions you do not hold',
      code: 'PERMISSION_ESCALATION',
    });
    expect((await server.api.request('DELETE', `/users/${admin}`, { token })).status).toBe(403);
    // A user holding less is fair game.
    const reader = await insertOrgUser(
      server,
      orgA,
      customRole(orgA, 'Viewer', [['devices', 'view']]),
      'viewer@contoso.test',
    );
    const ok = await server.api.request('PATCH', `/users/${reader}`, { token, body: { name: 'Vi' } });
    expect(ok.status).toBe(200);
  });
});

describe('removal', () => {
  it('removes the association only; the user can no longer sign in and the old token is refused', async () => {
    const email = 'leaver@fabrikam.test';
    const target = await insertOrgUser(server, orgB, ROLES.orgTechnician, email);
    const session = await plainToken(server, email);
    expect((await server.api.get('/users/me', session)).status).toBe(200);
    const partner = await tokenFor('padmin@acme.test');

    const res = await server.api.request('DELETE', `/users/${target}`, { token: partner });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    const account = userById(server.context.db, target);
    expect(account).toMatchObject({ email, status: 'active' });
    expect(membershipOf(server.context.db, target)).toBeNull();
    expect((await server.api.get('/users/me', session)).status).toBe(401);
    expect((await server.api.login(email, PASSWORD)).status).toBe(401);
    expect((await server.api.get(`/users/${target}`, partner)).status).toBe(404);
    const refresh = server.context.db
      .prepare('SELECT COUNT(*) AS n FROM refresh_tokens WHERE user_id = ? AND revoked_at IS NULL')
      .get(target) as { n: number };
    expect(refresh.n).toBe(0);

    await auditSettled(server);
    const entry = lastAudit('user.remove', target);
    expect(entry).toMatchObject({ org_id: orgB, actor_email: 'padmin@acme.test' });
    expect(JSON.parse(entry!.details)).toMatchObject({ scope: 'organization', orgId: orgB });
  });

  it('refuses to remove oneself', async () => {
    const token = await tokenFor('padmin@acme.test');
    const res = await server.api.request('DELETE', `/users/${idOf('padmin@acme.test')}`, { token });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('You cannot remove yourself');
  });
});

describe('role assignment', () => {
  it('changes the role, ends the old access token, and the refreshed session carries the new role', async () => {
    const email = 'promote@contoso.test';
    const target = await insertOrgUser(server, orgA, ROLES.orgReadOnly, email);
    const session = await server.api.login(email, PASSWORD);
    expect((await server.api.get('/users', session.body.accessToken)).status).toBe(200);
    const admin = await tokenFor('oadmin@contoso.test');

    const noMfa = await server.api.post(
      `/users/${target}/role`,
      { roleId: ROLES.orgTechnician },
      await tokenFor('oadmin@contoso.test', false),
    );
    expect(noMfa.status).toBe(403);
    expect(noMfa.body.code).toBe('MFA_REQUIRED');

    const res = await server.api.post(`/users/${target}/role`, { roleId: ROLES.orgTechnician }, admin);
    expect(res.status).toBe(200);
    expect(res.body.association).toMatchObject({
      roleId: ROLES.orgTechnician,
      roleName: 'Organization Technician',
    });
    const old = await server.api.get('/users', session.body.accessToken);
    expect(old.status).toBe(401);
    expect(old.body.code).toBe('TOKEN_REVOKED');
    const refreshed = await server.api.post('/auth/refresh', { refreshToken: session.body.refreshToken });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.user).toMatchObject({
      roleId: ROLES.orgTechnician,
      roleName: 'Organization Technician',
    });
    // Organization Technician has no users:read: the new claims apply on the very next request.
    const denied = await server.api.get('/users', refreshed.body.accessToken);
    expect(denied.status).toBe(403);

    await auditSettled(server);
    const entry = lastAudit('user.role.assign', target);
    expect(entry!.org_id).toBe(orgA);
    expect(JSON.parse(entry!.details)).toEqual({
      previousRoleId: ROLES.orgReadOnly,
      previousRoleName: 'Organization Read Only',
      roleId: ROLES.orgTechnician,
      roleName: 'Organization Technician',
    });
  });

  it('accepts only roles of the user’s own scope and tenant', async () => {
    const admin = await tokenFor('oadmin@contoso.test');
    const target = idOf('oread@contoso.test');
    const foreign = customRole(orgX, 'Initech Tech', [['devices', 'view']]);
    for (const roleId of [ROLES.partnerTechnician, ROLES.platformAdmin, adminRoleId, foreign, randomUUID()]) {
      const res = await server.api.post(`/users/${target}/role`, { roleId }, admin);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Role is not available in this scope');
    }
    // A partner user takes partner roles only.
    const partner = await tokenFor('padmin@acme.test');
    const wrong = await server.api.post(
      `/users/${idOf('ptech@acme.test')}/role`,
      { roleId: ROLES.orgAdmin },
      partner,
    );
    expect(wrong.status).toBe(400);
    const right = await server.api.post(
      `/users/${idOf('ptech@acme.test')}/role`,
      { roleId: adminRoleId },
      partner,
    );
    expect(right.status).toBe(200);
    expect(right.body.association.roleName).toBe('Partner Admin');
    const back = await server.api.post(
      `/users/${idOf('ptech@acme.test')}/role`,
      { roleId: ROLES.partnerTechnician },
      partner,
    );
    expect(back.status).toBe(200);
  });

  it('refuses to change the own role or to grant more than the caller holds', async () => {
    const admin = await tokenFor('oadmin@contoso.test');
    const self = await server.api.post(
      `/users/${idOf('oadmin@contoso.test')}/role`,
      { roleId: ROLES.orgReadOnly },
      admin,
    );
    expect(self.status).toBe(400);
    expect(self.body.error).toBe('You cannot change your own role');

    const manager = customRole(orgA, 'User Manager', [
      ['users', 'view'],
      ['users', 'update'],
      ['devices', 'view'],
    ]);
    await insertOrgUser(server, orgA, manager, 'manager@contoso.test');
    const token = await tokenFor('manager@contoso.test');
    const lowly = await insertOrgUser(
      server,
      orgA,
      customRole(orgA, 'Device Viewer', [['devices', 'view']]),
      'lowly@contoso.test',
    );
    const res = await server.api.post(`/users/${lowly}/role`, { roleId: ROLES.orgAdmin }, token);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'PERMISSION_ESCALATION', missing: ['*:*'] });
    expect(membershipOf(server.context.db, lowly)!.roleName).toBe('Device Viewer');
  });
});
