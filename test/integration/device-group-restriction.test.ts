// Over 400 lines: one scenario world shared by every case below (a split restarts it per file); to be split by
// describe block over a test/support world, as the devices and tenancy suites were.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleServerMessage } from '../../server/contract';
import {
  mintEnrollmentKey,
  startAgentServer,
  TestAgent,
  type AgentSocket,
  type CommandMessage,
} from '../support/agent-client';
import { consoleSocketFor, type ConsoleSocket } from '../support/console-client';
import {
  insertOrg,
  insertOrgUser,
  insertPamRule,
  insertPartner,
  insertSite,
  restrictOrgUser,
  ROLES,
  signedToken,
} from '../support/seed';
import { ADMIN, type ApiResponse, type TestServer } from '../support/server';

// Organization users restricted to device groups (spec 1, organization-user association `deviceGroupIds`): every
// device route, the elevation requests and their inbox, the console pushes and the administration around them
// stay inside the user's groups; with a site restriction too, both apply. Contoso has sites North and South and
// the groups Inside and Outside; the devices:
//   in-north (North, Inside)   out-north (North, Outside)   loose (North, no group)
//   in-south (South, Inside)   spare (North, Inside; decommissioned at the end)

let server: TestServer;
const ids = { contoso: '', initech: '', north: '', south: '', inside: '', outside: '', foreign: '' };
const dev = { inNorth: '', outNorth: '', loose: '', inSouth: '', spare: '' };
const tok = { system: '', orgAdmin: '', tech: '', both: '', stale: '', groupAdmin: '' };
const users = { tech: '', plain: '', target: '' };
const agents: Record<'inNorth' | 'outNorth', TestAgent | null> = { inNorth: null, outNorth: null };
const sockets: AgentSocket[] = [];
/** Live queries the agents were asked, by device. */
const asked: Array<{ deviceId: string; command: CommandMessage }> = [];

const db = () => server.context.db;
const idsOf = (res: ApiResponse): string[] =>
  (res.body.data as Array<{ id: string }>).map((d) => d.id).sort();
const sorted = (...list: string[]) => [...list].sort();
const get = (path: string, token: string) => server.api.get(path, token);
const post = (path: string, body: unknown, token: string) => server.api.post(path, body, token);
const patch = (path: string, body: unknown, token: string) =>
  server.api.request('PATCH', path, { token, body });
const del = (path: string, token: string) => server.api.request('DELETE', path, { token });

function expectError(res: ApiResponse, status: number, error: string, code?: string): void {
  expect({ status: res.status, error: res.body?.error }).toEqual({ status, error });
  if (code) expect(res.body.code).toBe(code);
}
const expectNoDevice = (res: ApiResponse) => expectError(res, 404, 'Device not found');

async function enroll(hostname: string, siteId: string): Promise<TestAgent> {
  return TestAgent.enroll(server, mintEnrollmentKey(server, ids.contoso, { siteId }).key, { hostname });
}

async function createGroup(name: string, deviceIds: string[], token = tok.orgAdmin, orgId?: string) {
  const group = await post('/groups', { name, ...(orgId ? { orgId } : {}) }, token);
  expect(group.status).toBe(201);
  if (deviceIds.length > 0)
    expect((await post(`/groups/${group.body.id}/devices`, { deviceIds }, token)).status).toBe(200);
  return group.body.id as string;
}

/** An elevation request reported by the agent of a device. */
async function report(agent: TestAgent): Promise<string> {
  const res = await agent.api.post(
    `${agent.path}/elevation-requests`,
    {
      subject_username: 'CORP\\alice',
      target_executable_path: 'C:\\Users\\alice\\Downloads\\ZoomInstaller.exe',
      target_executable_hash: 'a'.repeat(64),
      target_executable_signer: 'Zoom Video Communications, Inc.',
      pid: 4242,
      observed_at: new Date().toISOString(),
    },
    agent.creds.authToken,
  );
  expect(res.status).toBe(201);
  return res.body.id as string;
}

