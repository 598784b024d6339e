import { beforeAll, describe, expect, it } from 'vitest';
import type { DeviceFacets } from '../../server/contract';
import { insertOrgUser, restrictOrgUser, ROLES, signedToken } from '../support/seed';
import {
  auth,
  call,
  dev,
  expectError,
  get,
  ids,
  insertDevice,
  server,
  useDevicesWorld,
} from '../support/devices-world';

// GET /devices/facets: counts per organization, status, OS, agent version and agent build over exactly the devices
// GET /devices would list for the same caller and filters, so the console's header, chips and adoption counts
// agree with the list. The world (test/support/devices-world.ts) holds a1s1, a1s2, a1none in A1, a2 in A2 (both
// partner P1) and b1 in B1 (partner P2); this file adds a few more to A1 and one decommissioned device.

useDevicesWorld();

const extra = { mac: '', offline: '', gone: '' };
const counts = (list: Array<{ value: string; count: number }> | undefined) =>
  Object.fromEntries((list ?? []).map((f) => [f.value, f.count]));

async function facets(caller: Parameters<typeof get>[0], query: string): Promise<DeviceFacets> {
  const res = await get(caller, `/devices/facets?${query}`);
  expect(res.status).toBe(200);
  return res.body as DeviceFacets;
}

beforeAll(async () => {
  extra.mac = insertDevice(ids.a1, {
    siteId: ids.s1,
    osType: 'macos',
    agentVersion: '1.2.0',
    hostname: 'fc-mac',
  });
  extra.offline = insertDevice(ids.a1, { siteId: ids.s2, status: 'offline', agentVersion: '1.2.0' });
  extra.gone = insertDevice(ids.a1, { siteId: ids.s1, status: 'decommissioned' });
  // A technician of A1 limited to one device group holding a1s2 and the Mac.
  const group = await call('orgAdmin', 'POST', '/groups', { name: 'Facet group' });
  expect(group.status).toBe(201);
  const gid = group.body.id as string;
  expect(
    (await call('orgAdmin', 'POST', `/groups/${gid}/devices`, { deviceIds: [dev.a1s2, extra.mac] })).status,
  ).toBe(200);
  const userId = await insertOrgUser(server, ids.a1, ROLES.orgTechnician, 'group-tech@a1.test');
  restrictOrgUser(server, userId, { deviceGroupIds: [gid] });
  auth.orgTech = { token: await signedToken(server, 'group-tech@a1.test') };
});

describe('GET /devices/facets', () => {
  it("counts a partner's devices per organization, status, OS, version and build, decommissioned left out", async () => {
    const body = await facets('partnerAll', 'by=org,status,osType,agentVersion,agentBuild');
    expect(body.total).toBe(6);
    expect(counts(body.facets.org)).toEqual({ [ids.a1]: 5, [ids.a2]: 1 });
    expect(counts(body.facets.status)).toEqual({ online: 5, offline: 1 });
    expect(counts(body.facets.osType)).toEqual({ windows: 5, macos: 1 });
    expect(counts(body.facets.agentVersion)).toEqual({ '1.0.0': 4, '1.2.0': 2 });
    expect(body.facets.agentBuild).toEqual([
      { value: '1.0.0', osType: 'windows', architecture: 'x64', count: 4 },
      { value: '1.2.0', osType: 'macos', architecture: 'x64', count: 1 },
      { value: '1.2.0', osType: 'windows', architecture: 'x64', count: 1 },
    ]);
    // Largest first.
    expect(body.facets.org?.[0]).toEqual({ value: ids.a1, count: 5 });
  });

  it('takes `by` repeated as well as comma-separated, and answers only what was asked', async () => {
    const body = await facets('partnerAll', 'by=org&by=status');
    expect(Object.keys(body.facets).sort()).toEqual(['org', 'status']);
    expect((await facets('partnerAll', '')).facets).toEqual({});
  });

  it("applies the device list's filters, and agrees with the list's totals", async () => {
    const query = `orgId=${ids.a1}&status=online,offline&osType=windows`;
    const body = await facets('partnerAll', `${query}&by=status`);
    const list = await get('partnerAll', `/devices?${query}&limit=1`);
    expect(body.total).toBe(list.body.pagination.total);
    expect(counts(body.facets.status)).toEqual({ online: 3, offline: 1 });
    expect(counts((await facets('partnerAll', 'status=decommissioned&by=status')).facets.status)).toEqual({
      decommissioned: 1,
    });
  });

  it('counts only the sites of a site-restricted technician and the groups of a group-restricted one', async () => {
    const site = await facets('siteTech', 'by=org,agentVersion');
    expect(site.total).toBe(2); // a1s1 and the Mac
    expect(counts(site.facets.agentVersion)).toEqual({ '1.0.0': 1, '1.2.0': 1 });
    const group = await facets('orgTech', 'by=org,osType');
    expect(group.total).toBe(2); // a1s2 and the Mac
    expect(counts(group.facets.org)).toEqual({ [ids.a1]: 2 });
    expect(counts(group.facets.osType)).toEqual({ windows: 1, macos: 1 });
  });

  it("shows another partner's caller nothing of this partner's devices", async () => {
    const other = await facets('keyB1', 'by=org,status,agentVersion');
    expect(other.total).toBe(1);
    expect(counts(other.facets.org)).toEqual({ [ids.b1]: 1 });
    expectError(
      await get('keyB1', `/devices/facets?orgId=${ids.a1}&by=org`),
      403,
      'Access to this organization denied',
    );
    expectError(
      await get('partnerAll', `/devices/facets?orgId=${ids.b1}&by=org`),
      404,
      'Organization not found',
    );
    const none = await facets('partnerNone', 'by=org');
    expect(none).toEqual({ total: 0, facets: { org: [] } });
    const selected = await facets('partnerSelected', 'by=org');
    expect(counts(selected.facets.org)).toEqual({ [ids.a1]: 5 });
    expect((await facets('system', 'by=org')).total).toBe(7);
  });

  it('refuses an unknown facet with the field named, and needs devices:read', async () => {
    expectError(
      await get('partnerAll', '/devices/facets?by=org,colour'),
      400,
      'by: by must be a comma-separated list of org, status, osType, agentVersion, agentBuild',
    );
    expect((await server.api.get('/devices/facets?by=org')).status).toBe(401);
  });
});
