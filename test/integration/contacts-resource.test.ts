import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  insertApiKey,
  insertOrgUser,
  insertSite,
  restrictOrgUser,
  ROLES,
  signedToken,
} from '../support/seed';
import { auditOf, patch, withKey } from '../support/tenancy';
import { aardvark, badger, betaAardvark, server, tokens, useImportWorld } from '../support/import-world';

// The contact resource over real HTTP: list under an organization, read, PATCH where an explicit null clears,
// and tenant isolation (another partner, another organization, an API key of another organization).

useImportWorld();

function insertContact(orgId: string, fields: Record<string, unknown>): string {
  const id = randomUUID();
  const at = new Date().toISOString();
  server.context.db
    .prepare(
      `INSERT INTO contacts (id, org_id, site_id, name, email, phone, mobile, title, roles, created_at, updated_at)
       VALUES (@id, @org_id, @site_id, @name, @email, @phone, @mobile, @title, @roles, @at, @at)`,
    )
    .run({
      id,
      org_id: orgId,
      site_id: null,
      name: null,
      email: null,
      phone: null,
      mobile: null,
      title: null,
      roles: '[]',
      at,
      ...fields,
    });
  return id;
}

describe('contacts', () => {
  it('lists an organization’s contacts by name, narrows to a site, and reads one with its links', async () => {
    const site = insertSite(server, aardvark, 'Depot');
    const zed = insertContact(aardvark, { name: 'Zed Zulu', email: 'zed@a.test', roles: '["billing"]' });
    const amy = insertContact(aardvark, { name: 'Amy Alpha', site_id: site });
    server.context.db
      .prepare(
        "INSERT INTO contact_external_links (org_id, contact_id, external_system, external_id, created_at) VALUES (?, ?, 'psa', 'C-1', ?)",
      )
      .run(aardvark, zed, new Date().toISOString());
    const list = await server.api.get(`/orgs/organizations/${aardvark}/contacts`, tokens.admin);
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([amy, zed]);
    expect(list.body.pagination).toMatchObject({ page: 1, total: 2 });
    const narrowed = await server.api.get(
      `/orgs/organizations/${aardvark}/contacts?siteId=${site}`,
      tokens.admin,
    );
    expect(narrowed.body.data.map((c: { id: string }) => c.id)).toEqual([amy]);
    const one = await server.api.get(`/orgs/contacts/${zed}`, tokens.admin);
    expect(one.body).toMatchObject({
      id: zed,
      orgId: aardvark,
      siteId: null,
      roles: ['billing'],
      externalLinks: [{ externalSystem: 'psa', externalId: 'C-1' }],
    });
  });

  it('PATCH leaves absent fields, clears explicit nulls, replaces roles, and audits', async () => {
    const id = insertContact(aardvark, {
      name: 'Pat',
      email: 'pat@a.test',
      phone: '+1 555',
      roles: '["admin"]',
    });
    const res = await patch(
      server,
      `/orgs/contacts/${id}`,
      { phone: null, title: 'CFO', roles: ['billing', 'billing'] },
      tokens.admin,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Pat',
      email: 'pat@a.test',
      phone: null,
      title: 'CFO',
      roles: ['billing'],
    });
    const cleared = await patch(server, `/orgs/contacts/${id}`, { roles: null }, tokens.admin);
    expect(cleared.body.roles).toEqual([]);
    const audit = await auditOf(server, 'contact.update', id);
    expect(audit.map((a) => a.details.changedFields)).toEqual([['phone', 'title', 'roles'], ['roles']]);
  });

  it('refuses to clear the last identifier, a foreign site, unknown roles and an empty body', async () => {
    const id = insertContact(aardvark, { email: 'only@a.test' });
    const last = await patch(server, `/orgs/contacts/${id}`, { email: null }, tokens.admin);
    expect(last.status).toBe(400);
    expect(last.body.error).toBe('A contact needs at least one of name, email, phone or mobile');
    const foreignSite = insertSite(server, badger, 'Badger yard');
    const site = await patch(server, `/orgs/contacts/${id}`, { siteId: foreignSite }, tokens.admin);
    expect(site.status).toBe(400);
    expect(site.body.error).toBe('Site does not belong to this organization');
    expect((await patch(server, `/orgs/contacts/${id}`, { roles: ['boss'] }, tokens.admin)).status).toBe(400);
    expect((await patch(server, `/orgs/contacts/${id}`, {}, tokens.admin)).body.error).toBe(
      'No updates provided',
    );
  });

  it('keeps contacts inside their tenant', async () => {
    const own = insertContact(aardvark, { name: 'Own' });
    const theirs = insertContact(betaAardvark, { name: 'Theirs' });
    // Another partner: 404 for the contact, and for the organization's list.
    expect((await server.api.get(`/orgs/contacts/${own}`, tokens.betaAdmin)).status).toBe(404);
    expect((await patch(server, `/orgs/contacts/${own}`, { name: 'Hacked' }, tokens.betaAdmin)).status).toBe(
      404,
    );
    expect((await server.api.get(`/orgs/organizations/${aardvark}/contacts`, tokens.betaAdmin)).status).toBe(
      404,
    );
    expect((await server.api.get(`/orgs/contacts/${theirs}`, tokens.admin)).status).toBe(404);
    // An organization user of Badger sees nothing of Aardvark; a user of Aardvark sees its contacts.
    await insertOrgUser(server, badger, ROLES.orgAdmin, 'admin@badger.test');
    await insertOrgUser(server, aardvark, ROLES.orgReadOnly, 'viewer@aardvark.test');
    const badgerUser = await signedToken(server, 'admin@badger.test');
    const viewer = await signedToken(server, 'viewer@aardvark.test');
    expect((await server.api.get(`/orgs/contacts/${own}`, badgerUser)).status).toBe(404);
    expect((await server.api.get(`/orgs/organizations/${aardvark}/contacts`, badgerUser)).status).toBe(403);
    expect((await server.api.get(`/orgs/contacts/${own}`, viewer)).status).toBe(200);
    expect((await patch(server, `/orgs/contacts/${own}`, { name: 'No' }, viewer)).status).toBe(403);
    // API keys: their own organization only.
    const key = insertApiKey(server, badger).key;
    expect((await withKey(server, 'GET', `/orgs/contacts/${own}`, key)).status).toBe(404);
    const ownKey = insertApiKey(server, aardvark).key;
    expect((await withKey(server, 'GET', `/orgs/contacts/${own}`, ownKey)).status).toBe(200);
    const name = server.context.db.prepare('SELECT name FROM contacts WHERE id = ?').get(own) as {
      name: string;
    };
    expect(name.name).toBe('Own');
  });

  it('limits a user restricted to some sites to organization-level contacts and those sites', async () => {
    const mine = insertSite(server, aardvark, 'Mine');
    const other = insertSite(server, aardvark, 'Not mine');
    const orgLevel = insertContact(aardvark, { name: 'Org level' });
    const atMine = insertContact(aardvark, { name: 'At mine', site_id: mine });
    const atOther = insertContact(aardvark, { name: 'At other', site_id: other });
    const userId = await insertOrgUser(server, aardvark, ROLES.orgAdmin, 'limited@aardvark.test');
    restrictOrgUser(server, userId, { siteIds: [mine] });
    const limited = await signedToken(server, 'limited@aardvark.test');
    const list = await server.api.get(`/orgs/organizations/${aardvark}/contacts?limit=500`, limited);
    const ids = list.body.data.map((c: { id: string }) => c.id);
    expect(ids).toEqual(expect.arrayContaining([orgLevel, atMine]));
    expect(ids).not.toContain(atOther);
    expect((await server.api.get(`/orgs/contacts/${atOther}`, limited)).status).toBe(404);
    expect((await patch(server, `/orgs/contacts/${atMine}`, { siteId: other }, limited)).status).toBe(403);
    expect((await patch(server, `/orgs/contacts/${atMine}`, { title: 'Lead' }, limited)).status).toBe(200);
  });
});