const slotHolders = (requestId: string) =>
  (
    db()
      .prepare('SELECT approver_user_id FROM elevation_approvals WHERE elevation_request_id = ?')
      .all(requestId) as Array<{ approver_user_id: string }>
  ).map((r) => r.approver_user_id);

const commandsOf = (deviceId: string) =>
  (
    db().prepare('SELECT type FROM device_commands WHERE device_id = ?').all(deviceId) as Array<{
      type: string;
    }>
  )
    .map((r) => r.type)
    .sort();

beforeAll(async () => {
  server = await startAgentServer();
  const acme = insertPartner(server, { name: 'Acme MSP' });
  ids.contoso = insertOrg(server, acme.partnerId, 'Contoso');
  ids.initech = insertOrg(server, insertPartner(server, { name: 'Other MSP' }).partnerId, 'Initech');
  ids.north = insertSite(server, ids.contoso, 'North');
  ids.south = insertSite(server, ids.contoso, 'South');

  const inNorth = await enroll('dgr-in-north', ids.north);
  const outNorth = await enroll('dgr-out-north', ids.north);
  agents.inNorth = inNorth;
  agents.outNorth = outNorth;
  dev.inNorth = inNorth.creds.deviceId;
  dev.outNorth = outNorth.creds.deviceId;
  dev.loose = (await enroll('dgr-loose', ids.north)).creds.deviceId;
  dev.inSouth = (await enroll('dgr-in-south', ids.south)).creds.deviceId;
  dev.spare = (await enroll('dgr-spare', ids.north)).creds.deviceId;
  // Every device reports a management product, so the posture drill-down lists them all to an unrestricted caller.
  db()
    .prepare('UPDATE devices SET management_posture = ?, posture_reported_at = ?')
    .run(JSON.stringify([{ product: 'TeamViewer', status: 'installed' }]), new Date().toISOString());

  await insertOrgUser(server, ids.contoso, ROLES.orgAdmin, 'admin@contoso.test');
  tok.system = await signedToken(server, ADMIN.email);
  tok.orgAdmin = await signedToken(server, 'admin@contoso.test');
  ids.inside = await createGroup('Inside', [dev.inNorth, dev.inSouth, dev.spare]);
  ids.outside = await createGroup('Outside', [dev.outNorth]);
  ids.foreign = await createGroup('Initech servers', [], tok.system, ids.initech);
  const gone = await createGroup('Gone', [dev.inNorth]);

  users.tech = await insertOrgUser(server, ids.contoso, ROLES.orgTechnician, 'tech@contoso.test');
  restrictOrgUser(server, users.tech, { deviceGroupIds: [ids.inside] });
  const both = await insertOrgUser(server, ids.contoso, ROLES.orgTechnician, 'both@contoso.test');
  restrictOrgUser(server, both, { siteIds: [ids.north], deviceGroupIds: [ids.inside] });
  const stale = await insertOrgUser(server, ids.contoso, ROLES.orgTechnician, 'stale@contoso.test');
  restrictOrgUser(server, stale, { deviceGroupIds: [gone] });
  const groupAdmin = await insertOrgUser(server, ids.contoso, ROLES.orgAdmin, 'group-admin@contoso.test');
  restrictOrgUser(server, groupAdmin, { deviceGroupIds: [ids.inside] });
  users.plain = await insertOrgUser(server, ids.contoso, ROLES.orgTechnician, 'plain@contoso.test');
  users.target = await insertOrgUser(server, ids.contoso, ROLES.orgTechnician, 'target@contoso.test');
  restrictOrgUser(server, users.target, { deviceGroupIds: [ids.inside] });
  // The stale technician's only group is deleted: the id stays in their list and grants nothing.
  expect((await del(`/groups/${gone}`, tok.orgAdmin)).status).toBe(200);

  tok.tech = await signedToken(server, 'tech@contoso.test');
  tok.both = await signedToken(server, 'both@contoso.test');
  tok.stale = await signedToken(server, 'stale@contoso.test');
  tok.groupAdmin = await signedToken(server, 'group-admin@contoso.test');

  // Both agents answer live event-log queries, and note who was asked.
  for (const agent of [inNorth, outNorth]) {
    const socket = await agent.connect();
    socket.onCommand = (command) => {
      if (!command.commandType.startsWith('event_log')) return undefined;
      asked.push({ deviceId: agent.creds.deviceId, command });
      return { status: 'completed', result: { events: [], total: 0 } };
    };
    sockets.push(socket);
  }
}, 60_000);

