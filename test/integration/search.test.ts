import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResult } from '../../server/contract/filters';
import { insertFleet, type Fleet, type FleetDevice } from '../support/fleet';
import { seedKeyCallers, type KeyCallerIds, type KeyCallerTokens } from '../support/key-callers';
import { insertOrgUser, mfaToken, PASSWORD } from '../support/seed';
import { startServer, type ApiResponse, type TestServer } from '../support/server';

// GET /search (spec 2): devices by hostname, display name or last user (case-insensitive substring, within the
// caller's scope, devices:read), and console pages by title. The other kinds: search-kinds.test.ts. P1 owns A1 and A2, P2 owns B1
// (test/support/key-callers.ts).

let server: TestServer;
let ids: KeyCallerIds;
let tok: KeyCallerTokens;
let fleet: Fleet;
let noDevices: string;
let apiKey: string;
const orgNames = new Map<string, string>();

beforeAll(async () => {
  server = await startServer();
  ({ ids, tok } = await seedKeyCallers(server));
  fleet = insertFleet(server.context.db, { orgIds: [ids.a1, ids.a2, ids.b1], count: 60, seed: 7 });
  for (const row of server.context.db.prepare('SELECT id, name FROM organizations').all() as Array<{
    id: string;
    name: string;
  }>)
    orgNames.set(row.id, row.name);
  // An A1 user whose role grants only audit reads: no devices, no users, no organizations.
  const roleId = randomUUID();
  const at = new Date().toISOString();
  server.context.db
    .prepare(
      "INSERT INTO roles (id, org_id, scope, name, created_at, updated_at) VALUES (?, ?, 'organization', 'Auditor', ?, ?)",
    )
    .run(roleId, ids.a1, at, at);
  server.context.db
    .prepare("INSERT INTO role_permissions (role_id, resource, action) VALUES (?, 'audit', 'read')")
    .run(roleId);
  await insertOrgUser(server, ids.a1, roleId, 'auditor@a1.test');
  noDevices = await mfaToken(server, 'auditor@a1.test', PASSWORD);
  const key = await server.api.post(
    '/api-keys',
    { orgId: ids.a2, name: 'search', scopes: ['devices:read'] },
    tok.system,
  );
  apiKey = key.body.key as string;
});

afterAll(async () => {
  await server.dispose();
});

type Search = ApiResponse<{ results: SearchResult[] }>;
const search = (query: string, token: string = tok.system) =>
  server.api.get(`/search?${query}`, token) as Promise<Search>;
const q = (text: string, extra = '') => `q=${encodeURIComponent(text)}${extra}`;

const fold = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
const has = (s: string | null, sub: string) => s !== null && fold(s).includes(fold(sub));
const starts = (s: string | null, sub: string) => s !== null && fold(s).startsWith(fold(sub));

/** The expected device results, in the documented order: prefix matches first, then by hostname. */
function expectedDevices(text: string, orgIds: string[], limit = 20): SearchResult[] {
  const rank = (d: FleetDevice) =>
    starts(d.hostname, text) ? 0 : starts(d.displayName, text) || starts(d.lastUser, text) ? 1 : 2;
  return fleet.devices
    .filter((d) => d.status !== 'decommissioned' && orgIds.includes(d.orgId))
    .filter((d) => has(d.hostname, text) || has(d.displayName, text) || has(d.lastUser, text))
    .sort(
      (a, b) =>
        rank(a) - rank(b) ||
        (fold(a.hostname) < fold(b.hostname) ? -1 : fold(a.hostname) > fold(b.hostname) ? 1 : 0) ||
        (a.id < b.id ? -1 : 1),
    )
    .slice(0, limit)
    .map((d) => ({
      id: d.id,
      type: 'devices' as const,
      title: d.hostname,
      description: [d.osVersion, orgNames.get(d.orgId), d.lastUser].filter(Boolean).join(' · '),
    }));
}

const devicesOf = (res: Search) => res.body.results.filter((r) => r.type === 'devices');
const settingsOf = (res: Search) => res.body.results.filter((r) => r.type === 'settings').map((r) => r.title);

