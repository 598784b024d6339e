import { describe, expect, it } from 'vitest';
import type {} from '../../server/events/bus';
import {} from '../support/seed';
import {
  type Caller,
  server,
  ids,
  dev,
  insertDevice,
  deviceRow,
  call,
  get,
  expectError,
  useDevicesWorld,
} from '../support/devices-world';

// /devices isolation: which devices every kind of caller sees, reads and changes (spec 2: devices outside the
// caller's organizations are 404).

useDevicesWorld();

// ---- isolation ------------------------------------------------------------------------------------------------

/** Which of the matrix devices each caller sees. */
const VISIBLE: Record<Caller, Array<keyof typeof dev>> = {
  system: ['a1s1', 'a1s2', 'a1none', 'a2', 'b1'],
  partnerAll: ['a1s1', 'a1s2', 'a1none', 'a2'],
  partnerSelected: ['a1s1', 'a1s2', 'a1none'],
  partnerNone: [],
  orgAdmin: ['a1s1', 'a1s2', 'a1none'],
  orgTech: ['a1s1', 'a1s2', 'a1none'],
  orgReadOnly: ['a1s1', 'a1s2', 'a1none'],
  siteTech: ['a1s1'],
  noMfa: ['a1s1', 'a1s2', 'a1none'],
  keyA1: ['a1s1', 'a1s2', 'a1none'],
  keyA1Read: ['a1s1', 'a1s2', 'a1none'],
  keyB1: ['b1'],
};
const CALLERS = Object.keys(VISIBLE) as Caller[];
const DEVICES = Object.keys(dev) as Array<keyof typeof dev>;