afterAll(async () => {
  for (const socket of sockets) await socket.close();
  await server?.dispose();
});

describe('lists', () => {
  it('lists, searches, previews and tags only the devices of the user’s groups', async () => {
    const inside = [dev.inNorth, dev.inSouth, dev.spare];
    expect(idsOf(await get('/devices?limit=100', tok.orgAdmin))).toEqual(sorted(...Object.values(dev)));
    const list = await get('/devices?limit=100', tok.tech);
    expect(idsOf(list)).toEqual(sorted(...inside));
    expect(list.body.pagination.total).toBe(3);
    // Site and group restrictions together: the intersection.
    expect(idsOf(await get('/devices?limit=100', tok.both))).toEqual(sorted(dev.inNorth, dev.spare));
    // Narrowing by a site or a group never widens the view.
    expect(idsOf(await get(`/devices?siteId=${ids.north}`, tok.tech))).toEqual(
      sorted(dev.inNorth, dev.spare),
    );
    expect(idsOf(await get(`/devices?groupId=${ids.inside}`, tok.both))).toEqual(
      sorted(dev.inNorth, dev.spare),
    );

    const search = await get('/search?q=dgr-', tok.tech);
    expect(search.status).toBe(200);
    const found = (search.body.results as Array<{ id: string; type: string }>)
      .filter((r) => r.type === 'devices')
      .map((r) => r.id);
    expect(found.sort()).toEqual(sorted(...inside));

    const conditions = {
      operator: 'AND',
      conditions: [{ field: 'hostname', operator: 'matches', value: '^dgr-' }],
    };
    const preview = await post('/filters/preview', { conditions }, tok.tech);
    expect(preview.status).toBe(200);
    expect(preview.body.data.totalCount).toBe(3);
    expect((preview.body.data.devices as Array<{ id: string }>).map((d) => d.id).sort()).toEqual(
      sorted(...inside),
    );

    expect(
      (await patch(`/devices/${dev.outNorth}`, { tags: ['dgr-outside-tag'] }, tok.orgAdmin)).status,
    ).toBe(200);
    const tagged = await patch(`/devices/${dev.inNorth}`, { tags: ['dgr-inside-tag'] }, tok.tech);
    expect(tagged.status).toBe(200);
    const tags = await get('/tags?search=dgr-', tok.tech);
    expect((tags.body.data as Array<{ tag: string }>).map((t) => t.tag)).toEqual(['dgr-inside-tag']);
    expect(idsOf(await get('/tags/devices?tag=dgr-outside-tag', tok.tech))).toEqual([]);

    const posture = await get('/devices/management-posture/devices?product=TeamViewer', tok.tech);
    expect(posture.status).toBe(200);
    expect((posture.body.data.devices as Array<{ id: string }>).map((d) => d.id).sort()).toEqual(
      sorted(...inside),
    );
  });

  it('shows a group-restricted user only their groups, counting the members they see', async () => {
    const groups = await get('/groups', tok.tech);
    expect(groups.body.data).toEqual([expect.objectContaining({ id: ids.inside, deviceCount: 3 })]);
    expect((await get('/groups', tok.both)).body.data).toEqual([
      expect.objectContaining({ id: ids.inside, deviceCount: 2 }),
    ]);
    expectError(await get(`/groups/${ids.outside}`, tok.tech), 404, 'Device group not found');
    expectError(await get(`/groups/${ids.outside}/devices`, tok.tech), 404, 'Device group not found');
    expect(idsOf(await get(`/groups/${ids.inside}/devices`, tok.tech))).toEqual(
      sorted(dev.inNorth, dev.inSouth, dev.spare),
    );
  });

  it('leaves a user whose only group was deleted with nothing, not everything', async () => {
    const list = await get('/devices?limit=100', tok.stale);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([]);
    expectNoDevice(await get(`/devices/${dev.inNorth}`, tok.stale));
    expect((await get('/groups', tok.stale)).body.data).toEqual([]);
    expect((await get('/search?q=dgr-', tok.stale)).body.results).toEqual([]);
  });
});

