import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  insertOrg,
  insertOrgUser,
  insertPartner,
  insertPartnerUser,
  mfaToken,
  PASSWORD,
  plainToken,
  ROLES,
} from '../support/seed';
import { startServer, type TestServer } from '../support/server';
import { TRUSTED_PROXY_ENV, auditOf, patch, resetRateLimits } from '../support/tenancy';

// /orgs over real HTTP in partner scope: the partner's own record and settings, the IP allowlist with trusted
// proxy parsing, and the audit entry of every write.

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
