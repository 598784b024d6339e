import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  insertOrg,
  insertOrgUser,
  insertPartner,
  insertPartnerUser,
  insertSite,
  mfaToken,
  PASSWORD,
  plainToken,
  ROLES,
  insertApiKey,
  startSession,
} from '../support/seed';
import { auditSettled, startServer, type TestServer } from '../support/server';

// /orgs over real HTTP: partners (system scope), the partner's own record and settings, organizations and sites,
// the IP allowlist with trusted proxy parsing, and the audit entry of every write.

const TRUSTED_PROXY_ENV = { TRUST_PROXY_HEADERS: 'true', TRUSTED_PROXY_CIDRS: '127.0.0.1/32' };

interface AuditRow {
  org_id: string | null;
  actor_type: string;
  actor_id: string;
  action: string;
  resource_type: string;
  resource_id: string | null;
  details: string;
}

async function auditOf(server: TestServer, action: string, resourceId: string) {
  await auditSettled(server);
  const rows = server.context.db
    .prepare('SELECT * FROM audit_logs WHERE action = ? AND resource_id = ? ORDER BY seq')
    .all(action, resourceId) as AuditRow[];
  return rows.map((r) => ({ ...r, details: JSON.parse(r.details) as Record<string, unknown> }));
}

const patch = (
  server: TestServer,
  path: string,
  body: unknown,
  token: string,
  headers?: Record<string, string>,
) => server.api.request('PATCH', path, { body, token, headers });
const del = (server: TestServer, path: string, token: string) =>
  server.api.request('DELETE', path, { token });
const withKey = (server: TestServer, method: string, path: string, key: string, body?: unknown) =>
  server.api.request(method, path, { body, headers: { 'x-api-key': key } });

/** Login and MFA limits count per IP; these suites sign in many users from 127.0.0.1. */
function resetRateLimits(server: TestServer) {
  server.context.db.prepare('DELETE FROM rate_limits').run();
}

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