describe('one device', () => {
  it('answers every device route outside the groups with 404 Device not found and serves it inside', async () => {
    for (const outside of [dev.outNorth, dev.loose]) {
      expectNoDevice(await get(`/devices/${outside}`, tok.tech));
      expectNoDevice(await patch(`/devices/${outside}`, { displayName: 'Mine now' }, tok.tech));
      expectNoDevice(await patch(`/devices/${outside}`, { tags: ['stolen'] }, tok.tech));
      expectNoDevice(await get(`/devices/${outside}/commands`, tok.tech));
      expectNoDevice(await post(`/devices/${outside}/commands`, { type: 'self_uninstall' }, tok.tech));
      expectNoDevice(await get(`/devices/${outside}/diagnostic-logs`, tok.tech));
      expectNoDevice(await get(`/devices/${outside}/eventlogs`, tok.tech));
      expectNoDevice(await get(`/devices/${outside}/eventlogs/Application/events`, tok.tech));
      expectNoDevice(await get(`/system-tools/devices/${outside}/eventlogs/Application/events`, tok.tech));
      expectNoDevice(await get(`/devices/${dev.inSouth}`, tok.both));
    }
    expect(commandsOf(dev.outNorth)).toEqual([]);
    expect(db().prepare('SELECT display_name FROM devices WHERE id = ?').get(dev.outNorth)).toEqual({
      display_name: null,
    });
    expect(asked.filter((a) => a.deviceId === dev.outNorth)).toEqual([]);

    expect((await get(`/devices/${dev.inNorth}`, tok.tech)).body.groupIds).toContain(ids.inside);
    expect((await patch(`/devices/${dev.inNorth}`, { displayName: 'Front desk' }, tok.tech)).status).toBe(
      200,
    );
    expect((await get(`/devices/${dev.inNorth}/commands`, tok.tech)).status).toBe(200);
    expect((await get(`/devices/${dev.inNorth}/diagnostic-logs`, tok.tech)).status).toBe(200);
    expect((await get(`/devices/${dev.inNorth}/eventlogs`, tok.tech)).status).toBe(200);
    const live = await get(`/devices/${dev.inNorth}/eventlogs/Application/events`, tok.tech);
    expect(live.status).toBe(200);
    expect(asked.map((a) => a.deviceId)).toEqual([dev.inNorth]);
    const queued = await post(`/devices/${dev.spare}/commands`, { type: 'self_uninstall' }, tok.tech);
    expect(queued.status).toBe(201);
  });

  it('follows group membership as it changes, on the next request', async () => {
    expect(
      (await post(`/groups/${ids.inside}/devices`, { deviceIds: [dev.outNorth] }, tok.orgAdmin)).status,
    ).toBe(200);
    expect((await get(`/devices/${dev.outNorth}`, tok.tech)).status).toBe(200);
    expect((await del(`/groups/${ids.inside}/devices/${dev.outNorth}`, tok.orgAdmin)).status).toBe(200);
    expectNoDevice(await get(`/devices/${dev.outNorth}`, tok.tech));
  });

  it('lets a group-restricted user add and remove only devices they see', async () => {
    const add = await post(`/groups/${ids.inside}/devices`, { deviceIds: [dev.outNorth] }, tok.groupAdmin);
    expect(add.status).toBe(400);
    expect(add.body.invalidDeviceIds).toEqual([dev.outNorth]);
    expectError(
      await del(`/groups/${ids.outside}/devices/${dev.outNorth}`, tok.groupAdmin),
      404,
      'Device group not found',
    );
    expectError(
      await patch(`/groups/${ids.outside}`, { name: 'Mine' }, tok.groupAdmin),
      404,
      'Device group not found',
    );
    expect(
      (await patch(`/groups/${ids.inside}`, { description: 'Front of house' }, tok.groupAdmin)).status,
    ).toBe(200);
    expectError(
      await post('/groups', { name: 'New' }, tok.groupAdmin),
      403,
      'Access limited to device groups',
    );
  });
});

