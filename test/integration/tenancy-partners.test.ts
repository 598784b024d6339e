import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertOrg,
  insertOrgUser,
  insertPartner,
  insertPartnerUser,
  mfaToken,
  plainToken,
  ROLES,
} from '../support/seed';
import { startServer, type TestServer } from '../support/server';
import { auditOf, patch, del } from '../support/tenancy';

// /orgs/partners over real HTTP (system scope): create, list, read, update and delete partners, and the audit
// entry of every write.

describe('partners (system scope)', () => {
  let server: TestServer;
  let admin: string;
  let adminNoMfa: string;
  let partnerAdmin: string;
  let orgAdmin: string;

  beforeAll(async () => {
    server = await startServer();
    adminNoMfa = (await server.api.login()).body.accessToken;
    admin = await mfaToken(server);
    const p = insertPartner(server, { name: 'Existing MSP' });
    const org = insertOrg(server, p.partnerId, 'Existing Customer');
    await insertPartnerUser(server, p.partnerId, p.adminRoleId, 'padmin@partners.test', { orgAccess: 'all' });
    await insertOrgUser(server, org, ROLES.orgAdmin, 'oadmin@partners.test');
    partnerAdmin = await plainToken(server, 'padmin@partners.test');
    orgAdmin = await plainToken(server, 'oadmin@partners.test');
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('creates a partner with defaults and its own Partner Admin role, and audits it', async () => {
    const res = await server.api.post(
      '/orgs/partners',
      { name: ' Northwind IT ', slug: 'northwind-it' },
      admin,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Northwind IT',
      slug: 'northwind-it',
      type: 'msp',
      plan: 'free',
      maxOrganizations: null,
      maxDevices: null,
      settings: {},
      serviceManagementMode: 'native',
      serviceManagementPsaConnectionId: null,
      ssoConfig: {},
      billingEmail: null,
      status: 'active',
      offboardingStartedAt: null,
      deletedAt: null,
    });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    const db = server.context.db;
    expect(db.prepare('SELECT name, status FROM partners WHERE id = ?').get(res.body.id)).toEqual({
      name: 'Northwind IT',
      status: 'active',
    });
    const role = db.prepare('SELECT * FROM roles WHERE partner_id = ?').get(res.body.id) as Record<
      string,
      unknown
    >;
    expect(role).toMatchObject({ name: 'Partner Admin', scope: 'partner', is_system: 1, org_id: null });
    expect(
      db.prepare('SELECT resource, action FROM role_permissions WHERE role_id = ?').all(role.id),
    ).toEqual([{ resource: '*', action: '*' }]);
    const [entry] = await auditOf(server, 'partner.create', res.body.id);
    expect(entry).toMatchObject({ org_id: null, actor_type: 'user', resource_type: 'partner' });
    expect(entry!.details).toMatchObject({ slug: 'northwind-it', type: 'msp', plan: 'free' });
  });

  it('takes every optional create field', async () => {
    const res = await server.api.post(
      '/orgs/partners',
      {
        name: 'Fabrikam',
        slug: 'fabrikam',
        type: 'enterprise',
        plan: 'pro',
        maxOrganizations: 5,
        maxDevices: 500,
        billingEmail: 'billing@fabrikam.test',
      },
      admin,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      type: 'enterprise',
      plan: 'pro',
      maxOrganizations: 5,
      maxDevices: 500,
      billingEmail: 'billing@fabrikam.test',
    });
  });

  it('refuses a taken slug with 409 and a slug that is not URL-safe with 400', async () => {
    await server.api.post('/orgs/partners', { name: 'Tailspin', slug: 'tailspin' }, admin);
    const clash = await server.api.post('/orgs/partners', { name: 'Other', slug: 'tailspin' }, admin);
    expect(clash.status).toBe(409);
    expect(clash.body).toEqual({ error: 'A partner with this slug already exists', code: 'SLUG_TAKEN' });
    for (const slug of ['Upper-Case', 'with space', 'under_score', 'trailing-', '', 'é', 'a'.repeat(101)]) {
      const bad = await server.api.post('/orgs/partners', { name: 'Bad', slug }, admin);
      expect(bad.status, slug).toBe(400);
      expect(bad.body.code).toBe('VALIDATION_ERROR');
      expect(bad.body.error).toMatch(/^slug: /);
    }
    const noName = await server.api.post('/orgs/partners', { slug: 'no-name' }, admin);
    expect(noName.status).toBe(400);
    expect(noName.body.error).toMatch(/^name: /);
    const badEnum = await server.api.post(
      '/orgs/partners',
      { name: 'X', slug: 'x-plan', plan: 'gold' },
      admin,
    );
    expect(badEnum.status).toBe(400);
  });

  it('lists live partners with pagination', async () => {
    for (const n of [1, 2, 3])
      await server.api.post('/orgs/partners', { name: `Zeta ${n}`, slug: `zeta-${n}` }, admin);
    const total = (
      server.context.db.prepare('SELECT COUNT(*) AS n FROM partners WHERE deleted_at IS NULL').get() as {
        n: number;
      }
    ).n;
    const all = await server.api.get('/orgs/partners', admin);
    expect(all.status).toBe(200);
    expect(all.body.pagination).toEqual({ page: 1, limit: 50, total });
    expect(all.body.data).toHaveLength(total);
    const names = all.body.data.map((p: { name: string }) => p.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));

    const page2 = await server.api.get('/orgs/partners?page=2&limit=2', admin);
    expect(page2.body.pagination).toEqual({ page: 2, limit: 2, total });
    expect(page2.body.data).toEqual(all.body.data.slice(2, 4));
    const clamped = await server.api.get('/orgs/partners?page=0&limit=1000', admin);
    expect(clamped.body.pagination).toEqual({ page: 1, limit: 100, total });
  });

  it('reads one partner, 404 when missing', async () => {
    const created = await server.api.post('/orgs/partners', { name: 'Readable', slug: 'readable' }, admin);
    const res = await server.api.get(`/orgs/partners/${created.body.id}`, admin);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created.body);
    const missing = await server.api.get(`/orgs/partners/${randomUUID()}`, admin);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Partner not found' });
    expect((await server.api.get('/orgs/partners/not-a-uuid', admin)).status).toBe(400);
  });

  it('updates any partner field with MFA and audits the changed fields', async () => {
    const created = await server.api.post('/orgs/partners', { name: 'Mutable', slug: 'mutable' }, admin);
    const id = created.body.id as string;
    const noMfa = await patch(server, `/orgs/partners/${id}`, { name: 'x' }, adminNoMfa);
    expect(noMfa.status).toBe(403);
    expect(noMfa.body.code).toBe('MFA_REQUIRED');

    const res = await patch(
      server,
      `/orgs/partners/${id}`,
      {
        name: 'Mutable Renamed',
        slug: 'mutable-renamed',
        type: 'internal',
        plan: 'unlimited',
        maxOrganizations: 10,
        maxDevices: null,
        billingEmail: 'ap@mutable.test',
        ssoConfig: { note: 'kept' },
        settings: { timezone: 'Europe/Berlin', contact: { name: 'Desk' } },
        status: 'suspended',
      },
      admin,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Mutable Renamed',
      slug: 'mutable-renamed',
      type: 'internal',
      plan: 'unlimited',
      maxOrganizations: 10,
      billingEmail: 'ap@mutable.test',
      ssoConfig: { note: 'kept' },
      settings: { timezone: 'Europe/Berlin', contact: { name: 'Desk' } },
      status: 'suspended',
    });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.body.updatedAt));
    const stored = server.context.db
      .prepare('SELECT slug, status, settings FROM partners WHERE id = ?')
      .get(id) as {
      slug: string;
      status: string;
      settings: string;
    };
    expect(stored.slug).toBe('mutable-renamed');
    expect(stored.status).toBe('suspended');
    expect(JSON.parse(stored.settings)).toEqual({ timezone: 'Europe/Berlin', contact: { name: 'Desk' } });

    // Settings merge key by key through this route too.
    const merged = await patch(
      server,
      `/orgs/partners/${id}`,
      { settings: { contact: { phone: '+15550100' } } },
      admin,
    );
    expect(merged.body.settings).toEqual({
      timezone: 'Europe/Berlin',
      contact: { name: 'Desk', phone: '+15550100' },
    });

    const [entry] = await auditOf(server, 'partner.update', id);
    expect(entry!.org_id).toBeNull();
    expect(entry!.details.changedFields).toEqual([
      'name',
      'slug',
      'type',
      'plan',
      'maxOrganizations',
      'maxDevices',
      'settings',
      'ssoConfig',
      'billingEmail',
      'status',
    ]);
    expect(entry!.details.status).toEqual({ from: 'active', to: 'suspended' });
  });

  it('refuses an update with no recognised field, a taken slug and an unknown partner', async () => {
    const a = await server.api.post('/orgs/partners', { name: 'A', slug: 'upd-a' }, admin);
    await server.api.post('/orgs/partners', { name: 'B', slug: 'upd-b' }, admin);
    for (const body of [{}, { unknownField: 1 }]) {
      const res = await patch(server, `/orgs/partners/${a.body.id}`, body, admin);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'No updates provided' });
    }
    const clash = await patch(server, `/orgs/partners/${a.body.id}`, { slug: 'upd-b' }, admin);
    expect(clash.status).toBe(409);
    const same = await patch(server, `/orgs/partners/${a.body.id}`, { slug: 'upd-a' }, admin);
    expect(same.status).toBe(200);
    const missing = await patch(server, `/orgs/partners/${randomUUID()}`, { name: 'x' }, admin);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Partner not found' });
  });

  it('applies the service management rules and reads an unrecognised mode as native', async () => {
    const p = await server.api.post('/orgs/partners', { name: 'PSA', slug: 'psa-rules' }, admin);
    const path = `/orgs/partners/${p.body.id}`;
    const psa = randomUUID();
    const noPsa = await patch(server, path, { serviceManagementMode: 'external' }, admin);
    expect(noPsa.status).toBe(400);
    expect(noPsa.body).toEqual({
      error: 'serviceManagementPsaConnectionId is required when serviceManagementMode is external',
      code: 'PSA_CONNECTION_REQUIRED',
    });
    const external = await patch(
      server,
      path,
      { serviceManagementMode: 'external', serviceManagementPsaConnectionId: psa },
      admin,
    );
    expect(external.body).toMatchObject({
      serviceManagementMode: 'external',
      serviceManagementPsaConnectionId: psa,
    });
    const stale = await patch(server, path, { serviceManagementMode: 'off' }, admin);
    expect(stale.status).toBe(400);
    expect(stale.body.code).toBe('PSA_CONNECTION_NOT_ALLOWED');
    const off = await patch(
      server,
      path,
      { serviceManagementMode: 'off', serviceManagementPsaConnectionId: null },
      admin,
    );
    expect(off.body).toMatchObject({ serviceManagementMode: 'off', serviceManagementPsaConnectionId: null });

    server.context.db
      .prepare("UPDATE partners SET service_management_mode = 'legacy-mode' WHERE id = ?")
      .run(p.body.id);
    expect((await server.api.get(path, admin)).body.serviceManagementMode).toBe('native');
  });

  it('soft-deletes a partner with its organizations', async () => {
    const p = await server.api.post('/orgs/partners', { name: 'Doomed', slug: 'doomed' }, admin);
    const id = p.body.id as string;
    const org = insertOrg(server, id, 'Doomed Customer');
    const res = await del(server, `/orgs/partners/${id}`, admin);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    const db = server.context.db;
    const row = db.prepare('SELECT deleted_at FROM partners WHERE id = ?').get(id) as {
      deleted_at: string | null;
    };
    expect(row.deleted_at).not.toBeNull();
    expect(
      (
        db.prepare('SELECT deleted_at FROM organizations WHERE id = ?').get(org) as {
          deleted_at: string | null;
        }
      ).deleted_at,
    ).toBe(row.deleted_at);
    expect((await server.api.get(`/orgs/partners/${id}`, admin)).status).toBe(404);
    expect((await server.api.get(`/orgs/organizations/${org}`, admin)).status).toBe(404);
    const list = await server.api.get('/orgs/partners?limit=100', admin);
    expect(list.body.data.map((x: { id: string }) => x.id)).not.toContain(id);
    expect((await del(server, `/orgs/partners/${id}`, admin)).status).toBe(404);
    // The slug stays reserved.
    expect((await server.api.post('/orgs/partners', { name: 'Again', slug: 'doomed' }, admin)).status).toBe(
      409,
    );
    const [entry] = await auditOf(server, 'partner.delete', id);
    expect(entry).toMatchObject({ org_id: null, resource_type: 'partner' });
    expect(entry!.details.organizationsDeleted).toBe(1);
    const [orgEntry] = await auditOf(server, 'organization.delete', org);
    expect(orgEntry).toMatchObject({ org_id: org });
  });

  it('refuses every partner route to partner and organization scope', async () => {
    const target = insertPartner(server).partnerId;
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/orgs/partners'],
      ['POST', '/orgs/partners', { name: 'Nope', slug: 'nope' }],
      ['GET', `/orgs/partners/${target}`],
      ['DELETE', `/orgs/partners/${target}`],
    ];
    for (const token of [partnerAdmin, orgAdmin]) {
      for (const [method, path, body] of calls) {
        const res = await server.api.request(method, path, { body, token });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body).toEqual({ error: 'System scope required', code: 'SYSTEM_SCOPE_REQUIRED' });
      }
    }
    expect((await server.api.get('/orgs/partners')).status).toBe(401);
    expect(server.context.db.prepare('SELECT deleted_at FROM partners WHERE id = ?').get(target)).toEqual({
      deleted_at: null,
    });
  });
});
