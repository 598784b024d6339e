import { describe, expect, it } from 'vitest';
import { TestAgent, mintEnrollmentKey } from '../support/agent-client';
import { dev, expectError, get, ids, server, useDevicesWorld } from '../support/devices-world';

// GET /software/inventory/:deviceId: what the agent last reported (PUT /agents/:agentId/software), searched and
// paged, and found exactly where GET /devices/:id is.

useDevicesWorld();

describe('GET /software/inventory/:deviceId', () => {
  it('lists the reported software by name, searches name and publisher, pages', async () => {
    const agent = await TestAgent.enroll(server, mintEnrollmentKey(server, ids.a1).key);
    const id = agent.creds.deviceId;
    expect((await get('orgAdmin', `/software/inventory/${id}`)).body).toEqual({
      data: [],
      pagination: { page: 1, limit: 500, total: 0 },
    });
    const res = await agent.software([
      { name: 'Zoom', version: '5.17', publisher: 'Zoom Video Communications' },
      { name: '7-Zip', version: '23.01', publisher: 'Igor Pavlov' },
      { name: 'Microsoft Edge', version: '120.0', publisher: 'Microsoft Corporation' },
      { name: 'microsoft Teams', publisher: 'Microsoft Corporation' },
    ]);
    expect(res.status).toBe(200);
    const all = await get('orgAdmin', `/software/inventory/${id}`);
    expect(all.body.data.map((s: { name: string }) => s.name)).toEqual([
      '7-Zip',
      'Microsoft Edge',
      'microsoft Teams',
      'Zoom',
    ]);
    expect(all.body.data[3]).toEqual({
      name: 'Zoom',
      version: '5.17',
      publisher: 'Zoom Video Communications',
    });
    const ms = await get('orgReadOnly', `/software/inventory/${id}?q=MICROSOFT`);
    expect(ms.body.pagination.total).toBe(2);
    const pav = await get('keyA1Read', `/software/inventory/${id}?q=pavlov`);
    expect(pav.body.data).toEqual([{ name: '7-Zip', version: '23.01', publisher: 'Igor Pavlov' }]);
    const underscore = await get('orgAdmin', `/software/inventory/${id}?q=%25`);
    expect(underscore.body.pagination.total).toBe(0);
    const page2 = await get('orgAdmin', `/software/inventory/${id}?limit=3&page=2`);
    expect(page2.body).toMatchObject({
      data: [{ name: 'Zoom' }],
      pagination: { page: 2, limit: 3, total: 4 },
    });
  });

  it('is 404 wherever GET /devices/:id is', async () => {
    for (const [caller, device] of [
      ['orgAdmin', dev.b1],
      ['orgAdmin', dev.a2],
      ['siteTech', dev.a1s2],
      ['keyB1', dev.a1s1],
    ] as const) {
      expect((await get(caller, `/devices/${device}`)).status).toBe(404);
      expectError(await get(caller, `/software/inventory/${device}`), 404, 'Device not found');
    }
    expectError(await get('orgAdmin', '/software/inventory/nope'), 404, 'Device not found');
    expect((await get('siteTech', `/software/inventory/${dev.a1s1}`)).status).toBe(200);
  });
});
