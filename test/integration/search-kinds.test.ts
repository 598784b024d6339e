import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResult } from '../../server/contract/filters';
import { insertFleet, type Fleet, type FleetDevice } from '../support/fleet';
import { seedKeyCallers, type KeyCallerIds, type KeyCallerTokens } from '../support/key-callers';
import { insertOrgUser, insertPamRule, mfaToken, PASSWORD, restrictOrgUser, ROLES } from '../support/seed';
import { startServer, type ApiResponse, type TestServer } from '../support/server';

// GET /search beyond devices (issue 16): console pages by synonyms, elevation requests, elevation rules,
// organizations and users, each read within the caller's scope and only with the permission of the list it comes
// from. The world: partner P1 owns A1 and A2, P2 owns B1 (test/support/key-callers.ts); every organization has
// an elevation request for "zapwidget.exe", a rule named "Zapwidget installer" and a user named "quill-…".

let server: TestServer;
let ids: KeyCallerIds;
let tok: KeyCallerTokens;
let fleet: Fleet;
/** The request, rule and Quill user of each organization. */
const requestOf = new Map<string, string>();
const ruleOf = new Map<string, string>();
const quillOf = new Map<string, string>();
let siteTech: string;
let siteTechSite: string;
let apiKey: string;

function insertRequest(device: FleetDevice, path: string): string {
  const id = randomUUID();
  const at = new Date().toISOString();
  server.context.db
    .prepare(
      `INSERT INTO elevation_requests (id, org_id, device_id, site_id, flow_type, status, risk_level,
         subject_username, target_executable_path, target_executable_signer, requested_at, updated_at)
       VALUES (?, ?, ?, ?, 'uac_intercept', 'pending', 'high', 'CORP\\dana', ?, 'Zapwidget Ltd', ?, ?)`,
    )
    .run(id, device.orgId, device.id, device.siteId, path, at, at);
  return id;
}

beforeAll(async () => {
  server = await startServer();
  ({ ids, tok } = await seedKeyCallers(server));
  fleet = insertFleet(server.context.db, { orgIds: [ids.a1, ids.a2, ids.b1], count: 30, seed: 11 });
  for (const orgId of [ids.a1, ids.a2, ids.b1]) {
    const device = fleet.devices.find((d) => d.orgId === orgId && d.siteId !== null)!;
    requestOf.set(orgId, insertRequest(device, 'C:\\Users\\dana\\Downloads\\zapwidget.exe'));
    ruleOf.set(
      orgId,
      insertPamRule(server, orgId, { name: 'Zapwidget installer', match_signer: 'Zapwidget Ltd' }),
    );
    // insertOrgUser names the user after the email's local part.
    const email = `quill-${orgId.slice(0, 8)}@example.test`;
    quillOf.set(orgId, await insertOrgUser(server, orgId, ROLES.orgReadOnly, email));
  }
  // An A1 technician limited to a site other than that of A1's request's device.
  const a1Request = fleet.devices.find((d) => d.orgId === ids.a1 && d.siteId !== null)!;
  const otherSite = fleet.devices.find(
    (d) => d.orgId === ids.a1 && d.siteId !== null && d.siteId !== a1Request.siteId,
  )!;
  siteTechSite = otherSite.siteId!;
  const techId = await insertOrgUser(server, ids.a1, ROLES.orgTechnician, 'sitetech@a1.test');
  restrictOrgUser(server, techId, { siteIds: [siteTechSite] });
  siteTech = await mfaToken(server, 'sitetech@a1.test', PASSWORD);
  const key = await server.api.post(
    '/api-keys',
    { orgId: ids.a2, name: 'search', scopes: ['devices:read', 'organizations:read', 'users:read'] },
    tok.system,
  );
  apiKey = key.body.key as string;
});

afterAll(async () => {
  await server.dispose();
});

type Search = ApiResponse<{ results: SearchResult[] }>;
const search = (text: string, token: string, limit = 50) =>
  server.api.get(`/search?q=${encodeURIComponent(text)}&limit=${limit}`, token) as Promise<Search>;
const byKey = (text: string) =>
  server.api.request('GET', `/search?q=${encodeURIComponent(text)}&limit=50`, {
    headers: { 'x-api-key': apiKey },
  }) as Promise<Search>;
const ofType = (res: Search, type: SearchResult['type']) => res.body.results.filter((r) => r.type === type);
const idsOf = (res: Search, type: SearchResult['type']) =>
  ofType(res, type)
    .map((r) => r.id)
    .sort();
const sorted = (...values: Array<string | undefined>) => values.map((v) => v!).sort();

