import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type {} from '../../server/events/bus';
import { insertOrg } from '../support/seed';
import { type ApiResponse } from '../support/server';
import {
  server,
  ids,
  iso,
  insertDevice,
  call,
  get,
  expectError,
  useDevicesWorld,
} from '../support/devices-world';

// GET /devices: paging, sorting, search, filters, tags and saved filters over the device list (spec 3 limits).

useDevicesWorld();

// ---- the list ---------------------------------------------------------------------------------------------------

describe('GET /devices', () => {
  let org: string;
  const d = {} as Record<string, string>;

  beforeAll(() => {
    org = insertOrg(server, ids.p2, 'Sorting Co');
    d.charlie = insertDevice(org, {
      hostname: 'charlie',
      displayName: 'Reception PC',
      lastUser: 'ann',
      cpuPercent: 50,
      lastSeenAt: iso(-3000),
      osType: 'linux',
      tags: ['kiosk'],
    });
    d.alpha = insertDevice(org, {
      hostname: 'Alpha',
      lastUser: 'Bob',
      cpuPercent: 90,
      lastSeenAt: iso(-1000),
      tags: ['vip', 'kiosk'],
    });
    d.bravo = insertDevice(org, {
      hostname: 'bravo',
      displayName: '100%_done',
      cpuPercent: null,
      lastSeenAt: null,
    });
    d.delta = insertDevice(org, {
      hostname: 'delta',
      lastUser: 'CAROL',
      cpuPercent: 10,
      lastSeenAt: iso(-2000),
      status: 'offline',
    });
    d.gone = insertDevice(org, { hostname: 'echo-gone', status: 'decommissioned' });
  });

  const list = async (query: string) => {
    const res = await get('system', `/devices?orgId=${org}&${query}`);
    expect(res.status).toBe(200);
    return res;
  };
  const hosts = (res: ApiResponse) => (res.body.data as Array<{ hostname: string }>).map((x) => x.hostname);

  it('returns DeviceSummary rows with their tags, sorted by hostname (case-insensitive) by default', async () => {
    const res = await list('');
    expect(hosts(res)).toEqual(['Alpha', 'bravo', 'charlie', 'delta']);
    expect(res.body.pagination).toEqual({ page: 1, limit: 500, total: 4 });
    const alpha = res.body.data[0];
    expect(alpha).toEqual({
      id: d.alpha,
      orgId: org,
      siteId: null,
      hostname: 'Alpha',
      displayName: null,
      osType: 'windows',
      osVersion: 'test os',
      architecture: 'x64',
      agentVersion: '1.0.0',
      deviceRole: 'workstation',
      status: 'online',
      health: 'ok',
      lastUser: 'Bob',
      lastSeenAt: iso(-1000),
      enrolledAt: expect.any(String),
      metrics: { cpuPercent: 90, ramPercent: null, diskPercent: null },
      tags: ['kiosk', 'vip'],
    });
  });

  it('sorts by every key both ways, NULLs last', async () => {
    expect(hosts(await list('sort=hostname&order=desc'))).toEqual(['delta', 'charlie', 'bravo', 'Alpha']);
    expect(hosts(await list('sort=cpuPercent&order=desc'))).toEqual(['Alpha', 'charlie', 'delta', 'bravo']);
    expect(hosts(await list('sort=cpuPercent&order=asc'))).toEqual(['delta', 'charlie', 'Alpha', 'bravo']);
    expect(hosts(await list('sort=lastSeenAt&order=desc'))).toEqual(['Alpha', 'delta', 'charlie', 'bravo']);
    expect(hosts(await list('sort=lastUser'))).toEqual(['charlie', 'Alpha', 'delta', 'bravo']);
    expect(hosts(await list('sort=displayName'))).toEqual(['bravo', 'charlie', 'Alpha', 'delta']);
    expect(hosts(await list('sort=status'))).toEqual(['delta', 'Alpha', 'bravo', 'charlie']);
    expect(hosts(await list('sort=osType&order=desc'))).toEqual(['delta', 'bravo', 'Alpha', 'charlie']);
    for (const sort of ['enrolledAt', 'agentVersion'])
      expect((await list(`sort=${sort}`)).body.data).toHaveLength(4);
    expectError(
      await get('system', '/devices?sort=ram'),
      400,
      expect.stringContaining('sort must be one of') as unknown as string,
    );
  });

  it('searches hostname, displayName and lastUser case-insensitively, with % and _ taken literally', async () => {
    expect(hosts(await list('search=ALP'))).toEqual(['Alpha']);
    expect(hosts(await list('search=carol'))).toEqual(['delta']);
    expect(hosts(await list('search=reception'))).toEqual(['charlie']);
    expect(hosts(await list('search=0%25_'))).toEqual(['bravo']);
    expect(hosts(await list('search=%25'))).toEqual(['bravo']);
    expect(hosts(await list('search=zzz'))).toEqual([]);
  });

  it('filters by status (decommissioned only when asked), osType, tag and group', async () => {
    expect(hosts(await list('status=offline'))).toEqual(['delta']);
    expect(hosts(await list('status=decommissioned'))).toEqual(['echo-gone']);
    expect(hosts(await list('status=online,decommissioned'))).toEqual([
      'Alpha',
      'bravo',
      'charlie',
      'echo-gone',
    ]);
    expectError(
      await get('system', '/devices?status=online,bogus'),
      400,
      'status: status must be a comma-separated list of online, offline, maintenance, quarantined, decommissioned',
      'VALIDATION_ERROR',
    );
    expect(hosts(await list('osType=linux'))).toEqual(['charlie']);
    expect(hosts(await list('tag=kiosk'))).toEqual(['Alpha', 'charlie']);
    expect(hosts(await list('tag=KIOSK'))).toEqual([]);
    expectError(await get('system', '/devices?tag=%20'), 400, 'tag: tag must be 1-100 characters');
    const group = await call('system', 'POST', '/groups', { orgId: org, name: 'Front desk' });
    await call('system', 'POST', `/groups/${group.body.id}/devices`, { deviceIds: [d.bravo, d.delta] });
    expect(hosts(await list(`groupId=${group.body.id}`))).toEqual(['bravo', 'delta']);
    expectError(await get('orgAdmin', `/devices?groupId=${group.body.id}`), 404, 'Device group not found');
  });

  it('applies a saved filter (filterId) or an inline condition group (conditions)', async () => {
    const conditions = {
      operator: 'OR',
      conditions: [
        { field: 'metrics.cpuPercent', operator: 'greaterThan', value: 40 },
        { field: 'lastUser', operator: 'equals', value: 'CAROL' },
      ],
    };
    const inline = await list(`conditions=${encodeURIComponent(JSON.stringify(conditions))}`);
    expect(hosts(inline)).toEqual(['Alpha', 'charlie', 'delta']);
    expect(inline.body.pagination.total).toBe(3);

    const filterId = randomUUID();
    const at = new Date().toISOString();
    server.context.db
      .prepare(
        `INSERT INTO saved_filters (id, org_id, name, conditions, created_by, created_at, updated_at)
         VALUES (?, ?, 'Busy', ?, 'test', ?, ?)`,
      )
      .run(filterId, org, JSON.stringify(conditions), at, at);
    // Combined with the other narrowings by AND.
    expect(hosts(await list(`filterId=${filterId}&osType=windows`))).toEqual(['Alpha', 'delta']);
    // A filter of an organization outside the caller's scope is not found.
    expectError(await get('orgAdmin', `/devices?filterId=${filterId}`), 404, 'Filter not found');
    expectError(await get('system', `/devices?filterId=${randomUUID()}`), 404, 'Filter not found');

    expectError(
      await get('system', '/devices?conditions=%7Bnot-json'),
      400,
      'conditions must be a JSON-encoded condition group',
    );
    const unknown = { operator: 'AND', conditions: [{ field: 'nope', operator: 'equals', value: 1 }] };
    const bad = await get('system', `/devices?conditions=${encodeURIComponent(JSON.stringify(unknown))}`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('Unknown field');
    const huge = encodeURIComponent(
      JSON.stringify({
        operator: 'AND',
        conditions: [{ field: 'hostname', operator: 'equals', value: 'x'.repeat(9000) }],
      }),
    );
    expectError(
      await get('system', `/devices?conditions=${huge}`),
      400,
      'conditions: conditions must be at most 8192 bytes',
    );
  });

  it('pages with 500 rows by default and at most 1000', async () => {
    const big = insertOrg(server, ids.p2, 'Big Co');
    const insert = server.context.db.transaction(() => {
      for (let i = 0; i < 1201; i++) insertDevice(big, { hostname: `big-${String(i).padStart(4, '0')}` });
    });
    insert();
    const first = await get('system', `/devices?orgId=${big}`);
    expect(first.body.data).toHaveLength(500);
    expect(first.body.pagination).toEqual({ page: 1, limit: 500, total: 1201 });
    const capped = await get('system', `/devices?orgId=${big}&limit=5000`);
    expect(capped.body.data).toHaveLength(1000);
    expect(capped.body.pagination.limit).toBe(1000);
    const last = await get('system', `/devices?orgId=${big}&limit=1000&page=2`);
    expect(last.body.data.map((x: { hostname: string }) => x.hostname)).toEqual(
      Array.from({ length: 201 }, (_, i) => `big-${String(1000 + i).padStart(4, '0')}`),
    );
    const small = await get('system', `/devices?orgId=${big}&limit=0`);
    expect(small.body.data).toHaveLength(1);
  });
});
