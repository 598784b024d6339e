import { describe, expect, it } from 'vitest';
import type { FilterCondition } from '../../server/contract/filters';
import {
  server,
  ids,
  tok,
  keyWrite,
  call,
  group,
  preview,
  expectError,
  live,
  windows,
  createFilter,
  auditFor,
  useFiltersSuite,
} from '../support/filters-suite';

// Saved filters (spec 2): the /filters CRUD and its audit trail.

useFiltersSuite();

describe('/filters CRUD', () => {
  it('creates a filter (201) in the named organization and audits filter.create', async () => {
    const res = await createFilter(
      { token: tok.system },
      {
        orgId: ids.a1,
        name: '  Windows servers  ',
        description: 'All Windows machines',
        conditions: group('AND', {
          field: 'osType',
          operator: 'equals',
          value: 'windows',
          junk: 1,
        } as FilterCondition),
      },
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      orgId: ids.a1,
      name: 'Windows servers',
      description: 'All Windows machines',
      conditions: windows,
      createdBy: ids.adminId,
      createdAt: expect.any(String),
      updatedAt: res.body.createdAt,
    });
    const stored = server.context.db
      .prepare('SELECT * FROM saved_filters WHERE id = ?')
      .get(res.body.id) as Record<string, unknown>;
    expect(JSON.parse(stored.conditions as string)).toEqual(windows);
    expect(await auditFor(res.body.id, 'filter.create')).toEqual([
      expect.objectContaining({
        org_id: ids.a1,
        actor_type: 'user',
        actor_id: ids.adminId,
        resource_type: 'filter',
        resource_name: 'Windows servers',
        details: { description: 'All Windows machines', fields: ['osType'] },
      }),
    ]);
  });

  it('requires orgId from partner and system callers and ignores it for organization scope', async () => {
    expectError(
      await createFilter({ token: tok.partnerAll }, {}),
      400,
      'orgId is required for partner scope',
    );
    expectError(await createFilter({ token: tok.system }, {}), 400, 'orgId is required for system scope');
    const own = await createFilter({ token: tok.orgAdmin }, { orgId: ids.b1 });
    expect(own.status).toBe(201);
    expect(own.body.orgId).toBe(ids.a1);
    const key = await createFilter({ key: keyWrite }, { orgId: ids.b1 });
    expect(key.status).toBe(201);
    expect(key.body.orgId).toBe(ids.a1);
  });

  it('validates the body and the conditions at save time', async () => {
    expectError(
      await createFilter({ token: tok.orgAdmin }, { name: ' ' }),
      400,
      'name: name must be 1-200 characters',
    );
    expectError(
      await createFilter({ token: tok.orgAdmin }, { name: 'x'.repeat(201) }),
      400,
      'name: name must be 1-200 characters',
    );
    expectError(
      await createFilter({ token: tok.orgAdmin }, { description: 'x'.repeat(1001) }),
      400,
      'description: description must be at most 1000 characters',
    );
    expectError(
      await createFilter(
        { token: tok.orgAdmin },
        { conditions: group('AND', { field: 'nope', operator: 'equals', value: 1 }) },
      ),
      400,
      'Unknown field: nope',
    );
    // custom.rackUnits is a number for A1 (its partner's definition): string operators are refused.
    expectError(
      await createFilter(
        { token: tok.orgAdmin },
        { conditions: group('AND', { field: 'custom.rackUnits', operator: 'contains', value: '1' }) },
      ),
      400,
      /^Operator contains is not supported for custom.rackUnits \(number\)/,
    );
    expectError(
      await createFilter({ token: tok.orgAdmin }, { conditions: 'x' }),
      400,
      'conditions: must be a condition group {operator, conditions}',
    );
  });

  it('gets, lists newest first with search, updates with changed field names, deletes', async () => {
    const first = await createFilter(
      { token: tok.orgAdmin },
      { name: 'Alpha laptops', description: 'Roaming fleet' },
    );
    const second = await createFilter({ token: tok.orgAdmin }, { name: 'Alpha 100% servers' });
    expect(first.status).toBe(201);
    const got = await call('GET', `/filters/${first.body.id}`, { token: tok.orgTech });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(first.body);

    const list = await call('GET', '/filters', { token: tok.orgAdmin });
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(list.body.data.length);
    const stamps = list.body.data.map((f: { createdAt: string }) => f.createdAt);
    expect(stamps).toEqual([...stamps].sort().reverse());
    expect(list.body.data[0].id).toBe(second.body.id);
    expect(list.body.data.every((f: { orgId: string }) => f.orgId === ids.a1)).toBe(true);

    const byDescription = await call('GET', '/filters?search=ROAMING', { token: tok.orgAdmin });
    expect(byDescription.body).toEqual({ data: [first.body], total: 1 });
    const literal = await call('GET', `/filters?search=${encodeURIComponent('100%')}`, {
      token: tok.orgAdmin,
    });
    expect(literal.body.data.map((f: { id: string }) => f.id)).toEqual([second.body.id]);

    const linux = group('OR', { field: 'osType', operator: 'equals', value: 'linux' });
    const patched = await call(
      'PATCH',
      `/filters/${first.body.id}`,
      { token: tok.orgTech },
      {
        name: 'Alpha laptops',
        description: null,
        conditions: linux,
      },
    );
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      id: first.body.id,
      name: 'Alpha laptops',
      description: null,
      conditions: linux,
    });
    expect(patched.body.updatedAt >= first.body.updatedAt).toBe(true);
    expect((await auditFor(first.body.id, 'filter.update')).map((r) => r.details)).toEqual([
      { changedFields: ['description', 'conditions'] },
    ]);
    expectError(
      await call('PATCH', `/filters/${first.body.id}`, { token: tok.orgTech }, {}),
      400,
      'No updates provided',
    );
    expectError(
      await call(
        'PATCH',
        `/filters/${first.body.id}`,
        { token: tok.orgTech },
        { conditions: group('AND', { field: 'x', operator: 'isNull' }) },
      ),
      400,
      'Unknown field: x',
    );

    const deleted = await call('DELETE', `/filters/${first.body.id}`, { token: tok.orgAdmin });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual(patched.body);
    expect(
      server.context.db.prepare('SELECT 1 FROM saved_filters WHERE id = ?').get(first.body.id),
    ).toBeUndefined();
    expect(await auditFor(first.body.id, 'filter.delete')).toHaveLength(1);
    expectError(
      await call('GET', `/filters/${first.body.id}`, { token: tok.orgAdmin }),
      404,
      'Filter not found',
    );
    expectError(
      await call('DELETE', `/filters/${first.body.id}`, { token: tok.orgAdmin }),
      404,
      'Filter not found',
    );
    expectError(await call('GET', '/filters/not-a-uuid', { token: tok.orgAdmin }), 404, 'Filter not found');
  });

  it('previews a saved filter over all accessible organizations and audits filter.saved.preview', async () => {
    const saved = await createFilter(
      { token: tok.system },
      {
        orgId: ids.a2,
        name: 'Linux',
        conditions: group('AND', { field: 'osType', operator: 'equals', value: 'linux' }),
      },
    );
    const res = await call('POST', `/filters/${saved.body.id}/preview?limit=2`, { token: tok.partnerAll });
    expect(res.status).toBe(200);
    const p1Linux = live().filter((d) => d.osType === 'linux' && d.orgId !== ids.b1);
    expect(res.body.data.totalCount).toBe(p1Linux.length);
    expect(res.body.data.devices).toHaveLength(2);
    expect(res.body.data.devices.every((d: { osType: string }) => d.osType === 'linux')).toBe(true);
    const asSystem = await call('POST', `/filters/${saved.body.id}/preview`, { token: tok.system });
    expect(asSystem.body.data.totalCount).toBe(live().filter((d) => d.osType === 'linux').length);
    expect(asSystem.body.data.devices).toHaveLength(10);
    expectError(
      await call('POST', `/filters/${saved.body.id}/preview?limit=0`, { token: tok.system }),
      400,
      'limit: limit must be an integer between 1 and 100',
    );
    expectError(
      await call('POST', `/filters/${saved.body.id}/preview?limit=abc`, { token: tok.system }),
      400,
      'limit: limit must be an integer between 1 and 100',
    );
    expect(await auditFor(saved.body.id, 'filter.saved.preview')).toEqual([
      expect.objectContaining({
        org_id: ids.a2,
        actor_type: 'user',
        details: { limit: 2, totalCount: p1Linux.length },
      }),
      expect.objectContaining({
        org_id: ids.a2,
        details: { limit: 10, totalCount: asSystem.body.data.totalCount },
      }),
    ]);
  });

  it('audits ad-hoc previews as filter.preview in the caller’s chain', async () => {
    const before = (await auditFor(null, 'filter.preview')).length;
    const res = await preview(windows, { token: tok.orgTech }, 5);
    const rows = await auditFor(null, 'filter.preview');
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({
      org_id: ids.a1,
      actor_type: 'user',
      resource_type: 'filter',
      details: { fields: ['osType'], limit: 5, totalCount: res.body.data.totalCount },
    });
    await preview(windows, { token: tok.partnerAll }, 5);
    expect((await auditFor(null, 'filter.preview')).at(-1)).toMatchObject({
      org_id: null,
      partner_id: ids.p1,
    });
  });
});

// ---- scope and permissions ----------------------------------------------------------------------------------------