describe('GET /search: console pages by what a technician would type', () => {
  it('finds Approvals for "approval", the elevation pages for "elevation", settings for "security"', async () => {
    const approval = ofType(await search('approval', tok.orgAdmin), 'settings');
    expect(approval[0]).toEqual({
      id: 'approvals',
      type: 'settings',
      title: 'Approvals',
      description: expect.any(String),
      href: '/approvals',
    });
    expect(approval.map((p) => p.title)).toContain('Elevation policy');
    const elevation = ofType(await search('elevation', tok.orgAdmin), 'settings').map((p) => p.href);
    expect(elevation).toEqual(expect.arrayContaining(['/approvals', '/approvals/history', '/pam/rules']));
    // Title matches come before pages found by a synonym.
    expect(elevation.indexOf('/approvals/history')).toBeLessThan(elevation.indexOf('/approvals'));
    const security = ofType(await search('security', tok.partnerAll), 'settings').map((p) => p.title);
    expect(security).toEqual(expect.arrayContaining(['Partner settings', 'Audit log', 'Profile']));
    expect(ofType(await search('keys', tok.orgAdmin), 'settings').map((p) => p.title)).toEqual([
      'API keys',
      'Enrollment keys',
    ]);
  });

  it('offers a page only to callers who may use it', async () => {
    // The organization technician holds devices:read and pam:approve, not pam:manage_policy or users:read.
    const tech = ofType(await search('elevation', tok.orgTech), 'settings').map((p) => p.href);
    expect(tech).toContain('/approvals');
    expect(tech).not.toContain('/pam/rules');
    expect(ofType(await search('people', tok.orgTech), 'settings')).toEqual([]);
    expect(ofType(await search('people', tok.orgAdmin), 'settings').map((p) => p.href)).toEqual(['/users']);
  });
});

describe('GET /search: elevation requests', () => {
  it('finds requests by executable, signer, user or device within the caller’s device visibility', async () => {
    const expectations: Array<[string, string[]]> = [
      [tok.system, sorted(requestOf.get(ids.a1), requestOf.get(ids.a2), requestOf.get(ids.b1))],
      [tok.partnerAll, sorted(requestOf.get(ids.a1), requestOf.get(ids.a2))],
      [tok.partnerSelected, sorted(requestOf.get(ids.a1))],
      [tok.partnerNone, []],
      [tok.orgTech, sorted(requestOf.get(ids.a1))],
      [tok.orgAdminB, sorted(requestOf.get(ids.b1))],
      // Restricted to another site than the request's device: not found, as the inbox would not list it.
      [siteTech, []],
    ];
    for (const text of ['zapwidget', 'ZAPWIDGET LTD', 'corp\\dana']) {
      for (const [token, expected] of expectations)
        expect(idsOf(await search(text, token), 'elevation_requests')).toEqual(expected);
    }
    const hit = ofType(await search('zapwidget', tok.orgTech), 'elevation_requests')[0];
    expect(hit).toMatchObject({
      title: 'zapwidget.exe',
      href: `/approvals/${requestOf.get(ids.a1)}`,
      description: expect.stringContaining('High risk'),
    });
    const device = fleet.devices.find((d) => d.id === requestHost(ids.a1))!;
    expect(idsOf(await search(device.hostname, tok.orgTech), 'elevation_requests')).toEqual([
      requestOf.get(ids.a1),
    ]);
  });
});

describe('GET /search: words that name the requests', () => {
  it('"elevation" or "request" lists the pending requests the caller may see', async () => {
    for (const text of ['elevation', 'Elevations', 'request', 'pending']) {
      expect(idsOf(await search(text, tok.partnerAll), 'elevation_requests'), text).toEqual(
        sorted(requestOf.get(ids.a1), requestOf.get(ids.a2)),
      );
      expect(idsOf(await search(text, tok.orgAdminB), 'elevation_requests'), text).toEqual([
        requestOf.get(ids.b1),
      ]);
      expect(idsOf(await search(text, siteTech), 'elevation_requests'), text).toEqual([]);
    }
    // A decided request is found by what it asked for, not by the word.
    server.context.db
      .prepare("UPDATE elevation_requests SET status = 'denied' WHERE id = ?")
      .run(requestOf.get(ids.b1));
    expect(idsOf(await search('elevation', tok.orgAdminB), 'elevation_requests')).toEqual([]);
    expect(idsOf(await search('zapwidget', tok.orgAdminB), 'elevation_requests')).toEqual([
      requestOf.get(ids.b1),
    ]);
    server.context.db
      .prepare("UPDATE elevation_requests SET status = 'pending' WHERE id = ?")
      .run(requestOf.get(ids.b1));
  });
});

