import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ElevationRequest } from '../../server/contract';
import { insertOrgUser, restrictOrgUser, ROLES, signedToken } from '../support/seed';
import {
  server,
  orgId,
  otherOrg,
  siteA,
  agent,
  agentB,
  otherAgent,
  tech,
  siteTech,
  outsider,
  db,
  report,
  usePamRequestsWorld,
} from '../support/pam-requests-world';

// The approvals inbox list (issue 16 item 2): filters by risk, flow, organization, site, device and user, the
// search, the triage order (critical first, then the longest waiting), paging, organization and site names in
// each item, and scope (a site- or device-group-restricted technician sees only its devices' requests).

usePamRequestsWorld();

let groupTech: string;

beforeAll(async () => {
  // A technician limited to one device group holding only WS-BOB (the group is made through the API).
  await insertOrgUser(server, orgId, ROLES.orgAdmin, 'inbox-admin@contoso.test');
  const admin = await signedToken(server, 'inbox-admin@contoso.test');
  const group = await server.api.post('/groups', { name: 'Warehouse PCs' }, admin);
  expect(group.status).toBe(201);
  const added = await server.api.post(
    `/groups/${group.body.id}/devices`,
    { deviceIds: [agentB.creds.deviceId] },
    admin,
  );
  expect(added.status).toBe(200);
  const userId = await insertOrgUser(server, orgId, ROLES.orgTechnician, 'grouptech@contoso.test');
  restrictOrgUser(server, userId, { deviceGroupIds: [group.body.id as string] });
  groupTech = await signedToken(server, 'grouptech@contoso.test');
});

/** A pending request with a marker in its path (so a suite finds its own rows), waiting `minutesAgo`. */
async function pending(
  marker: string,
  opts: { risk?: string; minutesAgo?: number; user?: string; who?: typeof agent } = {},
): Promise<string> {
  const res = await report(
    {
      target_executable_path: `C:\\Tools\\${marker}\\setup.exe`,
      ...(opts.user ? { subject_username: opts.user } : {}),
    },
    opts.who ?? agent,
  );
  expect(res.status).toBe(201);
  const id = res.body.id as string;
  const at = new Date(Date.now() - (opts.minutesAgo ?? 0) * 60_000).toISOString();
  // Risk follows from the report (signed UAC prompts are medium); set it to cover every level.
  db()
    .prepare(
      'UPDATE elevation_requests SET requested_at = ?, risk_level = COALESCE(?, risk_level) WHERE id = ?',
    )
    .run(at, opts.risk ?? null, id);
  return id;
}

const list = async (token: string, query: Record<string, string | number>) => {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  const res = await server.api.get(`/pam/elevation-requests?${qs}`, token);
  expect(res.status).toBe(200);
  return res.body as {
    requests: ElevationRequest[];
    pagination: { page: number; limit: number; total: number };
  };
};
const ids = (body: { requests: ElevationRequest[] }) => body.requests.map((r) => r.id);

describe('triage order', () => {
  it('lists pending requests critical first, the longest waiting first within a risk, by default', async () => {
    const m = `triage-${randomUUID().slice(0, 8)}`;
    const mediumOld = await pending(m, { risk: 'medium', minutesAgo: 12 });
    const criticalNew = await pending(m, { risk: 'critical', minutesAgo: 1 });
    const lowOldest = await pending(m, { risk: 'low', minutesAgo: 14 });
    const criticalOld = await pending(m, { risk: 'critical', minutesAgo: 9 });
    const high = await pending(m, { risk: 'high', minutesAgo: 3 });
    const expected = [criticalOld, criticalNew, high, mediumOld, lowOldest];
    expect(ids(await list(tech, { status: 'pending', q: m }))).toEqual(expected);
    expect(ids(await list(tech, { status: 'pending', q: m, order: 'risk' }))).toEqual(expected);
    // Other orders stay available; without status=pending the default stays newest first (a log).
    expect(ids(await list(tech, { status: 'pending', q: m, order: 'oldest' }))).toEqual([
      lowOldest,
      mediumOld,
      criticalOld,
      high,
      criticalNew,
    ]);
    expect(ids(await list(tech, { q: m }))[0]).toBe(criticalNew);
  });

  it('pages through thousands without overlap or gaps, with the total', async () => {
    const m = `paging-${randomUUID().slice(0, 8)}`;
    const made = [];
    for (let i = 0; i < 23; i += 1) {
      db().prepare('DELETE FROM rate_limits').run();
      made.push(
        await pending(m, { risk: ['low', 'medium', 'high', 'critical'][i % 4]!, minutesAgo: i % 10 }),
      );
    }
    const seen: string[] = [];
    for (let page = 1; page <= 3; page += 1) {
      const body = await list(tech, { status: 'pending', q: m, limit: 10, page });
      expect(body.pagination).toEqual({ page, limit: 10, total: 23 });
      seen.push(...ids(body));
    }
    expect(seen).toHaveLength(23);
    expect(new Set(seen)).toEqual(new Set(made));
    const all = await list(tech, { status: 'pending', q: m, limit: 100 });
    expect(ids(all)).toEqual(seen);
  });
});