describe('elevation requests', () => {
  const requests = { inside: '', outside: '' };

  beforeAll(async () => {
    requests.inside = await report(agents.inNorth!);
    requests.outside = await report(agents.outNorth!);
  });

  it('opens inbox slots only for technicians who see the device', () => {
    expect(slotHolders(requests.inside)).toContain(users.tech);
    expect(slotHolders(requests.outside)).not.toContain(users.tech);
    expect(slotHolders(requests.outside)).toContain(users.plain);
  });

  it('lists and shows only requests of the user’s devices; decisions outside are 403', async () => {
    const list = await get('/pam/elevation-requests?limit=100', tok.tech);
    const listed = (list.body.requests as Array<{ id: string }>).map((r) => r.id);
    expect(listed).toContain(requests.inside);
    expect(listed).not.toContain(requests.outside);
    expectError(
      await get(`/pam/elevation-requests/${requests.outside}`, tok.tech),
      404,
      'Elevation request not found',
    );
    expect((await get(`/pam/elevation-requests/${requests.inside}`, tok.tech)).status).toBe(200);

    const denied = await post(
      `/pam/elevation-requests/${requests.outside}/respond`,
      { decision: 'approve' },
      tok.tech,
    );
    expectError(denied, 403, 'Access limited to device groups');
    expectError(
      await post(`/mobile/approvals/${requests.outside}/approve`, {}, tok.tech),
      403,
      'Access limited to device groups',
    );
    expect(db().prepare('SELECT status FROM elevation_requests WHERE id = ?').get(requests.outside)).toEqual({
      status: 'pending',
    });
    // Both approved, by someone who may.
    for (const id of [requests.inside, requests.outside]) {
      const res = await post(`/pam/elevation-requests/${id}/respond`, { decision: 'approve' }, tok.orgAdmin);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const active = await get('/pam/active', tok.tech);
    const activeIds = (active.body.active as Array<{ id: string }>).map((r) => r.id);
    expect(activeIds).toContain(requests.inside);
    expect(activeIds).not.toContain(requests.outside);

    expectNoDevice(
      await post(
        `/devices/${dev.outNorth}/actuate-elevation`,
        { elevationRequestId: requests.outside },
        tok.tech,
      ),
    );
    expectError(
      await post(`/pam/elevation-requests/${requests.outside}/revoke`, { reason: 'Not yours' }, tok.tech),
      403,
      'Access limited to device groups',
    );
    const actuated = await post(
      `/devices/${dev.inNorth}/actuate-elevation`,
      { elevationRequestId: requests.inside },
      tok.tech,
    );
    expect(actuated.status).toBe(201);
    const revoked = await post(
      `/pam/elevation-requests/${requests.inside}/revoke`,
      { reason: 'Done' },
      tok.tech,
    );
    expect(revoked.status).toBe(200);
  });

  it('previews rules and exports the audit over the user’s devices only, and refuses rule writes', async () => {
    const preview = (token: string) =>
      post('/pam/rules/preview', { matchSigner: 'Zoom Video Communications, Inc.' }, token);
    const mine = await preview(tok.groupAdmin);
    expect(mine.status).toBe(200);
    const sampled = (mine.body.sample as Array<{ id: string }>).map((s) => s.id);
    expect(sampled).toContain(requests.inside);
    expect(sampled).not.toContain(requests.outside);
    expect((await preview(tok.orgAdmin)).body.totalMatched).toBeGreaterThan(mine.body.totalMatched as number);

    const window = {
      from: new Date(Date.now() - 3_600_000).toISOString(),
      to: new Date(Date.now() + 3_600_000).toISOString(),
    };
    const exported = async (token: string) => {
      const res = await get(
        `/pam/elevation-audit/export?${new URLSearchParams({ ...window, format: 'jsonl' })}`,
        token,
      );
      expect(res.status).toBe(200);
      const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
      return text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => (JSON.parse(line) as { deviceId: string }).deviceId);
    };
    expect(new Set(await exported(tok.groupAdmin))).toEqual(new Set([dev.inNorth]));
    expect(new Set(await exported(tok.orgAdmin))).toEqual(new Set([dev.inNorth, dev.outNorth]));

    const rule = { name: 'Zoom', verdict: 'auto_approve', matchSigner: 'Zoom Video Communications, Inc.' };
    expectError(await post('/pam/rules', rule, tok.groupAdmin), 403, 'Access limited to device groups');
    expectError(
      await post('/pam/rules', { ...rule, siteId: ids.north }, tok.groupAdmin),
      403,
      'Access limited to device groups',
    );
    const existing = insertPamRule(server, ids.contoso, { site_id: ids.north, match_signer: 'Acme' });
    expectError(
      await patch(`/pam/rules/${existing}`, { enabled: false }, tok.groupAdmin),
      403,
      'Access limited to device groups',
    );
    expectError(
      await post('/pam/signer-groups', { name: 'Vendors', signers: ['Acme'] }, tok.groupAdmin),
      403,
      'Access limited to device groups',
    );
    expect((await get('/pam/rules', tok.groupAdmin)).status).toBe(200);
  });
});

