import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertOrg,
  insertOrgUser,
  insertPartner,
  insertPartnerUser,
  insertSite,
  plainToken,
  ROLES,
  insertApiKey,
} from '../support/seed';
import { startServer, type TestServer } from '../support/server';
import { auditOf, patch, del, withKey } from '../support/tenancy';

// /orgs/sites over real HTTP: create, list, read, update and delete sites in scope, and the audit entry of every
// write.

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
