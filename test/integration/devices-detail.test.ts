import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type {} from '../../server/events/bus';
import { lastAudit } from '../support/seed';
import { auditSettled } from '../support/server';
import {
  type Caller,
  server,
  ids,
  iso,
  insertDevice,
  deviceRow,
  call,
  get,
  expectError,
  collect,
  useDevicesWorld,
} from '../support/devices-world';

// GET and PATCH /devices/:id: the device detail and what an edit may change.

useDevicesWorld();

// ---- detail and edit --------------------------------------------------------------------------------------------

describe('GET and PATCH /devices/:id', () => {
  it('returns the detail with organization, site, groups, posture, custom fields and connection', async () => {
    const id = insertDevice(ids.a1, {
      siteId: ids.s1,
      hostname: 'detail-1',
      tags: ['b', 'a'],
      customFields: { assetTag: 'X-1' },
    });
    server.context.db
      .prepare(
        `UPDATE devices SET management_posture = ?, posture_reported_at = ?, hw_manufacturer = 'Dell Inc.',
         hw_cpu_cores = 8, net_ip_address = '10.0.0.5', reboot_required = 1, is_headless = 0 WHERE id = ?`,
      )
      .run(JSON.stringify([{ product: 'TeamViewer', status: 'running' }]), iso(0), id);
    const group = await call('orgAdmin', 'POST', '/groups', { name: 'Detail group' });
    await call('orgAdmin', 'POST', `/groups/${group.body.id}/devices`, { deviceIds: [id] });
    const res = await get('orgAdmin', `/devices/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id,
      orgId: ids.a1,
      orgName: 'Alpha One',
      siteId: ids.s1,
      siteName: 'Alpha HQ',
      hostname: 'detail-1',
      tags: ['a', 'b'],
      groupIds: [group.body.id],
      customFields: { assetTag: 'X-1' },
      managementPosture: [{ product: 'TeamViewer', status: 'running' }],
      postureReportedAt: iso(0),
      hardware: { manufacturer: 'Dell Inc.', cpuCores: 8, model: null },
      network: { ipAddress: '10.0.0.5', publicIp: null, macAddress: null },
      rebootRequired: true,
      isHeadless: false,
      autoUpdate: true,
      connected: false,
      decommissionedAt: null,
    });
    expectError(await get('orgAdmin', '/devices/not-a-uuid'), 404, 'Device not found');
  });

  it('edits displayName, tags (replaced), site, role, autoUpdate and custom fields; audits and announces', async () => {
    const id = insertDevice(ids.a1, {
      siteId: ids.s1,
      hostname: 'edit-1',
      tags: ['old'],
      customFields: { keep: 1, drop: 'x' },
    });
    const events = collect('device.updated');
    const res = await call('orgAdmin', 'PATCH', `/devices/${id}`, {
      displayName: '  Front desk  ',
      tags: ['new', 'new', 'second'],
      siteId: ids.s2,
      deviceRole: 'server',
      autoUpdate: false,
      customFields: { drop: null, owner: 'Ann', location: 'Lobby', nothing: true },
      bogus: 'dropped',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      displayName: 'Front desk',
      tags: ['new', 'second'],
      siteId: ids.s2,
      siteName: 'Alpha Branch',
      deviceRole: 'server',
      autoUpdate: false,
      customFields: { keep: 1, owner: 'Ann', location: 'Lobby', nothing: true },
    });
    const row = deviceRow(id);
    expect(row).toMatchObject({
      display_name: 'Front desk',
      site_id: ids.s2,
      device_role: 'server',
      auto_update: 0,
    });
    expect(JSON.parse(row.custom_fields as string)).toEqual({
      keep: 1,
      owner: 'Ann',
      location: 'Lobby',
      nothing: true,
    });
    expect(
      server.context.db.prepare('SELECT tag FROM device_tags WHERE device_id = ? ORDER BY tag').all(id),
    ).toEqual([{ tag: 'new' }, { tag: 'second' }]);
    await auditSettled(server);
    const entry = lastAudit(server, 'device.update', id)!;
    expect(entry.org_id).toBe(ids.a1);
    expect(entry.actor_email).toBe('admin@a1.test');
    expect(JSON.parse(entry.details)).toEqual({
      changedFields: ['displayName', 'tags', 'siteId', 'customFields', 'deviceRole', 'autoUpdate'],
    });
    expect(events).toEqual([
      expect.objectContaining({
        event: 'device.updated',
        orgId: ids.a1,
        data: { deviceId: id, hostname: 'edit-1', orgId: ids.a1, siteId: ids.s2, status: 'online' },
      }),
    ]);

    // An empty name clears it; autoUpdate back on.
    const cleared = await call('orgAdmin', 'PATCH', `/devices/${id}`, {
      displayName: '',
      autoUpdate: true,
      tags: [],
    });
    expect(cleared.body).toMatchObject({ displayName: null, autoUpdate: true, tags: [] });
  });

  it('refuses bad edits with clear 4xx answers', async () => {
    const id = insertDevice(ids.a1, { siteId: ids.s1 });
    const patch = (body: unknown, caller: Caller = 'orgAdmin') =>
      call(caller, 'PATCH', `/devices/${id}`, body);
    expectError(await patch({}), 400, 'No updates provided');
    expectError(await patch({ siteId: ids.sb }), 400, "siteId must be a site of the device's organization");
    expectError(
      await patch({ siteId: randomUUID() }),
      400,
      "siteId must be a site of the device's organization",
    );
    expectError(await patch({ siteId: 'nope' }), 400, 'siteId: siteId must be a UUID');
    expectError(
      await patch({ tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }),
      400,
      'tags: at most 50 tags',
    );
    expectError(await patch({ tags: ['x'.repeat(101)] }), 400, 'tags.0: each tag must be 1-100 characters');
    expectError(await patch({ tags: ['  '] }), 400, 'tags.0: each tag must be 1-100 characters');
    expectError(
      await patch({ deviceRole: 'toaster' }),
      400,
      expect.stringContaining('deviceRole must be one of') as unknown as string,
    );
    expectError(await patch({ autoUpdate: 'yes' }), 400, 'autoUpdate: autoUpdate must be true or false');
    expectError(
      await patch({ customFields: { nested: { a: 1 } } }),
      400,
      'customFields.nested: custom field values must be a string, number, boolean or null',
    );
    expectError(
      await patch({ customFields: { __proto__x: 1 } }),
      400,
      'customFields.__proto__x: custom field keys must be 1-100 characters: a letter, then letters, digits, _, - or .',
    );
    // A key with a definition takes values of its type (number here, defined by the organization's partner).
    const at = new Date().toISOString();
    server.context.db
      .prepare(
        `INSERT INTO custom_fields (id, partner_id, org_id, field_key, name, type, created_at, updated_at)
         VALUES (?, ?, NULL, 'seats', 'Seats', 'number', ?, ?)`,
      )
      .run(randomUUID(), ids.p1, at, at);
    expectError(await patch({ customFields: { seats: 'many' } }), 400, 'customFields.seats must be a number');
    expect((await patch({ customFields: { seats: 12 } })).body.customFields).toEqual({ seats: 12 });
    // A site-restricted technician cannot move a device out of their sites, nor out of every site.
    expectError(await patch({ siteId: ids.s2 }, 'siteTech'), 403, 'Access to this site denied');
    expectError(await patch({ siteId: null }, 'siteTech'), 403, 'Access to this site denied');
    expect(deviceRow(id).site_id).toBe(ids.s1);
    // An administrator may take it out of its site.
    expect((await patch({ siteId: null })).body.siteId).toBeNull();
  });
});