describe('console pushes', () => {
  let consoles: { tech: ConsoleSocket; both: ConsoleSocket };
  const about = (event: string, deviceId: string) => (m: ConsoleServerMessage) =>
    m.type === 'event' && m.event === event && (m.data as { deviceId: string }).deviceId === deviceId;
  const seen = (socket: ConsoleSocket, event: string, deviceId: string) =>
    socket.messages.some(about(event, deviceId));

  beforeAll(async () => {
    consoles = {
      tech: await consoleSocketFor(server.url, tok.tech),
      both: await consoleSocketFor(server.url, tok.both),
    };
  });
  afterAll(() => {
    for (const socket of Object.values(consoles)) socket.socket.close();
  });

  it('pushes device and elevation events only to consoles that could see the device', async () => {
    // Events outside first: once the inside one arrives, an outside one would have arrived before it.
    await patch(`/devices/${dev.outNorth}`, { displayName: 'Outside' }, tok.orgAdmin);
    await patch(`/devices/${dev.inSouth}`, { displayName: 'South' }, tok.orgAdmin);
    await patch(`/devices/${dev.inNorth}`, { displayName: 'Inside' }, tok.orgAdmin);
    await consoles.tech.next(about('device.updated', dev.inNorth));
    await consoles.both.next(about('device.updated', dev.inNorth));
    expect(seen(consoles.tech, 'device.updated', dev.inSouth)).toBe(true);
    expect(seen(consoles.tech, 'device.updated', dev.outNorth)).toBe(false);
    expect(seen(consoles.both, 'device.updated', dev.inSouth)).toBe(false);
    expect(seen(consoles.both, 'device.updated', dev.outNorth)).toBe(false);

    await report(agents.outNorth!);
    await report(agents.inNorth!);
    await consoles.tech.next(about('elevation.requested', dev.inNorth));
    expect(seen(consoles.tech, 'elevation.requested', dev.outNorth)).toBe(false);
  });

  it('reads group membership when it pushes', async () => {
    await post(`/groups/${ids.inside}/devices`, { deviceIds: [dev.outNorth] }, tok.orgAdmin);
    await patch(`/devices/${dev.outNorth}`, { displayName: 'Joined' }, tok.orgAdmin);
    await consoles.tech.next(about('device.updated', dev.outNorth));
    await del(`/groups/${ids.inside}/devices/${dev.outNorth}`, tok.orgAdmin);
  });
});

