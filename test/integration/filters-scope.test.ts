import { beforeAll, describe, expect, it } from 'vitest';
import { insertOrgUser, mfaToken, PASSWORD, ROLES } from '../support/seed';
import {
  server,
  ids,
  tok,
  fleet,
  readOnly,
  keyRead,
  keyWrite,
  type Caller,
  call,
  group,
  preview,
  expectError,
  sorted,
  live,
  windows,
  createFilter,
  auditFor,
  useFiltersSuite,
} from '../support/filters-suite';

// Saved filters (spec 2): the scope matrix, who may list, read, change and preview which organization's filters
// (users, read-only users, API keys by scope).

useFiltersSuite();

describe('/filters scope isolation', () => {
  let inA1: string;
  let inA2: string;
  let inB1: string;

  beforeAll(async () => {
    inA1 = (await createFilter({ token: tok.system }, { orgId: ids.a1, name: 'scope A1' })).body.id;
    inA2 = (await createFilter({ token: tok.system }, { orgId: ids.a2, name: 'scope A2' })).body.id;
    inB1 = (await createFilter({ token: tok.system }, { orgId: ids.b1, name: 'scope B1' })).body.id;
  });

  const visible = async (caller: Caller) => {
    const res = await call('GET', '/filters?search=scope', caller);
    expect(res.status).toBe(200);
    return sorted(res.body.data.map((f: { id: string }) => f.id));
  };

  it('lists and gets only filters of accessible organizations', async () => {
    expect(await visible({ token: tok.system })).toEqual(sorted([inA1, inA2, inB1]));
    expect(await visible({ token: tok.partnerAll })).toEqual(sorted([inA1, inA2]));
    expect(await visible({ token: tok.partnerSelected })).toEqual([inA1]);
    expect(await visible({ token: tok.partnerNone })).toEqual([]);
    expect(await visible({ token: tok.orgAdmin })).toEqual([inA1]);
    expect(await visible({ token: tok.orgAdminB })).toEqual([inB1]);
    expect(await visible({ key: keyRead })).toEqual([inA1]);
    for (const [caller, id] of [
      [{ token: tok.partnerSelected }, inA2],
      [{ token: tok.partnerAll }, inB1],
      [{ token: tok.orgAdmin }, inB1],
      [{ key: keyWrite }, inA2],
    ] as Array<[Caller, string]>) {
      expectError(await call('GET', `/filters/${id}`, caller), 404, 'Filter not found');
      expectError(await call('PATCH', `/filters/${id}`, caller, { name: 'mine' }), 404, 'Filter not found');
      expectError(await call('POST', `/filters/${id}/preview`, caller), 404, 'Filter not found');
    }
    expect((await call('GET', `/filters/${inA2}`, { token: tok.partnerAll })).status).toBe(200);
  });

  it('creates only in accessible organizations: 404 for partner scope, ignored for organization scope', async () => {
    expectError(
      await createFilter({ token: tok.partnerSelected }, { orgId: ids.a2 }),
      404,
      'Organization not found',
    );
    expectError(
      await createFilter({ token: tok.partnerAll }, { orgId: ids.b1 }),
      404,
      'Organization not found',
    );
    expectError(
      await createFilter({ token: tok.partnerNone }, { orgId: ids.a1 }),
      404,
      'Organization not found',
    );
    expectError(
      await createFilter({ token: tok.partnerAll }, { orgId: 'nope' }),
      404,
      'Organization not found',
    );
    const ok = await createFilter({ token: tok.partnerSelected }, { orgId: ids.a1 });
    expect(ok.status).toBe(201);
  });

  it('needs devices:read to read, devices:write plus MFA to write', async () => {
    // Partner admins of P1 hold *:*; the read-only A1 user and the read-only key may read but not write.
    expect((await call('GET', '/filters', { token: readOnly })).status).toBe(200);
    expect((await preview(windows, { token: readOnly })).status).toBe(200);
    expectError(await createFilter({ token: readOnly }, {}), 403, 'Insufficient permissions');
    expectError(
      await call('DELETE', `/filters/${inA1}`, { token: readOnly }),
      403,
      'Insufficient permissions',
    );
    expectError(await createFilter({ key: keyRead }, {}), 403, 'API key does not have required permissions');
    expectError(await createFilter({ token: tok.noMfa }, {}), 403, 'MFA required', 'MFA_REQUIRED');
    expectError(
      await call('PATCH', `/filters/${inA1}`, { token: tok.noMfa }, { name: 'x' }),
      403,
      'MFA required',
    );
    expect((await call('GET', `/filters/${inA1}`, { token: tok.noMfa })).status).toBe(200);
    // API keys have no MFA and are trusted by their scopes.
    const viaKey = await call(
      'PATCH',
      `/filters/${inA1}`,
      { key: keyWrite },
      { description: 'edited by key' },
    );
    expect(viaKey.status).toBe(200);
    expect((await auditFor(inA1, 'filter.update')).at(-1)).toMatchObject({
      actor_type: 'api_key',
      details: { changedFields: ['description'] },
    });
    expectError(await server.api.request('GET', '/filters'), 401, 'Authentication required');
  });

  it('previews count only the devices the caller can see', async () => {
    const all = group('AND', { field: 'hostname', operator: 'isNotNull' });
    const count = async (caller: Caller) => (await preview(all, caller)).body.data.totalCount;
    const inOrgs = (...orgIds: string[]) => live().filter((d) => orgIds.includes(d.orgId)).length;
    expect(await count({ token: tok.system })).toBe(live().length);
    expect(await count({ token: tok.partnerAll })).toBe(inOrgs(ids.a1, ids.a2));
    expect(await count({ token: tok.partnerSelected })).toBe(inOrgs(ids.a1));
    expect(await count({ token: tok.partnerNone })).toBe(0);
    expect(await count({ token: tok.orgTech })).toBe(inOrgs(ids.a1));
    expect(await count({ key: keyRead })).toBe(inOrgs(ids.a1));
    expect(await count({ token: tok.orgAdminB })).toBe(inOrgs(ids.b1));
    // Naming another organization's id in the conditions finds nothing outside the caller's scope.
    expect(
      (
        await preview(group('AND', { field: 'orgId', operator: 'equals', value: ids.b1 }), {
          token: tok.orgTech,
        })
      ).body.data.totalCount,
    ).toBe(0);
  });

  it('narrows previews to the sites of a site-restricted organization user', async () => {
    const site = fleet.sites.find((s) => s.orgId === ids.a1)!;
    const userId = await insertOrgUser(server, ids.a1, ROLES.orgTechnician, 'site@a1.test');
    server.context.db
      .prepare('UPDATE organization_users SET site_ids = ? WHERE org_id = ? AND user_id = ?')
      .run(JSON.stringify([site.id]), ids.a1, userId);
    const token = await mfaToken(server, 'site@a1.test', PASSWORD);
    const res = await preview(group('AND', { field: 'hostname', operator: 'isNotNull' }), { token });
    const expected = live().filter((d) => d.siteId === site.id);
    expect(res.body.data.totalCount).toBe(expected.length);
    expect(sorted(res.body.data.devices.map((d) => d.id))).toEqual(sorted(expected.map((d) => d.id)));
  });
});