describe('isolation', () => {
  it.each(CALLERS)('GET /devices lists exactly what %s may see', async (caller) => {
    const res = await get(caller, '/devices?search=iso-');
    expect(res.status).toBe(200);
    const hosts = (res.body.data as Array<{ hostname: string }>).map((d) => d.hostname).sort();
    expect(hosts).toEqual(VISIBLE[caller].map((k) => `iso-${k}`).sort());
    expect(res.body.pagination.total).toBe(VISIBLE[caller].length);
  });

  it.each(CALLERS)(
    'GET /devices/:id, its commands and both stored logs: 200 in scope, 404 outside for %s',
    async (caller) => {
      for (const key of DEVICES) {
        const expected = VISIBLE[caller].includes(key) ? 200 : 404;
        for (const path of [
          `/devices/${dev[key]}`,
          `/devices/${dev[key]}/commands`,
          `/devices/${dev[key]}/diagnostic-logs`,
          `/devices/${dev[key]}/eventlogs`,
        ]) {
          const res = await get(caller, path);
          expect({ path, caller, status: res.status }).toEqual({ path, caller, status: expected });
          if (expected === 404) expect(res.body).toEqual({ error: 'Device not found' });
        }
      }
    },
  );

  it('PATCH /devices/:id follows scope, devices:write and MFA', async () => {
    const patch = (caller: Caller, id: string) =>
      call(caller, 'PATCH', `/devices/${id}`, { deviceRole: 'server' });
    const expectations: Array<[Caller, string, number]> = [
      ['system', dev.b1, 200],
      ['partnerAll', dev.a2, 200],
      ['partnerAll', dev.b1, 404],
      ['partnerSelected', dev.a1s1, 200],
      ['partnerSelected', dev.a2, 404],
      ['partnerNone', dev.a1s1, 404],
      ['orgAdmin', dev.a1s2, 200],
      ['orgAdmin', dev.a2, 404],
      ['orgTech', dev.a1none, 200],
      ['siteTech', dev.a1s1, 200],
      ['siteTech', dev.a1s2, 404],
      ['keyA1', dev.a1s1, 200],
      ['keyB1', dev.a1s1, 404],
      ['orgReadOnly', dev.a1s1, 403],
      ['keyA1Read', dev.a1s1, 403],
    ];
    for (const [caller, id, status] of expectations) {
      expect({ caller, id, status: (await patch(caller, id)).status }).toEqual({ caller, id, status });
    }
    expectError(await patch('noMfa', dev.a1s1), 403, 'MFA required', 'MFA_REQUIRED');
    expectError(await patch('keyA1Read', dev.a1s1), 403, 'API key does not have required permissions');
  });

  it('POST /devices/:id/commands needs devices:execute and scope; DELETE needs devices:delete', async () => {
    const command = { type: 'self_uninstall', payload: { removeConfig: false } };
    const post = (caller: Caller, id: string) => call(caller, 'POST', `/devices/${id}/commands`, command);
    expect((await post('orgTech', dev.a1s1)).status).toBe(201);
    expect((await post('siteTech', dev.a1s1)).status).toBe(201);
    expect((await post('siteTech', dev.a1s2)).status).toBe(404);
    expect((await post('keyA1', dev.a1none)).status).toBe(201);
    expect((await post('keyB1', dev.a1s1)).status).toBe(404);
    expect((await post('partnerNone', dev.a1s1)).status).toBe(404);
    expect((await post('partnerSelected', dev.a2)).status).toBe(404);
    expect((await post('orgReadOnly', dev.a1s1)).status).toBe(403);
    expect((await post('noMfa', dev.a1s1)).status).toBe(403);

    const victim = insertDevice(ids.a1, { siteId: ids.s2 });
    const del = (caller: Caller) => call(caller, 'DELETE', `/devices/${victim}`);
    // Technicians hold devices:view/update/execute, not delete.
    expectError(await del('orgTech'), 403, 'Insufficient permissions', 'PERMISSION_DENIED');
    expect((await del('siteTech')).status).toBe(403);
    expect((await del('keyB1')).status).toBe(404);
    expect((await del('partnerNone')).status).toBe(404);
    expect((await del('partnerSelected')).status).toBe(200);
    expect(deviceRow(victim).status).toBe('decommissioned');
  });

  it('GET /tags counts only what each caller sees', async () => {
    const tagged = [
      insertDevice(ids.a1, { siteId: ids.s1, tags: ['iso-tag'] }),
      insertDevice(ids.a1, { siteId: ids.s2, tags: ['iso-tag'] }),
      insertDevice(ids.a2, { tags: ['iso-tag'] }),
      insertDevice(ids.b1, { tags: ['iso-tag'] }),
    ];
    const counts: Array<[Caller, number]> = [
      ['system', 4],
      ['partnerAll', 3],
      ['partnerSelected', 2],
      ['partnerNone', 0],
      ['orgAdmin', 2],
      ['siteTech', 1],
      ['keyA1Read', 2],
      ['keyB1', 1],
    ];
    for (const [caller, n] of counts) {
      const res = await get(caller, '/tags?search=iso-');
      expect(res.status).toBe(200);
      expect({ caller, data: res.body.data }).toEqual({
        caller,
        data: n ? [{ tag: 'iso-tag', deviceCount: n }] : [],
      });
      const devices = await get(caller, '/tags/devices?tag=iso-tag');
      expect({ caller, total: devices.body.pagination.total }).toEqual({ caller, total: n });
    }
    for (const id of tagged) server.context.db.prepare('DELETE FROM devices WHERE id = ?').run(id);
  });

  it('naming an organization or site outside the scope answers 404/403, not an empty list', async () => {
    expectError(await get('partnerSelected', `/devices?orgId=${ids.a2}`), 404, 'Organization not found');
    expectError(await get('partnerAll', `/devices?orgId=${ids.b1}`), 404, 'Organization not found');
    expectError(await get('orgAdmin', `/devices?orgId=${ids.b1}`), 403, 'Access to this organization denied');
    expectError(await get('keyB1', `/devices?orgId=${ids.a1}`), 403, 'Access to this organization denied');
    expectError(await get('siteTech', `/devices?siteId=${ids.s2}`), 403, 'Access to this site denied');
    const own = await get('siteTech', `/devices?siteId=${ids.s1}&search=iso-`);
    expect(own.body.data.map((d: { id: string }) => d.id)).toEqual([dev.a1s1]);
  });
});