describe('audit log', () => {
  type Entry = { resource: { type: string; id: string | null } };
  const deviceEntries = async (token: string) => {
    const res = await get('/audit-logs/logs?limit=100', token);
    expect(res.status).toBe(200);
    return (res.body.data as Entry[]).filter((e) => e.resource.type === 'device').map((e) => e.resource.id);
  };

  it('hides entries about devices outside the groups, in the list and in the pushes', async () => {
    const groupAdmin = await consoleSocketFor(server.url, tok.groupAdmin);
    try {
      const isAudit = (deviceId: string) => (m: ConsoleServerMessage) =>
        m.type === 'event' &&
        m.event === 'audit.created' &&
        (m.data as { resourceId: string | null }).resourceId === deviceId;
      // Outside first: once the inside entry is pushed, the outside one would have been pushed before it.
      await patch(`/devices/${dev.outNorth}`, { displayName: 'Audited outside' }, tok.orgAdmin);
      await patch(`/devices/${dev.inNorth}`, { displayName: 'Audited inside' }, tok.orgAdmin);
      await groupAdmin.next(isAudit(dev.inNorth));
      expect(groupAdmin.messages.some(isAudit(dev.outNorth))).toBe(false);

      expect(await deviceEntries(tok.orgAdmin)).toContain(dev.outNorth);
      const seen = await deviceEntries(tok.groupAdmin);
      expect(seen).toContain(dev.inNorth);
      expect(seen.filter((id) => id !== null && ![dev.inNorth, dev.inSouth, dev.spare].includes(id))).toEqual(
        [],
      );
    } finally {
      groupAdmin.socket.close();
    }
  });
});

describe('administration', () => {
  const invite = (body: Record<string, unknown>, token: string) =>
    post(
      '/users/invite',
      {
        email: `new-${randomUUID().slice(0, 8)}@contoso.test`,
        name: 'New',
        roleId: ROLES.orgTechnician,
        ...body,
      },
      token,
    );

  it('checks invited device groups against the organization', async () => {
    for (const id of [ids.foreign, randomUUID()]) {
      expectError(
        await invite({ deviceGroupIds: [id] }, tok.orgAdmin),
        400,
        `deviceGroupIds: ${id} is not a device group of this organization`,
      );
    }
    const ok = await invite({ deviceGroupIds: [ids.inside, ids.inside] }, tok.orgAdmin);
    expect(ok.status).toBe(201);
    expect(
      db().prepare('SELECT device_group_ids FROM organization_users WHERE user_id = ?').get(ok.body.id),
    ).toEqual({ device_group_ids: JSON.stringify([ids.inside]) });
  });

  it('keeps a group-restricted administrator within their groups', async () => {
    for (const body of [
      {},
      { deviceGroupIds: [] },
      { deviceGroupIds: [ids.outside] },
      { deviceGroupIds: [ids.inside, ids.outside] },
    ]) {
      const res = await invite(body, tok.groupAdmin);
      expectError(res, 403, 'Access limited to device groups', 'PERMISSION_ESCALATION');
      expect(res.body.allowedDeviceGroupIds).toEqual([ids.inside]);
    }
    expect((await invite({ deviceGroupIds: [ids.inside] }, tok.groupAdmin)).status).toBe(201);
    expect(
      (await invite({ deviceGroupIds: [ids.inside], siteIds: [ids.south] }, tok.groupAdmin)).status,
    ).toBe(201);

    // A role for someone who sees more devices than the administrator would reach past their groups.
    expectError(
      await post(`/users/${users.plain}/role`, { roleId: ROLES.orgReadOnly }, tok.groupAdmin),
      403,
      'Access limited to device groups',
      'PERMISSION_ESCALATION',
    );
    expect(
      (await post(`/users/${users.target}/role`, { roleId: ROLES.orgReadOnly }, tok.groupAdmin)).status,
    ).toBe(200);
  });

  it('refuses enrollment keys to a group-restricted user: new devices would join none of their groups', async () => {
    expectError(
      await post('/enrollment-keys', { name: 'Rollout' }, tok.groupAdmin),
      403,
      'Access limited to device groups',
    );
    expectError(
      await post('/enrollment-keys', { name: 'Rollout', siteId: ids.north }, tok.groupAdmin),
      403,
      'Access limited to device groups',
    );
  });

  it('decommissions only devices of the groups', async () => {
    expectNoDevice(await del(`/devices/${dev.outNorth}`, tok.groupAdmin));
    expect(commandsOf(dev.outNorth)).toEqual([]);
    const res = await del(`/devices/${dev.spare}`, tok.groupAdmin);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('decommissioned');
  });
});