describe('filters and search', () => {
  it('filters by risk (several at once), flow, site, device (id or hostname) and user', async () => {
    const m = `filters-${randomUUID().slice(0, 8)}`;
    const critical = await pending(m, { risk: 'critical', user: 'CORP\\carol' });
    const high = await pending(m, { risk: 'high', who: agentB });
    const low = await pending(m, { risk: 'low' });
    expect(ids(await list(tech, { q: m, riskLevel: 'critical' }))).toEqual([critical]);
    expect(new Set(ids(await list(tech, { q: m, riskLevel: 'critical,high' })))).toEqual(
      new Set([critical, high]),
    );
    expect(ids(await list(tech, { q: m, deviceId: agentB.creds.deviceId }))).toEqual([high]);
    expect(new Set(ids(await list(tech, { q: m, siteId: siteA })))).toEqual(new Set([critical, low]));
    expect(ids(await list(tech, { q: m, user: 'corp\\CAROL' }))).toEqual([critical]);
    expect(ids(await list(tech, { q: m, user: 'carol' }))).toEqual([critical]);
    expect(ids(await list(tech, { q: m, device: 'ws-b' }))).toEqual([high]);
    expect(ids(await list(tech, { q: m, flowType: 'ai_tool_action' }))).toEqual([]);
    expect((await list(tech, { q: m, flowType: 'uac_intercept' })).pagination.total).toBe(3);
  });

  it('searches executable path, signer, user and device hostname, case-insensitive, with LIKE characters literal', async () => {
    const m = `search-${randomUUID().slice(0, 8)}`;
    const onBob = await pending(m, { who: agentB, user: 'CORP\\dave_m' });
    const onAlice = await pending(m);
    expect(new Set(ids(await list(tech, { q: m.toUpperCase() })))).toEqual(new Set([onBob, onAlice]));
    expect(ids(await list(tech, { q: m, user: 'CORP\\dave_m' }))).toEqual([onBob]);
    const byHost = ids(await list(tech, { q: 'ws-bob', limit: 100 }));
    expect(byHost).toContain(onBob);
    expect(byHost).not.toContain(onAlice);
    expect(ids(await list(tech, { q: 'dave_m' }))).toEqual([onBob]);
    // `_` and `%` are literal: "dave%" matches nothing.
    expect(ids(await list(tech, { q: 'dave%' }))).toEqual([]);
    expect(ids(await list(tech, { q: `${m} zoom video` }))).toEqual([]);
    const bySigner = ids(await list(tech, { q: 'zoom video communications', limit: 100 }));
    expect(bySigner).toEqual(expect.arrayContaining([onBob, onAlice]));
  });

  it('names the organization and the site of each request', async () => {
    const m = `names-${randomUUID().slice(0, 8)}`;
    const id = await pending(m, { who: agentB });
    const [item] = (await list(tech, { q: m })).requests;
    expect(item).toMatchObject({ id, orgId, orgName: 'Contoso', siteName: 'Warehouse' });
  });

  it('refuses bad filters with a 400 that names them', async () => {
    for (const [query, message] of [
      ['riskLevel=severe', 'riskLevel must be a comma-separated list of low, medium, high, critical'],
      ['order=random', 'order'],
      ['q=', 'q must not be empty'],
      ['orgId=nope', 'orgId must be a UUID'],
    ] as const) {
      const res = await server.api.get(`/pam/elevation-requests?${query}`, tech);
      expect(res.status, query).toBe(400);
      expect(res.body.error, query).toContain(message);
    }
  });
});

describe('scope', () => {
  it('shows a restricted technician only the requests of its sites or device groups, whatever the filters', async () => {
    const m = `scope-${randomUUID().slice(0, 8)}`;
    const onAlice = await pending(m, { risk: 'critical' });
    const onBob = await pending(m, { risk: 'critical', who: agentB });
    const elsewhere = await pending(m, { risk: 'critical', who: otherAgent });
    expect(new Set(ids(await list(tech, { q: m })))).toEqual(new Set([onAlice, onBob]));
    for (const token of [siteTech, groupTech]) {
      expect(ids(await list(token, { q: m }))).toEqual([onBob]);
      expect(ids(await list(token, { q: m, deviceId: agent.creds.deviceId }))).toEqual([]);
      expect((await list(token, { q: m, riskLevel: 'critical' })).pagination.total).toBe(1);
    }
    expect(ids(await list(outsider, { q: m }))).toEqual([elsewhere]);
    // Asking for an organization outside an organization user's scope is refused, not an empty list.
    expect((await server.api.get(`/pam/elevation-requests?orgId=${otherOrg}`, tech)).status).toBe(403);
  });
});
