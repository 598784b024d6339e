import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MFA_REQUIRED_MESSAGE } from '../../server/http/authenticate';
import { rolloutBucket } from '../../server/modules/agent-versions/rollout';
import { mintEnrollmentKey, startAgentServer, TestAgent } from '../support/agent-client';
import { insertOrg, insertPartner, insertPartnerUser, signedToken } from '../support/seed';
import { ADMIN, auditSettled, type TestServer } from '../support/server';

// Staged rollout of an agent version (issue 16): a platform administrator offers a registered version to a share
// of the eligible devices; each device's heartbeat is offered it when the device falls inside the share, chosen
// stably per device; 100 % is what heartbeats did before rollouts, 0 % pauses the version. A fleet of 80 Windows
// agents on 1.0.0 heartbeats for real against version 2.0.0 of windows/amd64.

const FLEET = 80;
const VERSION = '2.0.0';
let server: TestServer;
let admin: string;
const fleet: TestAgent[] = [];

const offeredIds = async (): Promise<string[]> => {
  const answers = await Promise.all(fleet.map((a) => a.heartbeat({ agentVersion: '1.0.0' })));
  for (const res of answers) expect(res.status).toBe(200);
  return fleet
    .filter((_, i) => answers[i]!.body.upgradeTo?.version === VERSION)
    .map((a) => a.creds.deviceId)
    .sort();
};
const setRollout = (percent: unknown, token = admin, version = VERSION) =>
  server.api.request('PUT', `/agent-versions/${version}/rollout`, { token, body: { percent } });

beforeAll(async () => {
  server = await startAgentServer();
  admin = await signedToken(server, ADMIN.email);
  const orgId = insertOrg(server, insertPartner(server, { name: 'Rollout MSP' }).partnerId, 'Rollout Org');
  const key = mintEnrollmentKey(server, orgId, { maxUsage: FLEET }).key;
  for (let i = 0; i < FLEET; i++) fleet.push(await TestAgent.enroll(server, key, { hostname: `ro-${i}` }));
  const registered = await server.api.post(
    '/agent-versions',
    {
      version: VERSION,
      platform: 'windows',
      architecture: 'amd64',
      downloadUrl: 'https://downloads.example.test/gatehouse-agent-2.0.0-windows-amd64.exe',
      checksum: 'cd'.repeat(32),
    },
    admin,
  );
  expect(registered.status).toBe(201);
  expect(registered.body.rolloutPercent).toBe(100);
}, 60_000);

afterAll(async () => {
  await server?.dispose();
});

describe('staged rollout of an agent version', () => {
  it('offers a new version to every eligible device until a rollout is set (100 %)', async () => {
    expect(await offeredIds()).toHaveLength(FLEET);
  });

  it('at 50 % offers about half the fleet, the same devices at every heartbeat', async () => {
    const res = await setRollout(50);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: VERSION, rolloutPercent: 50 });
    const first = await offeredIds();
    // Binomial(80, 0.5): 25..55 holds with probability > 0.999; the ids are random per run.
    expect(first.length).toBeGreaterThanOrEqual(25);
    expect(first.length).toBeLessThanOrEqual(55);
    expect(await offeredIds()).toEqual(first);
    expect(await offeredIds()).toEqual(first);
    // Exactly the devices whose bucket falls under the share.
    const expected = fleet
      .map((a) => a.creds.deviceId)
      .filter((id) => rolloutBucket(VERSION, id) < 50)
      .sort();
    expect(first).toEqual(expected);
    const listed = await server.api.get('/agent-versions?platform=windows&arch=amd64', admin);
    expect(listed.body.data[0]).toMatchObject({ version: VERSION, isLatest: true, rolloutPercent: 50 });
  });

  it('widening the share keeps every device already in it; 0 % pauses the version for all', async () => {
    await setRollout(20);
    const narrow = await offeredIds();
    await setRollout(60);
    const wide = await offeredIds();
    expect(wide.length).toBeGreaterThanOrEqual(narrow.length);
    for (const id of narrow) expect(wide).toContain(id);

    expect((await setRollout(0)).status).toBe(200);
    expect(await offeredIds()).toEqual([]);
    expect(await offeredIds()).toEqual([]);
    await setRollout(100);
    expect(await offeredIds()).toHaveLength(FLEET);
  });

  it('is audited with the share before and after', async () => {
    await setRollout(30);
    await auditSettled(server);
    const entry = server.context.db
      .prepare("SELECT * FROM audit_logs WHERE action = 'agent_version.rollout' ORDER BY seq DESC")
      .get() as { resource_type: string; resource_name: string; actor_email: string; details: string };
    expect(entry).toMatchObject({
      resource_type: 'agent_version',
      resource_name: `Agent ${VERSION}`,
      actor_email: ADMIN.email,
    });
    expect(JSON.parse(entry.details)).toEqual({ version: VERSION, rolloutPercent: 30, previousPercent: 100 });
  });

  it('validates the share, and is for platform administrators with an MFA session only', async () => {
    for (const bad of [-1, 101, 12.5, '50', null]) {
      const res = await setRollout(bad);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('percent: percent must be a whole number from 0 to 100');
    }
    expect(
      (await server.api.request('PUT', `/agent-versions/${VERSION}/rollout`, { token: admin, body: {} })).body
        .error,
    ).toBe('percent: percent is required');
    const missing = await setRollout(50, admin, '9.9.9');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('Agent version 9.9.9 not found');

    const noMfa = await setRollout(50, await signedToken(server, ADMIN.email, false));
    expect(noMfa.status).toBe(403);
    expect(noMfa.body.error).toBe(MFA_REQUIRED_MESSAGE);
    const { partnerId, adminRoleId } = insertPartner(server, { name: 'Other MSP' });
    await insertPartnerUser(server, partnerId, adminRoleId, 'padmin@rollout.test', { orgAccess: 'all' });
    const partner = await setRollout(50, await signedToken(server, 'padmin@rollout.test'));
    expect(partner.status).toBe(403);
    expect(partner.body).toEqual({ error: 'System scope required', code: 'SYSTEM_SCOPE_REQUIRED' });
  });
});
