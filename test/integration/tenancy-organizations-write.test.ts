import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  insertOrg,
  insertOrgUser,
  insertPartner,
  plainToken,
  ROLES,
  insertApiKey,
  startSession,
} from '../support/seed';
import { auditOf, patch, del, withKey } from '../support/tenancy';
import {
  server,
  admin,
  p1,
  p2,
  orgA,
  orgB,
  tokens,
  ids,
  useOrganizationsWorld,
} from '../support/tenancy-orgs-world';
import { userByEmail, userById } from '../../server/modules/users';

// /orgs/organizations over real HTTP, writing: create with the spec refusals and the partner cap, update with
// merged settings, soft delete ending sessions and API keys, and the audit entry of every write.

useOrganizationsWorld();

describe('organizations', () => {
  it('creates organizations for system and partner callers, with the spec refusals', async () => {
    const noPartner = await server.api.post('/orgs/organizations', { name: 'X', slug: 'x' }, admin);
    expect(noPartner.status).toBe(400);
    expect(noPartner.body).toEqual({ error: 'partnerId is required for system scope' });
    const unknown = await server.api.post(
      '/orgs/organizations',
      { name: 'X', slug: 'x', partnerId: randomUUID() },
      admin,
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Partner not found' });

    const sys = await server.api.post(
      '/orgs/organizations',
      {
        name: 'Cobra Co',
        slug: 'cobra',
        partnerId: p2,
        type: 'internal',
        status: 'trial',
        maxDevices: 25,
        contractStart: '2026-01-01T00:00:00.000Z',
        contractEnd: '2026-12-31T23:59:59.000Z',
      },
      admin,
    );
    expect(sys.status).toBe(201);
    expect(sys.body).toMatchObject({
      partnerId: p2,
      name: 'Cobra Co',
      slug: 'cobra',
      type: 'internal',
      status: 'trial',
      maxDevices: 25,
      contractStart: '2026-01-01T00:00:00.000Z',
      contractEnd: '2026-12-31T23:59:59.000Z',
    });
    const [created] = await auditOf(server, 'organization.create', sys.body.id);
    expect(created).toMatchObject({ org_id: sys.body.id, resource_type: 'organization' });
    expect(created!.details).toEqual({ partnerId: p2, status: 'trial', type: 'internal' });

    const denied = await server.api.post(
      '/orgs/organizations',
      { name: 'X', slug: 'x', partnerId: p2 },
      tokens.all,
    );
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ error: 'Access denied to this partner' });

    const mine = await server.api.post('/orgs/organizations', { name: 'Dingo', slug: 'dingo' }, tokens.all);
    expect(mine.status).toBe(201);
    expect(mine.body).toMatchObject({
      partnerId: p1.partnerId,
      type: 'customer',
      status: 'active',
      maxDevices: null,
    });
    expect(
      server.context.db.prepare('SELECT partner_id, slug FROM organizations WHERE id = ?').get(mine.body.id),
    ).toEqual({ partner_id: p1.partnerId, slug: 'dingo' });
    const explicit = await server.api.post(
      '/orgs/organizations',
      { name: 'Emu', slug: 'emu', partnerId: p1.partnerId },
      tokens.all,
    );
    expect(explicit.status).toBe(201);

    const clash = await server.api.post(
      '/orgs/organizations',
      { name: 'Dingo 2', slug: 'dingo' },
      tokens.all,
    );
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('SLUG_TAKEN');
    // Slugs are unique per partner only.
    const elsewhere = await server.api.post(
      '/orgs/organizations',
      { name: 'Dingo', slug: 'dingo', partnerId: p2 },
      admin,
    );
    expect(elsewhere.status).toBe(201);

    const orgScope = await server.api.post('/orgs/organizations', { name: 'X', slug: 'x-org' }, tokens.org);
    expect(orgScope.status).toBe(403);
    expect(orgScope.body).toEqual({ error: 'Partner or system scope required' });
    const tech = await server.api.post('/orgs/organizations', { name: 'X', slug: 'x-tech' }, tokens.tech);
    expect(tech.status).toBe(403);
    expect(tech.body.code).toBe('PERMISSION_DENIED');
    const badDates = await server.api.post(
      '/orgs/organizations',
      {
        name: 'X',
        slug: 'x-dates',
        contractStart: '2026-06-01T00:00:00Z',
        contractEnd: '2026-01-01T00:00:00Z',
      },
      tokens.all,
    );
    expect(badDates.status).toBe(400);
    expect(badDates.body.error).toBe('contractEnd must not be before contractStart');
  });

  it('refuses a partner scope token that carries no partner id', async () => {
    const userId = userByEmail(server.context.db, 'all@alpha.test')!.id;
    const forged = await server.context.tokens.signAccess(
      userId,
      { scope: 'partner', partnerId: null, orgId: null, roleId: p1.adminRoleId, roleName: 'Partner Admin' },
      false,
      userById(server.context.db, userId)!.token_version,
      startSession(server, userId),
    );
    const res = await server.api.post('/orgs/organizations', { name: 'X', slug: 'x-none' }, forged);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Partner context required to create organizations' });
  });

  it('lets a `selected` technician see what they create; `none` stays none', async () => {
    const res = await server.api.post('/orgs/organizations', { name: 'Fox', slug: 'fox' }, tokens.selected);
    expect(res.status).toBe(201);
    const link = server.context.db
      .prepare('SELECT org_ids FROM partner_users WHERE user_id = (SELECT id FROM users WHERE email = ?)')
      .get('selected@alpha.test') as { org_ids: string };
    expect(JSON.parse(link.org_ids)).toEqual([orgA, res.body.id]);
    expect((await server.api.get(`/orgs/organizations/${res.body.id}`, tokens.selected)).status).toBe(200);
    const [entry] = await auditOf(server, 'organization.create', res.body.id);
    expect(entry!.details.grantedToCreator).toBe(true);

    const hidden = await server.api.post(
      '/orgs/organizations',
      { name: 'Gecko', slug: 'gecko' },
      tokens.none,
    );
    expect(hidden.status).toBe(201);
    expect((await server.api.get(`/orgs/organizations/${hidden.body.id}`, tokens.none)).status).toBe(404);
  });

  it('enforces the partner maxOrganizations cap', async () => {
    const p = insertPartner(server, { name: 'Capped' });
    server.context.db.prepare('UPDATE partners SET max_organizations = 1 WHERE id = ?').run(p.partnerId);
    const first = await server.api.post(
      '/orgs/organizations',
      { name: 'One', slug: 'one', partnerId: p.partnerId },
      admin,
    );
    expect(first.status).toBe(201);
    const second = await server.api.post(
      '/orgs/organizations',
      { name: 'Two', slug: 'two', partnerId: p.partnerId },
      admin,
    );
    expect(second.status).toBe(403);
    expect(second.body).toEqual({
      error: 'Organization limit reached for this partner',
      code: 'ORGANIZATION_LIMIT_REACHED',
      limit: 1,
    });
    expect(
      (
        server.context.db
          .prepare('SELECT COUNT(*) AS n FROM organizations WHERE partner_id = ?')
          .get(p.partnerId) as {
          n: number;
        }
      ).n,
    ).toBe(1);
    // Deleted organizations free their slot.
    expect((await del(server, `/orgs/organizations/${first.body.id}`, admin)).status).toBe(200);
    expect(
      (
        await server.api.post(
          '/orgs/organizations',
          { name: 'Two', slug: 'two', partnerId: p.partnerId },
          admin,
        )
      ).status,
    ).toBe(201);
  });

  it('updates an organization, merging settings and validating the security keys', async () => {
    server.context.db
      .prepare('UPDATE organizations SET settings = ? WHERE id = ?')
      .run(JSON.stringify({ theme: 'dark', security: { sessionMinutes: 30 } }), orgA);
    const res = await patch(
      server,
      `/orgs/organizations/${orgA}`,
      {
        name: 'Aardvark Limited',
        status: 'suspended',
        maxDevices: 10,
        billingContact: { name: 'AP', email: 'ap@aardvark.test' },
        settings: { security: { requireMfa: true, allowedMfaMethods: { sms: false } } },
        partnerId: p1.partnerId,
      },
      tokens.all,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: orgA,
      name: 'Aardvark Limited',
      status: 'suspended',
      maxDevices: 10,
      billingContact: { name: 'AP', email: 'ap@aardvark.test' },
      settings: {
        theme: 'dark',
        security: { sessionMinutes: 30, requireMfa: true, allowedMfaMethods: { sms: false } },
      },
    });
    const stored = server.context.db
      .prepare('SELECT name, status, settings FROM organizations WHERE id = ?')
      .get(orgA) as {
      name: string;
      settings: string;
    };
    expect(stored.name).toBe('Aardvark Limited');
    expect(JSON.parse(stored.settings).security.requireMfa).toBe(true);
    const [entry] = await auditOf(server, 'organization.update', orgA);
    expect(entry).toMatchObject({ org_id: orgA });
    expect(entry!.details).toEqual({
      changedFields: ['name', 'status', 'maxDevices', 'settings', 'billingContact'],
    });

    const bad = await patch(
      server,
      `/orgs/organizations/${orgA}`,
      { settings: { security: { requireMfa: 'yes' } } },
      tokens.all,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('settings.security.requireMfa: must be a boolean');
    const badSms = await patch(
      server,
      `/orgs/organizations/${orgA}`,
      { settings: { security: { allowedMfaMethods: { sms: 1 } } } },
      tokens.all,
    );
    expect(badSms.body.error).toBe('settings.security.allowedMfaMethods.sms: must be a boolean');
    const move = await patch(server, `/orgs/organizations/${orgA}`, { partnerId: p2 }, tokens.all);
    expect(move.status).toBe(400);
    expect(move.body).toEqual({ error: 'partnerId cannot be changed', code: 'IMMUTABLE_FIELD' });
    for (const body of [{}, { partnerId: p1.partnerId }, { nonsense: true }]) {
      const none = await patch(server, `/orgs/organizations/${orgA}`, body, tokens.all);
      expect(none.status).toBe(400);
      expect(none.body).toEqual({ error: 'No updates provided' });
    }
    const dates = await patch(
      server,
      `/orgs/organizations/${orgA}`,
      { contractStart: '2030-01-01T00:00:00Z' },
      tokens.all,
    );
    expect(dates.status).toBe(200);
    const before = await patch(
      server,
      `/orgs/organizations/${orgA}`,
      { contractEnd: '2029-01-01T00:00:00Z' },
      tokens.all,
    );
    expect(before.status).toBe(400);
    const hidden = await patch(server, `/orgs/organizations/${orgB}`, { name: 'Nope' }, tokens.selected);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ error: 'Organization not found' });
    const orgScope = await patch(server, `/orgs/organizations/${orgA}`, { name: 'Nope' }, tokens.org);
    expect(orgScope.body).toEqual({ error: 'Partner or system scope required' });
    const slugClash = await patch(server, `/orgs/organizations/${orgA}`, { slug: 'badger-plc' }, tokens.all);
    expect(slugClash.status).toBe(409);
  });

  it('soft-deletes an organization and ends its users’ sessions and API keys', async () => {
    const org = insertOrg(server, p1.partnerId, 'Hyena');
    await insertOrgUser(server, org, ROLES.orgTechnician, 'tech@hyena.test');
    const orgToken = await plainToken(server, 'tech@hyena.test');
    const key = insertApiKey(server, org, ['*']);
    expect((await withKey(server, 'GET', '/orgs/', key.key)).status).toBe(200);

    expect((await del(server, `/orgs/organizations/${org}`, tokens.selected)).status).toBe(404);
    const res = await del(server, `/orgs/organizations/${org}`, tokens.all);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    const row = server.context.db.prepare('SELECT deleted_at FROM organizations WHERE id = ?').get(org) as {
      deleted_at: string | null;
    };
    expect(row.deleted_at).not.toBeNull();
    expect((await server.api.get(`/orgs/organizations/${org}`, tokens.all)).status).toBe(404);
    expect(ids((await server.api.get('/orgs/', tokens.all)).body)).not.toContain(org);
    expect((await server.api.get('/orgs/', orgToken)).status).toBe(401);
    expect((await withKey(server, 'GET', '/orgs/', key.key)).status).toBe(401);
    expect(
      server.context.db.prepare('SELECT status, revoked_reason FROM api_keys WHERE id = ?').get(key.id),
    ).toEqual({
      status: 'revoked',
      revoked_reason: 'organization_deleted',
    });
    expect((await del(server, `/orgs/organizations/${org}`, tokens.all)).status).toBe(404);
    const [entry] = await auditOf(server, 'organization.delete', org);
    expect(entry).toMatchObject({ org_id: org, resource_type: 'organization' });
    expect(entry!.details).toMatchObject({ partnerId: p1.partnerId, revoked: { users: 1, apiKeys: 1 } });
    const orgUser = await del(server, `/orgs/organizations/${orgA}`, tokens.org);
    expect(orgUser.status).toBe(403);
  });
});
