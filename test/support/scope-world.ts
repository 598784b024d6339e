import { randomBytes, randomUUID } from 'node:crypto';
import { mintEnrollmentKey, TestAgent } from './agent-client';
import { seedKeyCallers } from './key-callers';
import {
  insertApiKey,
  insertOrgUser,
  insertPamRule,
  insertPartnerUser,
  insertSite,
  mfaToken,
  PASSWORD,
  restrictOrgUser,
  ROLES,
} from './seed';
import type { TestServer } from './server';

// A tenant world with devices placed inside and outside restricted users' sites and device groups, every kind of
// caller, and for each caller the ids it must never see. Suites that probe the whole API for scope leaks (the
// fuzz suite) assert that no answer to a caller contains one of its forbidden ids.
//
// Tenants (the key-caller tree): partner P1 owns organizations A1 and A2, partner P2 owns B1. A1 has sites HQ and
// Branch and device groups G (the restricted user's) and H. Devices:
//   A1: hq-g (HQ, in G), hq (HQ, no group), branch-g (Branch, in G), branch-h (Branch, in H), nosite (no site)
//   A2: a2 (its site)        B1: b1 (its site, in B1's group)
// Every device reported its posture, raised one elevation request, uploaded an event log and a diagnostic log entry
// with text unique to it, and carries one tag. A1 and B1 each hold a saved filter and a PAM rule; their ids, and
// their sites' and groups', are out of scope for other organizations.

/** Every fixture hostname starts with this (a search for it finds them all); every fixture device carries TAG. */
export const HOST_PREFIX = 'fzh-';
export const TAG = 'fz-tag';
/** The management-posture product every fixture device reports. */
export const POSTURE_PRODUCT = 'Defender';

export type ResourceKind = 'organization' | 'site' | 'group' | 'filter' | 'rule' | 'device' | 'elevation';

export interface WorldDevice {
  label: string;
  id: string;
  agentId: string;
  hostname: string;
  orgId: string;
  siteId: string | null;
  groupIds: string[];
  elevationId: string;
  /** Unique text in the device's event log and diagnostic log entries: whoever reads them can be told. */
  markers: string[];
}

/** Who a caller is and what it may see. `forbidden`: every id and hostname no answer to it may contain. */
export interface WorldCaller {
  name: string;
  headers: Record<string, string>;
  forbidden: ReadonlySet<string>;
}

export interface ScopeWorld {
  orgs: { a1: string; a2: string; b1: string };
  /** The world's resources by kind (organizations, their sites, groups, filters and rules, devices, elevations). */
  resources: Array<{ id: string; kind: ResourceKind }>;
  partners: { p1: string; p2: string };
  devices: WorldDevice[];
  callers: WorldCaller[];
  /** Every id the world holds (for probing read routes with real ids). */
  ids: string[];
  /** What each id or hostname of the world is, for failure messages. */
  labels: Map<string, string>;
}

interface Visibility {
  orgs: ReadonlySet<string>;
  /** Null: every site (and no site); a set: only devices placed in one of these sites. */
  sites: ReadonlySet<string> | null;
  /** Null: every device group; a set: only devices that are members of one of these groups. */
  groups: ReadonlySet<string> | null;
  /** False for API keys whose scopes do not reach device data. */
  devices: boolean;
}

const unique = (prefix: string, label: string) => `${prefix}${label}-${randomBytes(4).toString('hex')}`;
const now = () => new Date().toISOString();

