import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { insertApiKey } from '../support/seed';
import { withKey } from '../support/tenancy';
import {
  server,
  admin,
  p1,
  p2,
  orgA,
  orgB,
  orgC,
  tokens,
  ids,
  useOrganizationsWorld,
} from '../support/tenancy-orgs-world';

// /orgs/organizations over real HTTP, reading: the list, paging and filters, and scope for every kind of caller.

useOrganizationsWorld();

describe('organizations', () => {
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
});