function requestHost(orgId: string): string {
  const row = server.context.db
    .prepare('SELECT device_id FROM elevation_requests WHERE id = ?')
    .get(requestOf.get(orgId)) as { device_id: string };
  return row.device_id;
}

describe('GET /search: elevation rules', () => {
  it('finds rules by name or signer for callers who manage elevation policy, in their organizations', async () => {
    const expectations: Array<[string, string[]]> = [
      [tok.system, sorted(ruleOf.get(ids.a1), ruleOf.get(ids.a2), ruleOf.get(ids.b1))],
      [tok.partnerSelected, sorted(ruleOf.get(ids.a1))],
      [tok.orgAdmin, sorted(ruleOf.get(ids.a1))],
      [tok.orgAdminB, sorted(ruleOf.get(ids.b1))],
      // No pam:manage_policy: the rules are not offered (their page is not either).
      [tok.orgTech, []],
    ];
    for (const text of ['installer', 'zapwidget ltd'])
      for (const [token, expected] of expectations)
        expect(idsOf(await search(text, token), 'elevation_rules'), text).toEqual(expected);
    expect(ofType(await search('installer', tok.orgAdmin), 'elevation_rules')[0]).toMatchObject({
      title: 'Zapwidget installer',
      description: 'Require approval · Alpha One',
      href: `/pam/rules/${ruleOf.get(ids.a1)}?orgId=${ids.a1}`,
    });
  });
});

describe('GET /search: organizations and users', () => {
  it('finds organizations in the caller’s scope by name', async () => {
    expect(idsOf(await search('alpha', tok.system), 'organizations')).toEqual(sorted(ids.a1, ids.a2));
    expect(idsOf(await search('alpha', tok.partnerSelected), 'organizations')).toEqual([ids.a1]);
    expect(idsOf(await search('o', tok.orgAdminB), 'organizations')).toEqual([ids.b1]);
    expect(idsOf(await search('alpha', tok.orgAdminB), 'organizations')).toEqual([]);
    expect(ofType(await search('bravo', tok.system), 'organizations')[0]).toMatchObject({
      title: 'Bravo One',
      href: `/tenants/orgs/${ids.b1}`,
    });
  });

  it('finds people by name or email as the Users page would list them', async () => {
    expect(idsOf(await search('quill', tok.system), 'users')).toEqual(
      sorted(quillOf.get(ids.a1), quillOf.get(ids.a2), quillOf.get(ids.b1)),
    );
    expect(idsOf(await search('quill', tok.partnerAll), 'users')).toEqual(
      sorted(quillOf.get(ids.a1), quillOf.get(ids.a2)),
    );
    expect(idsOf(await search('quill', tok.orgAdminB), 'users')).toEqual([quillOf.get(ids.b1)]);
    // No users:read; and a partner user limited to some organizations, whom the Users page refuses too.
    expect(idsOf(await search('quill', tok.orgTech), 'users')).toEqual([]);
    expect(idsOf(await search('quill', tok.partnerSelected), 'users')).toEqual([]);
    const hit = ofType(await search('quill', tok.orgAdmin), 'users')[0]!;
    expect(hit.href).toBe(`/users?q=${encodeURIComponent(hit.description!.split(' · ')[0]!)}`);
  });

  it('gives an API key its organization’s records but no pages and no people', async () => {
    const res = await byKey('zapwidget');
    expect(res.status).toBe(200);
    expect(idsOf(res, 'elevation_requests')).toEqual([requestOf.get(ids.a2)]);
    expect(idsOf(await byKey('alpha'), 'organizations')).toEqual([ids.a2]);
    expect(ofType(await byKey('quill'), 'users')).toEqual([]);
    expect(ofType(await byKey('approval'), 'settings')).toEqual([]);
  });
});

describe('GET /search: sharing the limit', () => {
  it('gives every kind with matches a turn before any kind gets a second', async () => {
    const res = await search('zapwidget', tok.system, 4);
    expect(res.body.results.map((r) => r.type)).toEqual([
      'elevation_requests',
      'elevation_requests',
      'elevation_rules',
      'elevation_rules',
    ]);
    const mixed = await search('a', tok.system, 6);
    const types = mixed.body.results.map((r) => r.type);
    expect(types).toHaveLength(6);
    expect(new Set(types)).toEqual(
      new Set(['settings', 'devices', 'elevation_requests', 'elevation_rules', 'organizations', 'users']),
    );
  });
});
