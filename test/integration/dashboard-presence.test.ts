import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardPresencePoint, DashboardResponse } from '../../server/contract';
import { applyPresence } from '../../server/modules/agents';
import { prunePresenceHistory } from '../../server/modules/dashboard';
import { eventually, mintEnrollmentKey, startAgentServer, TestAgent } from '../support/agent-client';
import { insertOrg, insertOrgUser, insertPartner, ROLES, signedToken } from '../support/seed';
import type { TestServer } from '../support/server';

// The Overview's 24-hour presence series (server/modules/dashboard/presence.ts): transitions announced on the bus
// are recorded, the series replays them per 5-minute sample, and the log is pruned after 7 days.

let server: TestServer;
let token = '';
const ids = { steady: '', flapping: '', newcomer: '' };
const HOUR = 3600_000;
const db = () => server.context.db;

const changesOf = (id: string) =>
  db()
    .prepare('SELECT online FROM device_presence_changes WHERE device_id = ? ORDER BY rowid')
    .all(id)
    .map((r) => (r as { online: number }).online);

async function series(): Promise<DashboardPresencePoint[]> {
  const res = await server.api.get('/dashboard', token);
  expect(res.status).toBe(200);
  return (res.body as DashboardResponse).devices?.presence ?? [];
}

/** The sample nearest to `hoursAgo` before now. */
const at = (points: DashboardPresencePoint[], hoursAgo: number) => {
  const target = Date.now() - hoursAgo * HOUR;
  return points.reduce((best, p) =>
    Math.abs(Date.parse(p.at) - target) < Math.abs(Date.parse(best.at) - target) ? p : best,
  );
};

beforeAll(async () => {
  server = await startAgentServer();
  const org = insertOrg(server, insertPartner(server).partnerId, 'Contoso');
  for (const name of ['steady', 'flapping', 'newcomer'] as const) {
    const agent = await TestAgent.enroll(server, mintEnrollmentKey(server, org).key, { hostname: name });
    ids[name] = agent.creds.deviceId;
  }
  await insertOrgUser(server, org, ROLES.orgTechnician, 'tech@contoso.test');
  token = await signedToken(server, 'tech@contoso.test');
});

afterAll(async () => {
  await server.dispose();
});

describe('presence history', () => {
  it('records enrolments and every online/offline transition announced on the bus', async () => {
    await eventually(() => expect(changesOf(ids.steady)).toEqual([1]));
    const turn = (online: boolean) => applyPresence(server.context, [{ deviceId: ids.steady, online }]);
    expect(turn(false)).toHaveLength(1);
    expect(turn(true)).toHaveLength(1);
    // No change, nothing announced, nothing recorded.
    expect(turn(true)).toEqual([]);
    // Written with the batch that changed the status: no wait.
    expect(changesOf(ids.steady)).toEqual([1, 0, 1]);
  });

  it('replays the changes into a 5-minute series over 24 hours', async () => {
    const ago = (h: number) => new Date(Date.now() - h * HOUR).toISOString();
    db().prepare('DELETE FROM device_presence_changes').run();
    // steady: enrolled two days ago, offline all day (no change in the window).
    // flapping: enrolled two days ago, offline 10 h ago, back online 4 h ago.
    // newcomer: enrolled 3 h ago, online since.
    const setDevice = db().prepare('UPDATE devices SET enrolled_at = ?, status = ? WHERE id = ?');
    setDevice.run(ago(48), 'offline', ids.steady);
    setDevice.run(ago(48), 'online', ids.flapping);
    setDevice.run(ago(3), 'online', ids.newcomer);
    const change = db().prepare(
      'INSERT INTO device_presence_changes (device_id, online, at) VALUES (?, ?, ?)',
    );
    change.run(ids.flapping, 0, ago(10));
    change.run(ids.flapping, 1, ago(4));
    change.run(ids.newcomer, 1, ago(3));

    const points = await series();
    expect(points).toHaveLength(288);
    const steps = points.map((p) => Date.parse(p.at));
    expect(steps.every((t, i) => i === 0 || t - (steps[i - 1] ?? 0) === 5 * 60_000)).toBe(true);
    expect(at(points, 20)).toMatchObject({ online: 1, offline: 1 });
    expect(at(points, 7)).toMatchObject({ online: 0, offline: 2 });
    expect(at(points, 3.5)).toMatchObject({ online: 1, offline: 1 });
    expect(at(points, 1)).toMatchObject({ online: 2, offline: 1 });
    expect(points.at(-1)).toMatchObject({ online: 2, offline: 1 });
  });

  it('keeps 7 days of changes', () => {
    db().prepare('DELETE FROM device_presence_changes').run();
    const change = db().prepare(
      'INSERT INTO device_presence_changes (device_id, online, at) VALUES (?, ?, ?)',
    );
    const now = Date.now();
    change.run(ids.steady, 1, new Date(now - 8 * 24 * HOUR).toISOString());
    change.run(ids.steady, 0, new Date(now - 6 * 24 * HOUR).toISOString());
    expect(prunePresenceHistory(server.context, now)).toBe(1);
    expect(changesOf(ids.steady)).toEqual([0]);
  });
});