describe('GET /search: devices', () => {
  it('matches hostname, display name and last user case-insensitively, prefix matches first', async () => {
    for (const text of ['WEB', 'desk', 'ALICE', 'lab_', 'fin%', '0', 'corp\\']) {
      const res = await search(q(text, '&limit=50'));
      expect(res.status).toBe(200);
      const expected = expectedDevices(text, [ids.a1, ids.a2, ids.b1], 50);
      expect(devicesOf(res), text).toEqual(expected);
      if (!['0'].includes(text)) expect(expected.length, text).toBeGreaterThan(0);
    }
  });

  it('describes a device as osVersion · organization · last user', async () => {
    const device = fleet.devices.find((d) => d.status !== 'decommissioned' && d.lastUser !== null)!;
    const res = await search(q(device.hostname));
    const hit = res.body.results.find((r) => r.id === device.id)!;
    expect(hit).toEqual({
      id: device.id,
      type: 'devices',
      title: device.hostname,
      description: `${device.osVersion} · ${orgNames.get(device.orgId)} · ${device.lastUser}`,
    });
    expect(hit).not.toHaveProperty('href');
  });

  it('never returns decommissioned devices', async () => {
    const gone = fleet.devices.find((d) => d.status === 'decommissioned')!;
    const res = await search(q(gone.hostname));
    expect(res.body.results.map((r) => r.id)).not.toContain(gone.id);
  });

  it('stays within the caller’s scope', async () => {
    const text = 'e';
    const scoped: Array<[string, string[]]> = [
      [tok.partnerAll, [ids.a1, ids.a2]],
      [tok.partnerSelected, [ids.a1]],
      [tok.partnerNone, []],
      [tok.orgTech, [ids.a1]],
      [tok.orgAdminB, [ids.b1]],
    ];
    for (const [token, orgIds] of scoped) {
      const res = await search(q(text, '&limit=50'), token);
      expect(res.status).toBe(200);
      // Other kinds share the limit (search-kinds.test.ts): the devices are the head of the in-scope list.
      const expected = expectedDevices(text, orgIds, 50);
      expect(devicesOf(res)).toEqual(expected.slice(0, devicesOf(res).length));
      expect(devicesOf(res).length).toBeGreaterThanOrEqual(Math.min(expected.length, 8));
    }
    const viaKey = (await server.api.request('GET', `/search?${q(text, '&limit=50')}`, {
      headers: { 'x-api-key': apiKey },
    })) as Search;
    expect(viaKey.status).toBe(200);
    expect(viaKey.body.results).toEqual(expectedDevices(text, [ids.a2], 50));
  });

  it('gives callers without devices:read no devices', async () => {
    const res = await search(q('web'), noDevices);
    expect(res.status).toBe(200);
    expect(devicesOf(res)).toEqual([]);
  });

  it('applies limit (default 20) across all results', async () => {
    const all = expectedDevices('e', [ids.a1, ids.a2, ids.b1], 50);
    expect(all.length).toBeGreaterThan(20);
    expect((await search(q('e'))).body.results).toHaveLength(20);
    // A device-only caller (the API key) gets the devices alone, in order.
    const viaKey = (await server.api.request('GET', `/search?${q('e', '&limit=3')}`, {
      headers: { 'x-api-key': apiKey },
    })) as Search;
    expect(viaKey.body.results).toEqual(expectedDevices('e', [ids.a2], 3));
  });
});

describe('GET /search: console pages', () => {
  it('finds pages by title with their console path, limited to what the caller may open', async () => {
    const keys = await search(q('KEYS'), tok.orgAdmin);
    expect(keys.body.results.filter((r) => r.type === 'settings')).toEqual([
      { id: 'api-keys', type: 'settings', title: 'API keys', description: expect.any(String), href: '/keys' },
      {
        id: 'enrollment-keys',
        type: 'settings',
        title: 'Enrollment keys',
        description: expect.any(String),
        href: '/keys/enrollment',
      },
    ]);
    expect(settingsOf(await search(q('users'), tok.orgAdmin))).toEqual(['Users']);
    // The organization technician holds no users permission.
    expect(settingsOf(await search(q('users'), tok.orgTech))).toEqual([]);
    expect(settingsOf(await search(q('settings'), tok.partnerAll))).toEqual(['Partner settings']);
    expect(settingsOf(await search(q('settings'), tok.orgAdmin))).toEqual([]);
    expect(settingsOf(await search(q('filters'), tok.orgTech))).toEqual(['Saved filters']);
    // The auditor holds audit:read only: the pages anyone may open, and the audit log.
    expect(settingsOf(await search(q('o'), noDevices))).toEqual(['Overview', 'Audit log', 'Profile']);
    const roles = await search(q('role'), tok.system);
    expect(roles.body.results.find((r) => r.type === 'settings')).toMatchObject({
      title: 'Roles',
      href: '/users/roles',
    });
    const orgs = await search(q('organizations'), tok.system);
    expect(orgs.body.results.find((r) => r.type === 'settings')).toMatchObject({ href: '/tenants' });
    const devicesPage = await search(q('devices'), tok.system);
    expect(devicesPage.body.results.find((r) => r.type === 'settings')).toMatchObject({ href: '/devices' });
  });

  it('lists pages first, shares a full list among the kinds and gives API keys no pages', async () => {
    // Plenty of pages, devices, organizations and users contain "e": 8 results are 2 of each, pages first.
    const res = await search(q('e', '&limit=8'), tok.system);
    expect(res.body.results.map((r) => r.type)).toEqual([
      'settings',
      'settings',
      'devices',
      'devices',
      'organizations',
      'organizations',
      'users',
      'users',
    ]);
    expect(devicesOf(res)).toEqual(expectedDevices('e', [ids.a1, ids.a2, ids.b1], 2));
    const viaKey = (await server.api.request('GET', `/search?${q('keys')}`, {
      headers: { 'x-api-key': apiKey },
    })) as Search;
    expect(viaKey.body.results).toEqual([]);
  });
});

describe('GET /search: validation', () => {
  it('needs q of 1-100 characters after trimming and a limit of 1-50', async () => {
    const cases: Array<[string, string]> = [
      ['', 'q: q is required'],
      ['q=', 'q: q must be 1-100 characters'],
      ['q=%20%20', 'q: q must be 1-100 characters'],
      [q('x'.repeat(101)), 'q: q must be 1-100 characters'],
      [q('x', '&limit=0'), 'limit: limit must be an integer between 1 and 50'],
      [q('x', '&limit=51'), 'limit: limit must be an integer between 1 and 50'],
      [q('x', '&limit=ten'), 'limit: limit must be an integer between 1 and 50'],
    ];
    for (const [query, error] of cases) {
      const res = await search(query);
      expect({ status: res.status, error: (res.body as unknown as { error: string }).error }, query).toEqual({
        status: 400,
        error,
      });
    }
    expect((await search(q(` ${'x'.repeat(100)} `))).status).toBe(200);
    expect((await server.api.get(`/search?${q('web')}`)).status).toBe(401);
  });
});
