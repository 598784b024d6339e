import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type {} from '../../server/events/bus';
import { insertOrg, lastAudit } from '../support/seed';
import { auditSettled } from '../support/server';
import {
  type Caller,
  server,
  ids,
  dev,
  insertDevice,
  call,
  get,
  expectError,
  useDevicesWorld,
} from '../support/devices-world';

// /groups and /tags: device groups, their members and the tag catalog.

useDevicesWorld();

// ---- groups -----------------------------------------------------------------------------------------------------

describe('groups', () => {
  it('creates, reads, renames and deletes groups in scope, with audit entries', async () => {
    const created = await call('orgAdmin', 'POST', '/groups', { name: '  Servers  ', description: 'Rack A' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      orgId: ids.a1,
      siteId: null,
      name: 'Servers',
      description: 'Rack A',
      deviceCount: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const gid = created.body.id as string;
    expect((await get('keyA1Read', `/groups/${gid}`)).body.name).toBe('Servers');
    expectError(await get('keyB1', `/groups/${gid}`), 404, 'Device group not found');
    expectError(await get('partnerNone', `/groups/${gid}`), 404, 'Device group not found');
    expect((await get('partnerSelected', `/groups/${gid}`)).status).toBe(200);

    const renamed = await call('orgTech', 'PATCH', `/groups/${gid}`, {
      name: 'Rack servers',
      siteId: ids.s1,
    });
    expect(renamed.body).toMatchObject({ name: 'Rack servers', siteId: ids.s1, description: 'Rack A' });
    expectError(await call('orgTech', 'PATCH', `/groups/${gid}`, {}), 400, 'No updates provided');
    expectError(
      await call('orgTech', 'PATCH', `/groups/${gid}`, { siteId: ids.sb }),
      400,
      "siteId must be a site of the group's organization",
    );
    expectError(
      await call('orgReadOnly', 'PATCH', `/groups/${gid}`, { name: 'x' }),
      403,
      'Insufficient permissions',
    );
    expectError(await call('keyB1', 'PATCH', `/groups/${gid}`, { name: 'x' }), 404, 'Device group not found');

    const list = await get('orgAdmin', '/groups?search=rack');
    expect(list.body.data.map((g: { id: string }) => g.id)).toEqual([gid]);
    expect(list.body.pagination).toEqual({ page: 1, limit: 100, total: 1 });
    expect((await get('keyB1', '/groups?search=rack')).body.data).toEqual([]);

    const deleted = await call('orgAdmin', 'DELETE', `/groups/${gid}`);
    expect(deleted.body).toMatchObject({ id: gid, name: 'Rack servers' });
    expectError(await get('orgAdmin', `/groups/${gid}`), 404, 'Device group not found');
    await auditSettled(server);
    for (const action of ['device_group.create', 'device_group.update', 'device_group.delete']) {
      expect(lastAudit(server, action, gid)?.org_id).toBe(ids.a1);
    }
    expect(JSON.parse(lastAudit(server, 'device_group.update', gid)!.details)).toEqual({
      changedFields: ['name', 'siteId'],
    });
  });

  it('needs orgId from partner and system callers and keeps it inside their scope', async () => {
    expectError(
      await call('partnerAll', 'POST', '/groups', { name: 'G' }),
      400,
      'orgId is required for partner scope',
    );
    expectError(
      await call('system', 'POST', '/groups', { name: 'G' }),
      400,
      'orgId is required for system scope',
    );
    expectError(
      await call('partnerSelected', 'POST', '/groups', { orgId: ids.a2, name: 'G' }),
      404,
      'Organization not found',
    );
    expectError(
      await call('orgAdmin', 'POST', '/groups', { orgId: ids.b1, name: 'G' }),
      403,
      'Access to this organization denied',
    );
    expectError(await call('noMfa', 'POST', '/groups', { name: 'G' }), 403, 'MFA required');
    expectError(
      await call('orgAdmin', 'POST', '/groups', { name: 'G', siteId: ids.sb }),
      400,
      "siteId must be a site of the group's organization",
    );
    expect((await call('keyA1', 'POST', '/groups', { name: 'From key' })).body.orgId).toBe(ids.a1);
    expect((await call('partnerAll', 'POST', '/groups', { orgId: ids.a2, name: 'A2 group' })).status).toBe(
      201,
    );
  });

  it('adds and removes members of the same organization only; counts what the caller sees', async () => {
    const g = (await call('orgAdmin', 'POST', '/groups', { name: 'Members' })).body;
    const m1 = insertDevice(ids.a1, { siteId: ids.s1, hostname: 'member-1' });
    const m2 = insertDevice(ids.a1, { siteId: ids.s2, hostname: 'member-2' });
    const gone = insertDevice(ids.a1, { status: 'decommissioned' });
    const add = (body: unknown, caller: Caller = 'orgAdmin') =>
      call(caller, 'POST', `/groups/${g.id}/devices`, body);

    const bad = await add({ deviceIds: [m1, dev.b1, dev.a2, gone, randomUUID()] });
    expectError(bad, 400, "deviceIds must be devices of the group's organization", 'INVALID_DEVICES');
    expect(bad.body.invalidDeviceIds).toEqual([dev.b1, dev.a2, gone, expect.any(String)]);
    expect((await get('orgAdmin', `/groups/${g.id}`)).body.deviceCount).toBe(0);
    expectError(await add({ deviceIds: [] }), 400, 'deviceIds: deviceIds must not be empty');
    expectError(await add({ deviceIds: ['x'] }), 400, 'deviceIds.0: deviceIds must be a UUID');

    const added = await add({ deviceIds: [m1, m2, m1] });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ added: 2, group: { id: g.id, deviceCount: 2 } });
    expect((await add({ deviceIds: [m1] })).body.added).toBe(0);

    // The site-restricted technician sees the organization-wide group, counts only their site's member, and may
    // not change it.
    expect((await get('siteTech', `/groups/${g.id}`)).body.deviceCount).toBe(1);
    const theirs = await get('siteTech', `/groups/${g.id}/devices`);
    expect(theirs.body.data.map((x: { id: string }) => x.id)).toEqual([m1]);
    expectError(await add({ deviceIds: [m1] }, 'siteTech'), 403, 'Access to this site denied');
    expectError(await call('siteTech', 'DELETE', `/groups/${g.id}`), 403, 'Access to this site denied');
    const own = await call('siteTech', 'POST', '/groups', { name: 'Site one', siteId: ids.s1 });
    expect(own.status).toBe(201);
    expectError(
      await call('siteTech', 'POST', '/groups', { name: 'Org wide' }),
      403,
      'Access to this site denied',
    );
    expectError(
      await call('siteTech', 'POST', '/groups', { name: 'Site two', siteId: ids.s2 }),
      403,
      'Access to this site denied',
    );
    // A device outside their sites is as invalid to them as another organization's.
    expectError(
      await call('siteTech', 'POST', `/groups/${own.body.id}/devices`, { deviceIds: [m2] }),
      400,
      "deviceIds must be devices of the group's organization",
    );

    const all = await get('orgAdmin', `/groups/${g.id}/devices?sort=hostname&order=desc`);
    expect(all.body.data.map((x: { hostname: string }) => x.hostname)).toEqual(['member-2', 'member-1']);
    expectError(await get('keyB1', `/groups/${g.id}/devices`), 404, 'Device group not found');

    const removed = await call('orgTech', 'DELETE', `/groups/${g.id}/devices/${m2}`);
    expect(removed.body).toMatchObject({ id: g.id, deviceCount: 1 });
    expectError(
      await call('orgTech', 'DELETE', `/groups/${g.id}/devices/${m2}`),
      404,
      'Device is not a member of this group',
    );
    await auditSettled(server);
    expect(JSON.parse(lastAudit(server, 'device_group.members.add', g.id)!.details)).toEqual({
      deviceIds: [],
      requested: 1,
    });
    expect(JSON.parse(lastAudit(server, 'device_group.members.remove', g.id)!.details)).toEqual({
      deviceIds: [m2],
    });
  });

  it('GET /tags lists tags with counts; GET /tags/devices needs a tag', async () => {
    const org = insertOrg(server, ids.p2, 'Tag Co');
    insertDevice(org, { tags: ['web', 'prod'] });
    insertDevice(org, { tags: ['web'] });
    insertDevice(org, { tags: ['web'], status: 'decommissioned' });
    const res = await get('system', `/tags?orgId=${org}`);
    expect(res.body).toEqual({
      data: [
        { tag: 'prod', deviceCount: 1 },
        { tag: 'web', deviceCount: 2 },
      ],
    });
    expect((await get('system', `/tags?orgId=${org}&search=PRO`)).body.data).toEqual([
      { tag: 'prod', deviceCount: 1 },
    ]);
    expectError(await get('system', '/tags/devices'), 400, 'tag: tag is required');
    const devices = await get('system', `/tags/devices?tag=web&orgId=${org}`);
    expect(devices.body.pagination.total).toBe(2);
  });
});