export async function seedScopeWorld(server: TestServer): Promise<ScopeWorld> {
  const { ids, tok } = await seedKeyCallers(server);
  const db = server.context.db;
  const { a1, a2, b1, p1, p2, siteA1: hq, siteB1 } = ids;
  const branch = insertSite(server, a1, 'Alpha Branch');
  const siteA2 = insertSite(server, a2, 'Alpha Two HQ');

  const insertGroup = (orgId: string, name: string) => {
    const id = randomUUID();
    db.prepare(
      'INSERT INTO device_groups (id, org_id, site_id, name, created_at, updated_at) VALUES (?, ?, NULL, ?, ?, ?)',
    ).run(id, orgId, name, now(), now());
    return id;
  };
  const groupG = insertGroup(a1, 'Restricted group');
  const groupH = insertGroup(a1, 'Other group');
  const groupB = insertGroup(b1, 'Bravo group');

  // Devices enroll as agents do, so their rows, logs and elevation requests are the server's own.
  const placements: Array<{ label: string; orgId: string; siteId: string | null; groupIds: string[] }> = [
    { label: 'a1-hq-g', orgId: a1, siteId: hq, groupIds: [groupG] },
    { label: 'a1-hq', orgId: a1, siteId: hq, groupIds: [] },
    { label: 'a1-branch-g', orgId: a1, siteId: branch, groupIds: [groupG] },
    { label: 'a1-branch-h', orgId: a1, siteId: branch, groupIds: [groupH] },
    { label: 'a1-nosite', orgId: a1, siteId: null, groupIds: [] },
    { label: 'a2', orgId: a2, siteId: siteA2, groupIds: [] },
    { label: 'b1', orgId: b1, siteId: siteB1, groupIds: [groupB] },
  ];
  const addMember = db.prepare(
    'INSERT INTO device_group_members (group_id, device_id, added_at) VALUES (?, ?, ?)',
  );
  const addTag = db.prepare('INSERT INTO device_tags (device_id, tag) VALUES (?, ?)');
  const devices: WorldDevice[] = [];
  for (const place of placements) {
    const key = mintEnrollmentKey(server, place.orgId, { siteId: place.siteId }).key;
    const agent = await TestAgent.enroll(server, key, { hostname: unique(HOST_PREFIX, place.label) });
    for (const groupId of place.groupIds) addMember.run(groupId, agent.creds.deviceId, now());
    addTag.run(agent.creds.deviceId, TAG);
    const markers = [unique('fzm-event-', place.label), unique('fzm-log-', place.label)];
    const at = now();
    await agent.heartbeat({ managementPosture: [{ product: POSTURE_PRODUCT, status: 'active' }] });
    await agent.eventlogs([
      {
        timestamp: at,
        level: 'error',
        category: 'security',
        source: 'Fixture',
        eventId: 4625,
        message: markers[0],
      },
    ]);
    await agent.logs([{ timestamp: at, level: 'warn', component: 'fixture', message: markers[1] }]);
    const elevation = await agent.api.request('POST', `${agent.path}/elevation-requests`, {
      token: agent.creds.authToken,
      body: {
        subject_username: 'alice',
        target_executable_path: 'C:\\Tools\\setup.exe',
        target_executable_hash: randomBytes(32).toString('hex'),
        flow_type: 'uac_intercept',
      },
    });
    if (elevation.status !== 201) throw new Error(`elevation request: ${JSON.stringify(elevation.body)}`);
    devices.push({
      label: place.label,
      id: agent.creds.deviceId,
      agentId: agent.creds.agentId,
      hostname: (
        db.prepare('SELECT hostname FROM devices WHERE id = ?').get(agent.creds.deviceId) as {
          hostname: string;
        }
      ).hostname,
      orgId: place.orgId,
      siteId: place.siteId,
      groupIds: place.groupIds,
      elevationId: elevation.body.id as string,
      markers,
    });
  }

  // Organization-owned resources beside the devices (after the elevation requests, so no rule decides them).
  const insertFilter = (orgId: string) => {
    const id = randomUUID();
    db.prepare(
      'INSERT INTO saved_filters (id, org_id, name, conditions, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(
      id,
      orgId,
      'Windows',
      JSON.stringify({
        operator: 'AND',
        conditions: [{ field: 'osType', operator: 'equals', value: 'windows' }],
      }),
      ids.adminId,
      now(),
      now(),
    );
    return id;
  };
  const owned: Record<string, Array<{ id: string; kind: ResourceKind; label: string }>> = {
    [a1]: [
      { id: hq, kind: 'site', label: 'site HQ of A1' },
      { id: branch, kind: 'site', label: 'site Branch of A1' },
      { id: groupG, kind: 'group', label: 'device group G of A1' },
      { id: groupH, kind: 'group', label: 'device group H of A1' },
      { id: insertFilter(a1), kind: 'filter', label: 'saved filter of A1' },
      {
        id: insertPamRule(server, a1, { match_path_glob: 'C:\\none\\*' }),
        kind: 'rule',
        label: 'PAM rule of A1',
      },
    ],
    [a2]: [{ id: siteA2, kind: 'site', label: 'site of A2' }],
    [b1]: [
      { id: siteB1, kind: 'site', label: 'site of B1' },
      { id: groupB, kind: 'group', label: 'device group of B1' },
      { id: insertFilter(b1), kind: 'filter', label: 'saved filter of B1' },
      {
        id: insertPamRule(server, b1, { match_path_glob: 'C:\\none\\*' }),
        kind: 'rule',
        label: 'PAM rule of B1',
      },
    ],
  };

  // The callers the key-caller tree lacks: partner technicians (all organizations, and a helpdesk limited to A1),
  // a read-only user, and organization administrators restricted to a site and to a device group (administrators,
  // so every route is open to them and only the restriction stands between them and other devices).
  await insertPartnerUser(server, p1, ROLES.partnerTechnician, 'tech@p1.test', { orgAccess: 'all' });
  await insertPartnerUser(server, p1, ROLES.partnerTechnician, 'helpdesk@p1.test', {
    orgAccess: 'selected',
    orgIds: [a1],
  });
  await insertOrgUser(server, a1, ROLES.orgReadOnly, 'readonly@a1.test');
  const siteUser = await insertOrgUser(server, a1, ROLES.orgAdmin, 'site@a1.test');
  restrictOrgUser(server, siteUser, { siteIds: [hq] });
  const groupUser = await insertOrgUser(server, a1, ROLES.orgAdmin, 'group@a1.test');
  restrictOrgUser(server, groupUser, { deviceGroupIds: [groupG] });

  // API keys of A1 with a few scopes, and one of B1. A generous hourly limit: a long fuzz run must not turn every
  // later case into 429.
  const key = (orgId: string, scopes: string[]) => {
    const created = insertApiKey(server, orgId, scopes);
    db.prepare('UPDATE api_keys SET rate_limit = 100000 WHERE id = ?').run(created.id);
    return created.key;
  };

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const apiKey = (raw: string) => ({ 'x-api-key': raw });
  const all = new Set([a1, a2, b1]);
  const only = (...orgs: string[]) => new Set(orgs);
  const none = new Set<string>();
  const see = (orgs: ReadonlySet<string>, more: Partial<Visibility> = {}): Visibility => ({
    orgs,
    sites: null,
    groups: null,
    devices: true,
    ...more,
  });
  const callers: Array<{ name: string; headers: Record<string, string>; sees: Visibility }> = [
    { name: 'anonymous', headers: {}, sees: see(none) },
    { name: 'system admin', headers: bearer(tok.system), sees: see(all) },
    { name: 'partner admin (all orgs)', headers: bearer(tok.partnerAll), sees: see(only(a1, a2)) },
    { name: 'partner admin (A1 only)', headers: bearer(tok.partnerSelected), sees: see(only(a1)) },
    { name: 'partner admin (no orgs)', headers: bearer(tok.partnerNone), sees: see(none) },
    {
      name: 'partner technician',
      headers: bearer(await mfaToken(server, 'tech@p1.test', PASSWORD)),
      sees: see(only(a1, a2)),
    },
    {
      name: 'helpdesk technician (A1 only)',
      headers: bearer(await mfaToken(server, 'helpdesk@p1.test', PASSWORD)),
      sees: see(only(a1)),
    },
    { name: 'org admin A1', headers: bearer(tok.orgAdmin), sees: see(only(a1)) },
    { name: 'org technician A1', headers: bearer(tok.orgTech), sees: see(only(a1)) },
    { name: 'org admin A1 without MFA', headers: bearer(tok.noMfa), sees: see(only(a1)) },
    {
      name: 'read-only user A1',
      headers: bearer(await mfaToken(server, 'readonly@a1.test', PASSWORD)),
      sees: see(only(a1)),
    },
    {
      name: 'site-restricted admin A1 (HQ)',
      headers: bearer(await mfaToken(server, 'site@a1.test', PASSWORD)),
      sees: see(only(a1), { sites: new Set([hq]) }),
    },
    {
      name: 'group-restricted admin A1 (G)',
      headers: bearer(await mfaToken(server, 'group@a1.test', PASSWORD)),
      sees: see(only(a1), { groups: new Set([groupG]) }),
    },
    { name: 'org admin B1', headers: bearer(tok.orgAdminB), sees: see(only(b1)) },
    { name: 'API key A1 *', headers: apiKey(key(a1, ['*'])), sees: see(only(a1)) },
    { name: 'API key A1 devices:read', headers: apiKey(key(a1, ['devices:read'])), sees: see(only(a1)) },
    {
      name: 'API key A1 organizations:read',
      headers: apiKey(key(a1, ['organizations:read'])),
      sees: see(only(a1), { devices: false }),
    },
    { name: 'API key A1 no scopes', headers: apiKey(key(a1, [])), sees: see(only(a1), { devices: false }) },
    { name: 'API key B1 *', headers: apiKey(key(b1, ['*'])), sees: see(only(b1)) },
  ];

  const visible = (v: Visibility, d: WorldDevice) =>
    v.devices &&
    v.orgs.has(d.orgId) &&
    (v.sites === null || (d.siteId !== null && v.sites.has(d.siteId))) &&
    (v.groups === null || d.groupIds.some((g) => v.groups!.has(g)));
  const forbiddenFor = (v: Visibility): Set<string> => {
    const out = new Set<string>();
    for (const orgId of [a1, a2, b1]) {
      if (v.orgs.has(orgId)) continue;
      out.add(orgId);
      for (const { id } of owned[orgId] ?? []) out.add(id);
    }
    for (const d of devices) {
      if (visible(v, d)) continue;
      out.add(d.id);
      out.add(d.hostname);
      out.add(d.elevationId);
      for (const marker of d.markers) out.add(marker);
    }
    return out;
  };

  const ownedList = Object.values(owned).flat();
  return {
    orgs: { a1, a2, b1 },
    resources: [
      ...[a1, a2, b1].map((id) => ({ id, kind: 'organization' as const })),
      ...ownedList.map(({ id, kind }) => ({ id, kind })),
      ...devices.flatMap((d) => [
        { id: d.id, kind: 'device' as const },
        { id: d.elevationId, kind: 'elevation' as const },
      ]),
    ],
    partners: { p1, p2 },
    devices,
    callers: callers.map((c) => ({
      name: c.name,
      headers: c.headers,
      forbidden: forbiddenFor(c.sees),
    })),
    ids: [
      a1,
      a2,
      b1,
      p1,
      p2,
      ids.adminId,
      ids.orgAdminId,
      siteUser,
      groupUser,
      ...ownedList.map(({ id }) => id),
      ...devices.flatMap((d) => [d.id, d.elevationId, d.agentId]),
    ],
    labels: new Map([
      [a1, 'organization A1'],
      [a2, 'organization A2'],
      [b1, 'organization B1'],
      ...ownedList.map(({ id, label }): [string, string] => [id, label]),
      ...devices.flatMap((d): Array<[string, string]> => [
        [d.id, `device ${d.label}`],
        [d.hostname, `hostname of device ${d.label}`],
        [d.elevationId, `elevation request of device ${d.label}`],
        ...d.markers.map((m): [string, string] => [m, `log entry of device ${d.label}`]),
      ]),
    ]),
  };
}