describe('own partner and its settings (partner scope)', () => {
  let server: TestServer;
  let partnerId: string;
  let admin: string;
  let partnerAdmin: string;

  beforeAll(async () => {
    server = await startServer({ env: TRUSTED_PROXY_ENV });
    admin = (await server.api.login()).body.accessToken;
    const p = insertPartner(server, { name: 'Contoso MSP', slug: 'contoso-msp' });
    partnerId = p.partnerId;
    insertOrg(server, partnerId, 'Customer One');
    insertOrg(server, partnerId, 'Customer Two');
    await insertPartnerUser(server, partnerId, p.adminRoleId, 'owner@contoso.test', { orgAccess: 'all' });
    partnerAdmin = await mfaToken(server, 'owner@contoso.test', PASSWORD);
  });
  afterAll(async () => {
    await server.dispose();
  });
  beforeEach(() => resetRateLimits(server));

  const me = (body: unknown, token = partnerAdmin, headers?: Record<string, string>) =>
    patch(server, '/orgs/partners/me', body, token, headers);
  const storedSettings = () =>
    JSON.parse(
      (
        server.context.db.prepare('SELECT settings FROM partners WHERE id = ?').get(partnerId) as {
          settings: string;
        }
      ).settings,
    ) as Record<string, unknown>;

  it('returns the own partner, and refuses system and organization scope', async () => {
    const res = await server.api.get('/orgs/partners/me', partnerAdmin);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: partnerId,
      name: 'Contoso MSP',
      slug: 'contoso-msp',
      status: 'active',
    });
    const sys = await server.api.get('/orgs/partners/me', admin);
    expect(sys.status).toBe(403);
    expect(sys.body).toEqual({ error: 'Partner scope required', code: 'PARTNER_SCOPE_REQUIRED' });
    const org = insertOrg(server, partnerId, 'Customer Three');
    await insertOrgUser(server, org, ROLES.orgAdmin, 'orgadmin@contoso.test');
    const orgToken = await plainToken(server, 'orgadmin@contoso.test');
    const orgRes = await server.api.get('/orgs/partners/me', orgToken);
    expect(orgRes.body).toEqual({ error: 'Partner scope required', code: 'PARTNER_SCOPE_REQUIRED' });
    // The write route checks MFA before the handler's scope check; either way the caller is refused.
    expect((await me({ name: 'x' }, orgToken)).status).toBe(403);
  });

  it('needs MFA, full organization access and at least one field', async () => {
    const p = insertPartner(server, { name: 'Second' });
    const orgA = insertOrg(server, p.partnerId, 'Second A');
    insertOrg(server, p.partnerId, 'Second B');
    await insertPartnerUser(server, p.partnerId, p.adminRoleId, 'plain@second.test', { orgAccess: 'all' });
    await insertPartnerUser(server, p.partnerId, p.adminRoleId, 'limited@second.test', {
      orgAccess: 'selected',
      orgIds: [orgA],
    });
    const plain = await plainToken(server, 'plain@second.test');
    const noMfa = await me({ name: 'x' }, plain);
    expect(noMfa.status).toBe(403);
    expect(noMfa.body.code).toBe('MFA_REQUIRED');
    const limited = await mfaToken(server, 'limited@second.test', PASSWORD);
    const partial = await me({ name: 'x' }, limited);
    expect(partial.status).toBe(403);
    expect(partial.body).toEqual({ error: 'Full partner organization access required' });
    const empty = await me({});
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ error: 'No updates provided' });
    // Fields only a platform administrator may change are not recognised here.
    const foreign = await me({ status: 'churned', plan: 'unlimited', slug: 'mine' });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual({ error: 'No updates provided' });
  });

  it('updates name and billing email and merges settings key by key', async () => {
    const first = await me({
      name: 'Contoso Managed Services',
      billingEmail: 'billing@contoso.test',
      settings: {
        timezone: 'europe/berlin',
        dateFormat: 'DD/MM/YYYY',
        timeFormat: '24h',
        language: 'en',
        businessHours: { preset: 'custom', custom: { monday: { start: '08:00', end: '17:30' } } },
        contact: { name: 'Service desk', email: 'desk@contoso.test' },
        security: { approvalStepUp: { mode: 'grace' } },
        brandColor: '#123456',
      },
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      name: 'Contoso Managed Services',
      billingEmail: 'billing@contoso.test',
    });
    expect(first.body.settings.timezone).toBe('Europe/Berlin');

    const second = await me({
      settings: {
        timeFormat: '12h',
        businessHours: {
          custom: {
            tuesday: { start: '09:00', end: '17:00' },
            sunday: { start: '00:00', end: '00:00', closed: true },
          },
        },
        contact: { phone: '+1 555 0100', website: 'https://contoso.test' },
      },
    });
    expect(second.status).toBe(200);
    const expected = {
      timezone: 'Europe/Berlin',
      dateFormat: 'DD/MM/YYYY',
      timeFormat: '12h',
      language: 'en',
      businessHours: {
        preset: 'custom',
        custom: {
          monday: { start: '08:00', end: '17:30' },
          tuesday: { start: '09:00', end: '17:00' },
          sunday: { start: '00:00', end: '00:00', closed: true },
        },
      },
      contact: {
        name: 'Service desk',
        email: 'desk@contoso.test',
        phone: '+1 555 0100',
        website: 'https://contoso.test',
      },
      security: { approvalStepUp: { mode: 'grace' } },
      brandColor: '#123456',
    };
    expect(second.body.settings).toEqual(expected);
    expect(storedSettings()).toEqual(expected);
    expect(
      server.context.db.prepare('SELECT name, billing_email FROM partners WHERE id = ?').get(partnerId),
    ).toEqual({
      name: 'Contoso Managed Services',
      billing_email: 'billing@contoso.test',
    });

    // A day is replaced whole: reopening Sunday drops its `closed` flag.
    const reopened = await me({
      settings: { businessHours: { custom: { sunday: { start: '10:00', end: '14:00' } } } },
    });
    expect(reopened.body.settings.businessHours.custom.sunday).toEqual({ start: '10:00', end: '14:00' });

    const [entry] = (await auditOf(server, 'partner.settings.update', partnerId)).slice(-2);
    expect(entry!.org_id).toBeNull();
    expect(entry!.details).toEqual({
      changedFields: [
        'settings.timeFormat',
        'settings.businessHours.custom',
        'settings.contact.phone',
        'settings.contact.website',
      ],
    });
  });

  it('validates each settings key', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ timezone: 'Mars/Olympus_Mons' }, /^settings\.timezone: unknown IANA time zone/],
      [{ timezone: '+01:00' }, /^settings\.timezone: /],
      [{ dateFormat: 'YYYY/MM/DD' }, /^settings\.dateFormat: /],
      [{ timeFormat: '48h' }, /^settings\.timeFormat: /],
      [{ language: 'de' }, /^settings\.language: only 'en' is supported/],
      [{ businessHours: { preset: 'weekends' } }, /^settings\.businessHours\.preset: /],
      [
        { businessHours: { custom: { funday: { start: '09:00', end: '10:00' } } } },
        /^settings\.businessHours\.custom: /,
      ],
      [
        { businessHours: { custom: { monday: { start: '9am', end: '17:00' } } } },
        /custom\.monday\.start: must be a time/,
      ],
      [
        { businessHours: { custom: { monday: { start: '17:00', end: '09:00' } } } },
        /custom\.monday: end must be after start/,
      ],
      [{ businessHours: { custom: { monday: { start: '25:00', end: '26:00' } } } }, /custom\.monday\.start/],
      [{ contact: { email: 'not-an-email' } }, /^settings\.contact\.email: must be a valid email address/],
      [
        { contact: { website: 'ftp://contoso.test' } },
        /^settings\.contact\.website: must be an http or https URL/,
      ],
      [{ contact: { fax: '123' } }, /^settings\.contact: /],
      [{ security: { ipAllowlist: 'not-a-list' } }, /^settings\.security\.ipAllowlist: /],
    ];
    const before = storedSettings();
    for (const [settings, message] of cases) {
      const res = await me({ settings });
      expect(res.status, JSON.stringify(settings)).toBe(400);
      expect(res.body.error, JSON.stringify(settings)).toMatch(message);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    expect(storedSettings()).toEqual(before);
  });

  it('requires a custom schedule when the preset is custom', async () => {
    const p = insertPartner(server, { name: 'Fresh' });
    await insertPartnerUser(server, p.partnerId, p.adminRoleId, 'fresh@fresh.test', { orgAccess: 'all' });
    const token = await mfaToken(server, 'fresh@fresh.test', PASSWORD);
    const res = await me({ settings: { businessHours: { preset: 'custom' } } }, token);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(
      'settings.businessHours.custom: a per-day schedule is required when preset is custom',
    );
    const ok = await me({ settings: { businessHours: { preset: '24/7' } } }, token);
    expect(ok.body.settings).toEqual({ businessHours: { preset: '24/7' } });
  });

  it('validates IP allowlist entries: IPv4, IPv6, CIDR, IPv4-mapped IPv6, and names the bad entry', async () => {
    const list = [
      '127.0.0.1',
      '10.0.0.0/8',
      '2001:db8::/32',
      '2001:db8::1',
      '::ffff:192.168.0.0/112',
      ' 192.0.2.7 ',
    ];
    const ok = await me({ settings: { security: { ipAllowlist: list } } });
    expect(ok.status).toBe(200);
    const saved = [
      '127.0.0.1',
      '10.0.0.0/8',
      '2001:db8::/32',
      '2001:db8::1',
      '::ffff:192.168.0.0/112',
      '192.0.2.7',
    ];
    expect(ok.body.settings.security.ipAllowlist).toEqual(saved);
    expect((storedSettings().security as { ipAllowlist: string[] }).ipAllowlist).toEqual(saved);

    for (const entry of ['10.0.0.300', '10.0.0.0/33', '2001:db8::/129', 'office', '', '::ffff:10.0.0.0/8']) {
      const bad = await me({ settings: { security: { ipAllowlist: ['127.0.0.1', entry] } } });
      expect(bad.status, entry).toBe(400);
      expect(bad.body).toEqual({
        error: `Invalid IP allowlist entry: ${entry}`,
        code: 'INVALID_IP_ALLOWLIST_ENTRY',
        entry,
      });
    }
    // Omitting the list keeps it; other security keys are kept alongside.
    const kept = await me({ settings: { security: { approvalStepUp: { mode: 'enforce' } } } });
    expect(kept.body.settings.security).toEqual({ ipAllowlist: saved, approvalStepUp: { mode: 'enforce' } });
    const other = await me({ settings: { timeFormat: '24h' } });
    expect(other.body.settings.security.ipAllowlist).toEqual(saved);
    // An empty list clears it.
    const cleared = await me({ settings: { security: { ipAllowlist: [] } } });
    expect(cleared.body.settings.security.ipAllowlist).toEqual([]);
    const [entry] = (await auditOf(server, 'partner.settings.update', partnerId)).slice(-1);
    expect(entry!.details).toEqual({ changedFields: ['settings.security.ipAllowlist'] });
  });

  it("refuses an allowlist that does not contain the caller's own address", async () => {
    const res = await me({ settings: { security: { ipAllowlist: ['10.0.0.0/8'] } } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'IP_ALLOWLIST_EXCLUDES_CALLER', ipAddress: '127.0.0.1' });
    expect(res.body.error).toContain('127.0.0.1');
    // Behind the trusted proxy, the forwarded client address is the one that counts.
    const viaProxy = await me({ settings: { security: { ipAllowlist: ['127.0.0.1'] } } }, partnerAdmin, {
      'x-forwarded-for': '198.51.100.20',
    });
    expect(viaProxy.status).toBe(400);
    expect(viaProxy.body.ipAddress).toBe('198.51.100.20');
  });

  it('enforces the allowlist at login (401) and on every request (403); platform administrators are exempt', async () => {
    const inside = { 'x-forwarded-for': '203.0.113.9' };
    const outside = { 'x-forwarded-for': '198.51.100.7' };
    const set = await me(
      { settings: { security: { ipAllowlist: ['203.0.113.0/24', '2001:db8:77::/48'] } } },
      partnerAdmin,
      inside,
    );
    expect(set.status).toBe(200);

    const refused = await server.api.request('GET', '/orgs/partners/me', {
      token: partnerAdmin,
      headers: outside,
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error: 'Access from this IP address is not allowed',
      code: 'IP_NOT_ALLOWED',
    });
    // No forwarding header: the direct peer (127.0.0.1) is the client, and it is not listed.
    expect((await server.api.get('/orgs/partners/me', partnerAdmin)).body.code).toBe('IP_NOT_ALLOWED');
    const allowed = await server.api.request('GET', '/orgs/partners/me', {
      token: partnerAdmin,
      headers: inside,
    });
    expect(allowed.status).toBe(200);
    const allowedV6 = await server.api.request('GET', '/orgs/partners/me', {
      token: partnerAdmin,
      headers: { 'x-forwarded-for': '2001:db8:77::15' },
    });
    expect(allowedV6.status).toBe(200);

    const login = await server.api.request('POST', '/auth/login', {
      body: { email: 'owner@contoso.test', password: PASSWORD },
      headers: outside,
    });
    expect(login.status).toBe(401);
    expect(login.body.code).toBe('IP_NOT_ALLOWED');
    const loginInside = await server.api.request('POST', '/auth/login', {
      body: { email: 'owner@contoso.test', password: PASSWORD },
      headers: inside,
    });
    expect(loginInside.status).toBe(200);
    expect(loginInside.body.mfaRequired).toBe(true);

    // The platform administrator has no partner and is never subject to a partner's list.
    const platform = await server.api.request('GET', `/orgs/partners/${partnerId}`, {
      token: admin,
      headers: outside,
    });
    expect(platform.status).toBe(200);

    const cleared = await me({ settings: { security: { ipAllowlist: [] } } }, partnerAdmin, inside);
    expect(cleared.status).toBe(200);
    expect(
      (await server.api.request('GET', '/orgs/partners/me', { token: partnerAdmin, headers: outside }))
        .status,
    ).toBe(200);
  });

  it('applies the service management rules', async () => {
    const psa = randomUUID();
    const missing = await me({ serviceManagementMode: 'external' });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('PSA_CONNECTION_REQUIRED');
    const notUuid = await me({
      serviceManagementMode: 'external',
      serviceManagementPsaConnectionId: 'psa-1',
    });
    expect(notUuid.status).toBe(400);
    expect(notUuid.body.error).toMatch(/^serviceManagementPsaConnectionId: /);
    const withNative = await me({ serviceManagementMode: 'native', serviceManagementPsaConnectionId: psa });
    expect(withNative.status).toBe(400);
    expect(withNative.body).toEqual({
      error: 'serviceManagementPsaConnectionId must be null unless serviceManagementMode is external',
      code: 'PSA_CONNECTION_NOT_ALLOWED',
    });
    const external = await me({ serviceManagementMode: 'external', serviceManagementPsaConnectionId: psa });
    expect(external.status).toBe(200);
    expect(
      server.context.db
        .prepare(
          'SELECT service_management_mode, service_management_psa_connection_id FROM partners WHERE id = ?',
        )
        .get(partnerId),
    ).toEqual({ service_management_mode: 'external', service_management_psa_connection_id: psa });
    const off = await me({ serviceManagementMode: 'off', serviceManagementPsaConnectionId: null });
    expect(off.body).toMatchObject({ serviceManagementMode: 'off', serviceManagementPsaConnectionId: null });
    const badMode = await me({ serviceManagementMode: 'hybrid' });
    expect(badMode.status).toBe(400);
  });
});

describe('IP allowlist without trusted proxy parsing', () => {
  let server: TestServer;
  let partnerId: string;
  let token: string;

  beforeAll(async () => {
    server = await startServer();
    const p = insertPartner(server, { name: 'Untrusted' });
    partnerId = p.partnerId;
    await insertPartnerUser(server, partnerId, p.adminRoleId, 'admin@untrusted.test', { orgAccess: 'all' });
    token = await mfaToken(server, 'admin@untrusted.test', PASSWORD);
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('refuses to enable an allowlist (proxy_trust_required) but allows clearing it', async () => {
    const res = await patch(
      server,
      '/orgs/partners/me',
      { settings: { security: { ipAllowlist: ['127.0.0.1'] } } },
      token,
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'IP allowlist needs trusted proxy parsing (TRUST_PROXY_HEADERS and TRUSTED_PROXY_CIDRS)',
      code: 'proxy_trust_required',
    });
    const cleared = await patch(
      server,
      '/orgs/partners/me',
      { settings: { security: { ipAllowlist: [] } } },
      token,
    );
    expect(cleared.status).toBe(200);
  });

  it('denies a forwarded request it cannot trust (untrusted_ip) when an allowlist is set', async () => {
    server.context.db
      .prepare('UPDATE partners SET settings = ? WHERE id = ?')
      .run(JSON.stringify({ security: { ipAllowlist: ['127.0.0.1', '203.0.113.0/24'] } }), partnerId);
    const direct = await server.api.get('/orgs/partners/me', token);
    expect(direct.status).toBe(200);
    const forwarded = await server.api.request('GET', '/orgs/partners/me', {
      token,
      headers: { 'x-forwarded-for': '203.0.113.5' },
    });
    expect(forwarded.status).toBe(403);
    expect(forwarded.body).toEqual({ error: 'Client address cannot be trusted', code: 'untrusted_ip' });
    const realIp = await server.api.request('GET', '/orgs/partners/me', {
      token,
      headers: { 'x-real-ip': '203.0.113.5' },
    });
    expect(realIp.body.code).toBe('untrusted_ip');
  });
});

describe('organizations', () => {
  let server: TestServer;
  let admin: string;
  let p1: { partnerId: string; adminRoleId: string };
  let p2: string;
  let orgA: string;
  let orgB: string;
  let orgC: string;
  const tokens: Record<'all' | 'selected' | 'none' | 'org' | 'tech', string> = {
    all: '',
    selected: '',
    none: '',
    org: '',
    tech: '',
  };

  beforeAll(async () => {
    server = await startServer();
    admin = (await server.api.login()).body.accessToken;
    p1 = insertPartner(server, { name: 'Alpha MSP', slug: 'alpha' });
    p2 = insertPartner(server, { name: 'Beta MSP', slug: 'beta' }).partnerId;
    orgA = insertOrg(server, p1.partnerId, 'Aardvark Ltd');
    orgB = insertOrg(server, p1.partnerId, 'Badger plc');
    orgC = insertOrg(server, p2, 'Cheetah Inc');
    await insertPartnerUser(server, p1.partnerId, p1.adminRoleId, 'all@alpha.test', { orgAccess: 'all' });
    await insertPartnerUser(server, p1.partnerId, p1.adminRoleId, 'selected@alpha.test', {
      orgAccess: 'selected',
      orgIds: [orgA],
    });
    await insertPartnerUser(server, p1.partnerId, p1.adminRoleId, 'none@alpha.test', { orgAccess: 'none' });
    await insertPartnerUser(server, p1.partnerId, ROLES.partnerTechnician, 'tech@alpha.test', {
      orgAccess: 'all',
    });
    await insertOrgUser(server, orgA, ROLES.orgAdmin, 'admin@aardvark.test');
    tokens.all = await plainToken(server, 'all@alpha.test');
    tokens.selected = await plainToken(server, 'selected@alpha.test');
    tokens.none = await plainToken(server, 'none@alpha.test');
    tokens.tech = await plainToken(server, 'tech@alpha.test');
    tokens.org = await plainToken(server, 'admin@aardvark.test');
  });
  afterAll(async () => {
    await server.dispose();
  });

  const ids = (body: { data: Array<{ id: string }> }) => body.data.map((o) => o.id);

  it('GET /orgs/ lists the organizations in scope, ordered by name, for every kind of caller', async () => {
    const sys = await server.api.get('/orgs/', admin);
    expect(sys.status).toBe(200);
    expect(ids(sys.body)).toEqual([orgA, orgB, orgC]);
    expect(Object.keys(sys.body)).toEqual(['data']);
    expect(sys.body.data[0]).toMatchObject({
      id: orgA,
      partnerId: p1.partnerId,
      name: 'Aardvark Ltd',
      type: 'customer',
      status: 'active',
      settings: {},
      billingContact: {},
      deletedAt: null,
    });
    expect(ids((await server.api.get('/orgs', tokens.all)).body)).toEqual([orgA, orgB]);
    expect(ids((await server.api.get('/orgs/', tokens.selected)).body)).toEqual([orgA]);
    expect(ids((await server.api.get('/orgs/', tokens.none)).body)).toEqual([]);
    expect(ids((await server.api.get('/orgs/', tokens.org)).body)).toEqual([orgA]);

    const key = insertApiKey(server, orgB, ['organizations:read']);
    const viaKey = await withKey(server, 'GET', '/orgs/', key.key);
    expect(viaKey.status).toBe(200);
    expect(ids(viaKey.body)).toEqual([orgB]);
    const weakKey = insertApiKey(server, orgB, ['sites:read']);
    const refused = await withKey(server, 'GET', '/orgs/', weakKey.key);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'API key does not have required permissions' });
  });

  it('GET /orgs/organizations paginates, filters by partner and stays in scope', async () => {
    const page = await server.api.get(`/orgs/organizations?partnerId=${p1.partnerId}&limit=1&page=2`, admin);
    expect(page.status).toBe(200);
    expect(page.body.pagination).toEqual({ page: 2, limit: 1, total: 2 });
    expect(ids(page.body)).toEqual([orgB]);
    expect((await server.api.get('/orgs/organizations', admin)).body.pagination.total).toBe(3);
    expect(ids((await server.api.get('/orgs/organizations', tokens.all)).body)).toEqual([orgA, orgB]);
    expect(ids((await server.api.get('/orgs/organizations', tokens.selected)).body)).toEqual([orgA]);
    const none = await server.api.get('/orgs/organizations', tokens.none);
    expect(none.body).toEqual({ data: [], pagination: { page: 1, limit: 50, total: 0 } });
    const other = await server.api.get(`/orgs/organizations?partnerId=${p2}`, tokens.all);
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ error: 'Access denied to this partner' });
    const orgScope = await server.api.get('/orgs/organizations', tokens.org);
    expect(orgScope.status).toBe(403);
    expect(orgScope.body).toEqual({ error: 'Partner or system scope required' });
    const key = insertApiKey(server, orgA, ['*']);
    const keyRes = await withKey(server, 'GET', '/orgs/organizations', key.key);
    expect(keyRes.status).toBe(403);
    expect(keyRes.body).toEqual({ error: 'Partner or system scope required' });
  });

  it('GET /orgs/organizations/:id answers 404 outside the partner user’s access', async () => {
    expect((await server.api.get(`/orgs/organizations/${orgC}`, admin)).status).toBe(200);
    const a = await server.api.get(`/orgs/organizations/${orgA}`, tokens.selected);
    expect(a.status).toBe(200);
    expect(a.body.id).toBe(orgA);
    for (const [token, org] of [
      [tokens.selected, orgB],
      [tokens.none, orgA],
      [tokens.all, orgC],
      [admin, randomUUID()],
    ] as const) {
      const res = await server.api.get(`/orgs/organizations/${org}`, token);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Organization not found' });
    }
    const orgScope = await server.api.get(`/orgs/organizations/${orgA}`, tokens.org);
    expect(orgScope.status).toBe(403);
    expect(orgScope.body).toEqual({ error: 'Partner or system scope required' });
  });

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
    const userId = server.context.users.byEmail('all@alpha.test')!.id;
    const forged = await server.context.tokens.signAccess(
      userId,
      { scope: 'partner', partnerId: null, orgId: null, roleId: p1.adminRoleId, roleName: 'Partner Admin' },
      false,
      server.context.users.byId(userId)!.token_version,
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

describe('sites', () => {
  let server: TestServer;
  let admin: string;
  let partner: { partnerId: string; adminRoleId: string };
  let orgA: string;
  let orgB: string;
  let siteA: string;
  let siteB: string;
  let orgToken: string;
  let readOnly: string;
  let selected: string;

  beforeAll(async () => {
    server = await startServer();
    admin = (await server.api.login()).body.accessToken;
    partner = insertPartner(server, { name: 'Site MSP' });
    orgA = insertOrg(server, partner.partnerId, 'Org A');
    orgB = insertOrg(server, partner.partnerId, 'Org B');
    siteA = insertSite(server, orgA, 'A headquarters');
    siteB = insertSite(server, orgB, 'B warehouse');
    await insertOrgUser(server, orgA, ROLES.orgAdmin, 'admin@org-a.test');
    await insertOrgUser(server, orgA, ROLES.orgReadOnly, 'viewer@org-a.test');
    await insertPartnerUser(server, partner.partnerId, partner.adminRoleId, 'sel@site-msp.test', {
      orgAccess: 'selected',
      orgIds: [orgA],
    });
    orgToken = await plainToken(server, 'admin@org-a.test');
    readOnly = await plainToken(server, 'viewer@org-a.test');
    selected = await plainToken(server, 'sel@site-msp.test');
  });
  afterAll(async () => {
    await server.dispose();
  });

  const siteIds = (body: { data: Array<{ id: string }> }) => body.data.map((s) => s.id);

  it('creates a site with defaults and canonical time zone, and audits it', async () => {
    const res = await server.api.post(
      '/orgs/sites',
      {
        orgId: orgA,
        name: 'A branch',
        timezone: 'america/new_york',
        address: { city: 'Boston' },
        contact: { phone: '+1 555' },
        settings: { afterHours: true },
      },
      orgToken,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      orgId: orgA,
      name: 'A branch',
      timezone: 'America/New_York',
      address: { city: 'Boston' },
      contact: { phone: '+1 555' },
      settings: { afterHours: true },
    });
    const stored = server.context.db
      .prepare('SELECT org_id, timezone FROM sites WHERE id = ?')
      .get(res.body.id);
    expect(stored).toEqual({ org_id: orgA, timezone: 'America/New_York' });
    const plain = await server.api.post('/orgs/sites', { orgId: orgA, name: 'Plain' }, orgToken);
    expect(plain.body).toMatchObject({ timezone: 'UTC', address: {}, contact: {}, settings: {} });
    const [entry] = await auditOf(server, 'site.create', res.body.id);
    expect(entry).toMatchObject({ org_id: orgA, resource_type: 'site', actor_type: 'user' });
  });

  it('refuses bad site input and organizations outside the scope', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ name: 'No org' }, /^orgId: /],
      [{ orgId: orgA }, /^name: /],
      [{ orgId: orgA, name: '' }, /^name: /],
      [{ orgId: orgA, name: 'x'.repeat(256) }, /^name: /],
      [{ orgId: orgA, name: 'TZ', timezone: 'Nowhere/Special' }, /^timezone: unknown IANA time zone/],
      [
        {
          orgId: orgA,
          name: 'TZ',
          timezone: 'America/Argentina/ComodRivadavia/TooLongToBeStoredInFiftyChars',
        },
        /^timezone: /,
      ],
      [{ orgId: orgA, name: 'Addr', address: 'Main street' }, /^address: /],
    ];
    for (const [body, message] of cases) {
      const res = await server.api.post('/orgs/sites', body, orgToken);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
    const otherOrg = await server.api.post('/orgs/sites', { orgId: orgB, name: 'Sneaky' }, orgToken);
    expect(otherOrg.status).toBe(403);
    expect(otherOrg.body).toEqual({ error: 'Access to this organization denied' });
    const partnerOutside = await server.api.post('/orgs/sites', { orgId: orgB, name: 'Sneaky' }, selected);
    expect(partnerOutside.status).toBe(404);
    expect(partnerOutside.body).toEqual({ error: 'Organization not found' });
    const viewer = await server.api.post('/orgs/sites', { orgId: orgA, name: 'Viewer' }, readOnly);
    expect(viewer.status).toBe(403);
    expect(viewer.body.code).toBe('PERMISSION_DENIED');
  });

  it('lists sites in scope, by orgId or organizationId, with pagination', async () => {
    const sys = await server.api.get('/orgs/sites?limit=100', admin);
    expect(sys.status).toBe(200);
    expect(siteIds(sys.body)).toEqual(expect.arrayContaining([siteA, siteB]));
    const mine = await server.api.get('/orgs/sites', orgToken);
    expect(siteIds(mine.body)).toContain(siteA);
    expect(siteIds(mine.body)).not.toContain(siteB);
    const names = mine.body.data.map((s: { name: string }) => s.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(siteIds((await server.api.get(`/orgs/sites?orgId=${orgB}`, admin)).body)).toEqual([siteB]);
    expect(siteIds((await server.api.get(`/orgs/sites?organizationId=${orgB}`, admin)).body)).toEqual([
      siteB,
    ]);
    const paged = await server.api.get(`/orgs/sites?orgId=${orgA}&limit=1&page=1`, admin);
    expect(paged.body.data).toHaveLength(1);
    expect(paged.body.pagination).toEqual({ page: 1, limit: 1, total: mine.body.pagination.total });
    expect(siteIds((await server.api.get('/orgs/sites', selected)).body)).not.toContain(siteB);

    const orgOutside = await server.api.get(`/orgs/sites?orgId=${orgB}`, orgToken);
    expect(orgOutside.status).toBe(403);
    expect(orgOutside.body).toEqual({ error: 'Access to this organization denied' });
    const partnerOutside = await server.api.get(`/orgs/sites?organizationId=${orgB}`, selected);
    expect(partnerOutside.status).toBe(404);
    expect(partnerOutside.body).toEqual({ error: 'Organization not found' });
  });

  it('accepts API keys with the sites scopes', async () => {
    const key = insertApiKey(server, orgA, ['sites:read', 'sites:write', 'sites:delete']);
    const list = await withKey(server, 'GET', '/orgs/sites', key.key);
    expect(list.status).toBe(200);
    expect(siteIds(list.body)).toContain(siteA);
    expect(siteIds(list.body)).not.toContain(siteB);
    expect(list.headers.get('x-ratelimit-limit')).toBe('1000');
    const created = await withKey(server, 'POST', '/orgs/sites', key.key, { orgId: orgA, name: 'Via key' });
    expect(created.status).toBe(201);
    const [entry] = await auditOf(server, 'site.create', created.body.id);
    expect(entry).toMatchObject({ actor_type: 'api_key', actor_id: key.id, org_id: orgA });
    expect((await withKey(server, 'GET', `/orgs/sites/${siteB}`, key.key)).status).toBe(403);
    const removed = await withKey(server, 'DELETE', `/orgs/sites/${created.body.id}`, key.key);
    expect(removed.body).toEqual({ success: true });
    const readOnlyKey = insertApiKey(server, orgA, ['sites:read']);
    const refused = await withKey(server, 'POST', '/orgs/sites', readOnlyKey.key, {
      orgId: orgA,
      name: 'No',
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'API key does not have required permissions' });
  });

  it('reads one site: 403 outside the caller’s organizations, 404 when missing', async () => {
    const res = await server.api.get(`/orgs/sites/${siteA}`, orgToken);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: siteA, orgId: orgA, name: 'A headquarters', timezone: 'UTC' });
    for (const token of [orgToken, selected]) {
      const other = await server.api.get(`/orgs/sites/${siteB}`, token);
      expect(other.status).toBe(403);
      expect(other.body).toEqual({ error: 'Access to this site denied' });
    }
    const missing = await server.api.get(`/orgs/sites/${randomUUID()}`, admin);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Site not found' });
  });

  it('updates a site; orgId cannot change; 400 without fields', async () => {
    const site = insertSite(server, orgA, 'Renameable');
    const res = await patch(
      server,
      `/orgs/sites/${site}`,
      { name: 'Renamed', timezone: 'Europe/London', address: { city: 'Leeds' }, orgId: orgA },
      orgToken,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Renamed',
      timezone: 'Europe/London',
      address: { city: 'Leeds' },
    });
    const replaced = await patch(
      server,
      `/orgs/sites/${site}`,
      { address: { street: '1 Main St' } },
      orgToken,
    );
    expect(replaced.body.address).toEqual({ street: '1 Main St' });
    expect(server.context.db.prepare('SELECT name, address FROM sites WHERE id = ?').get(site)).toEqual({
      name: 'Renamed',
      address: JSON.stringify({ street: '1 Main St' }),
    });
    const [entry] = await auditOf(server, 'site.update', site);
    expect(entry).toMatchObject({ org_id: orgA });
    expect(entry!.details).toEqual({ changedFields: ['name', 'timezone', 'address'] });

    const move = await patch(server, `/orgs/sites/${site}`, { orgId: orgB }, admin);
    expect(move.status).toBe(400);
    expect(move.body).toEqual({ error: 'orgId cannot be changed', code: 'IMMUTABLE_FIELD' });
    for (const body of [{}, { orgId: orgA }]) {
      const none = await patch(server, `/orgs/sites/${site}`, body, orgToken);
      expect(none.status).toBe(400);
      expect(none.body).toEqual({ error: 'No updates provided' });
    }
    expect((await patch(server, `/orgs/sites/${siteB}`, { name: 'x' }, orgToken)).status).toBe(403);
    expect((await patch(server, `/orgs/sites/${site}`, { timezone: 'Moon/Base' }, orgToken)).status).toBe(
      400,
    );
  });

  it('deletes a site permanently', async () => {
    const site = insertSite(server, orgA, 'Temporary');
    expect((await del(server, `/orgs/sites/${site}`, readOnly)).status).toBe(403);
    expect((await del(server, `/orgs/sites/${siteB}`, orgToken)).status).toBe(403);
    const res = await del(server, `/orgs/sites/${site}`, orgToken);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(server.context.db.prepare('SELECT 1 FROM sites WHERE id = ?').get(site)).toBeUndefined();
    expect((await server.api.get(`/orgs/sites/${site}`, orgToken)).status).toBe(404);
    expect((await del(server, `/orgs/sites/${site}`, orgToken)).status).toBe(404);
    const [entry] = await auditOf(server, 'site.delete', site);
    expect(entry).toMatchObject({ org_id: orgA, resource_type: 'site' });
  });
});
