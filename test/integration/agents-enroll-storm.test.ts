import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LimitRule } from '../../server/http/rate-limit';
import { HttpError } from '../../server/http/errors';
import { killAgentCredential } from '../../server/modules/agents/device-store';
import { ENROLL_ATTEMPTS_PER_IP, ENROLL_RETRY_SPREAD_SECONDS } from '../../server/modules/agents/enroll';
import { enrollmentBody, mintEnrollmentKey, startAgentServer, TestAgent } from '../support/agent-client';
import { insertOrg, insertPartner } from '../support/seed';
import type { TestServer } from '../support/server';

// Enrollment storms (issue 18): the per-address ceiling counts admitted enrollments only and spreads its
// Retry-After; enrolling again with the same key and install id returns the same device with a new credential,
// without a second device or another use of the key; an install id never reaches a device of another key, and so
// never another partner's.

let server: TestServer;
let partnerId: string;
let orgId: string;

beforeAll(async () => {
  server = await startAgentServer();
  partnerId = insertPartner(server).partnerId;
  orgId = insertOrg(server, partnerId, 'Contoso');
});
afterAll(async () => {
  await server.dispose();
});
beforeEach(() => {
  server.context.db.prepare('DELETE FROM rate_limits').run();
});

const db = () => server.context.db;
const keyUses = (id: string) =>
  (db().prepare('SELECT usage_count FROM enrollment_keys WHERE id = ?').get(id) as { usage_count: number })
    .usage_count;
const devicesOfKey = (keyId: string) =>
  db()
    .prepare('SELECT id, org_id, agent_id, status FROM devices WHERE enrollment_key_id = ?')
    .all(keyId) as Array<{
    id: string;
    org_id: string;
    agent_id: string;
    status: string;
  }>;
const enroll = (key: string, overrides: Record<string, unknown> = {}) =>
  server.api.post('/agents/enroll', enrollmentBody(key, overrides));

/** Reads the refusal a call throws. */
function refusal(call: () => void): HttpError {
  try {
    call();
  } catch (err) {
    if (err instanceof HttpError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('the enrollment limiter', () => {
  const rule: LimitRule = { bucket: 'test-storm:ip', limit: 5, windowSeconds: 10 };
  const limiter = () => server.context.limiter;

  it('does not count refused attempts: a storm of refusals neither extends the window nor uses the next one', () => {
    const start = 1_000_000_000_000; // on a window boundary (a multiple of 10 s)
    for (let i = 0; i < 5; i++) limiter().admit(rule, 'storm', 'busy', { nowMs: start + i });
    // A thousand refused retries inside the same window...
    for (let i = 0; i < 1000; i++) {
      expect(refusal(() => limiter().admit(rule, 'storm', 'busy', { nowMs: start + 5_000 })).status).toBe(
        429,
      );
    }
    // ...count nothing: once the full window has slid out, the whole budget is there again.
    for (let i = 0; i < 5; i++) limiter().admit(rule, 'storm', 'busy', { nowMs: start + 20_000 + i });
    expect(refusal(() => limiter().admit(rule, 'storm', 'busy', { nowMs: start + 20_010 })).status).toBe(429);
    const row = db()
      .prepare('SELECT count, prev_count FROM rate_limits WHERE bucket = ? AND subject = ?')
      .get(rule.bucket, 'storm') as { count: number; prev_count: number };
    expect(row).toEqual({ count: 5, prev_count: 0 });
  });

  it('spreads Retry-After over the given span, past the moment the window has room', () => {
    const start = 2_000_000_000_000;
    for (let i = 0; i < 5; i++) limiter().admit(rule, 'spread', 'busy', { nowMs: start });
    const waits = new Set<number>();
    for (let i = 0; i < 200; i++) {
      const err = refusal(() => limiter().admit(rule, 'spread', 'busy', { nowMs: start, spreadSeconds: 10 }));
      const seconds = Number(err.headers?.['Retry-After']);
      expect(err.extra.retryAfterSeconds).toBe(seconds);
      // The window (10 s) must slide by at least one use: never sooner than that, never more than 10 s later.
      expect(seconds).toBeGreaterThanOrEqual(10);
      expect(seconds).toBeLessThanOrEqual(22);
      waits.add(seconds);
    }
    expect(waits.size).toBeGreaterThan(5);
  });

  it('refuses enrollment over the address ceiling with a spread Retry-After and keeps no count of refusals', async () => {
    const key = mintEnrollmentKey(server, orgId);
    expect((await enroll(key.key)).status).toBe(201);
    const counter = db()
      .prepare('SELECT subject, window_start FROM rate_limits WHERE bucket = ?')
      .get(ENROLL_ATTEMPTS_PER_IP.bucket) as { subject: string; window_start: number };
    // The ceiling reached (as thousands of agents behind this address would have).
    db()
      .prepare('UPDATE rate_limits SET count = ? WHERE bucket = ? AND subject = ?')
      .run(ENROLL_ATTEMPTS_PER_IP.limit, ENROLL_ATTEMPTS_PER_IP.bucket, counter.subject);
    const waits: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await enroll(key.key);
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ error: 'Too many enrollment attempts', code: 'RATE_LIMITED' });
      const seconds = Number(res.headers.get('retry-after'));
      expect(res.body.retryAfterSeconds).toBe(seconds);
      expect(seconds).toBeGreaterThanOrEqual(1);
      expect(seconds).toBeLessThanOrEqual(
        ENROLL_ATTEMPTS_PER_IP.windowSeconds * 2 + ENROLL_RETRY_SPREAD_SECONDS,
      );
      waits.push(seconds);
    }
    expect(new Set(waits).size).toBeGreaterThan(1);
    const after = db()
      .prepare('SELECT count, window_start FROM rate_limits WHERE bucket = ? AND subject = ?')
      .get(ENROLL_ATTEMPTS_PER_IP.bucket, counter.subject) as { count: number; window_start: number };
    expect(after).toEqual({ count: ENROLL_ATTEMPTS_PER_IP.limit, window_start: counter.window_start });
    expect(keyUses(key.id)).toBe(1);
  });
});

describe('enrollment idempotent per install id', () => {
  it('returns the same device with a new credential, without a second device or another key use', async () => {
    // One use only: the retry of an enrollment whose answer was lost must still get in.
    const key = mintEnrollmentKey(server, orgId, { maxUsage: 1 });
    const installId = 'install-7f3a9c21-lost-answer';
    const first = await enroll(key.key, { installId });
    expect(first.status).toBe(201);
    const again = await enroll(key.key, { installId, hostname: 'renamed-meanwhile' });
    expect(again.status).toBe(201);
    expect(again.body.deviceId).toBe(first.body.deviceId);
    expect(again.body.agentId).toBe(first.body.agentId);
    expect(again.body.orgId).toBe(orgId);
    expect(again.body.authToken).not.toBe(first.body.authToken);
    expect(keyUses(key.id)).toBe(1);
    expect(devicesOfKey(key.id)).toHaveLength(1);

    // The first credential was never used, so its answer may still be on its way: once the new one is used, the
    // first is dead.
    const old = new TestAgent(server.url, first.body);
    const renewed = new TestAgent(server.url, again.body);
    expect((await renewed.heartbeat()).status).toBe(200);
    expect((await old.heartbeat()).status).toBe(401);
    expect((await renewed.heartbeat()).status).toBe(200);

    // Audited as a re-enrollment, not as a new device.
    const actions = db()
      .prepare('SELECT action FROM audit_logs WHERE resource_id = ? ORDER BY rowid')
      .all(first.body.deviceId) as Array<{ action: string }>;
    expect(actions.map((a) => a.action)).toEqual(['device.create', 'agent.reenroll']);
  });

  it('keeps whichever of two crossing answers the agent uses first, and only that one', async () => {
    // The agent gave up on its first enrollment and tried again; the server answered the retry first, then the
    // first attempt. The agent holds the retry's credential, the server's latest is the other one.
    const key = mintEnrollmentKey(server, orgId, { maxUsage: 1 });
    const installId = 'install-crossing-answers-01';
    const retry = await enroll(key.key, { installId });
    const late = await enroll(key.key, { installId });
    const held = new TestAgent(server.url, retry.body);
    const lost = new TestAgent(server.url, late.body);
    expect((await held.heartbeat()).status).toBe(200);
    expect((await lost.heartbeat()).status).toBe(401);
    expect((await held.heartbeat()).status).toBe(200);
    const socket = await held.connect();
    await socket.close();
    expect(devicesOfKey(key.id)).toHaveLength(1);
    expect(keyUses(key.id)).toBe(1);
  });

  it('cuts off a credential already used the moment the install enrolls again', async () => {
    const key = mintEnrollmentKey(server, orgId);
    const installId = 'install-used-credential-01';
    const first = new TestAgent(server.url, (await enroll(key.key, { installId })).body);
    expect((await first.heartbeat()).status).toBe(200);
    const again = new TestAgent(server.url, (await enroll(key.key, { installId })).body);
    expect((await first.heartbeat()).status).toBe(401);
    expect((await again.heartbeat()).status).toBe(200);
  });

  it('kills both credentials of a crossing when the device is removed and its uninstall completes', async () => {
    const key = mintEnrollmentKey(server, orgId);
    const installId = 'install-crossing-removed';
    const a = (await enroll(key.key, { installId })).body;
    const b = (await enroll(key.key, { installId })).body;
    // What a completed self_uninstall does to the credential (commands.ts).
    killAgentCredential(server.context.db, a.deviceId);
    expect((await new TestAgent(server.url, a).heartbeat()).status).toBe(401);
    expect((await new TestAgent(server.url, b).heartbeat()).status).toBe(401);
  });

  it('closes a socket still open on the replaced credential', async () => {
    const key = mintEnrollmentKey(server, orgId);
    const installId = 'install-socket-holder-01';
    const first = new TestAgent(server.url, (await enroll(key.key, { installId })).body);
    const socket = await first.connect();
    expect((await enroll(key.key, { installId })).status).toBe(201);
    const closed = await socket.closed;
    expect(closed.code).toBe(4001);
    expect(closed.reason).toBe('agent credentials replaced by a new enrollment');
  });

  it('gives another install id of the same key its own device and use', async () => {
    const key = mintEnrollmentKey(server, orgId, { maxUsage: 5 });
    const a = await enroll(key.key, { installId: 'install-aaaaaaaa' });
    const b = await enroll(key.key, { installId: 'install-bbbbbbbb' });
    const plain = await enroll(key.key);
    expect(new Set([a.body.deviceId, b.body.deviceId, plain.body.deviceId]).size).toBe(3);
    expect(keyUses(key.id)).toBe(3);
  });

  it('still refuses an expired key and an inactive partner', async () => {
    const key = mintEnrollmentKey(server, orgId);
    const installId = 'install-refusals-0001';
    const first = await enroll(key.key, { installId });
    db()
      .prepare('UPDATE enrollment_keys SET expires_at = ? WHERE id = ?')
      .run(new Date(Date.now() - 1000).toISOString(), key.id);
    const expired = await enroll(key.key, { installId });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ error: 'Invalid enrollment key', reason: 'enrollment_key_expired' });

    const sleepy = insertPartner(server, { name: 'Sleepy MSP' }).partnerId;
    const sleepyOrg = insertOrg(server, sleepy, 'Sleepy Org');
    const sleepyKey = mintEnrollmentKey(server, sleepyOrg);
    const enrolled = await enroll(sleepyKey.key, { installId });
    expect(enrolled.status).toBe(201);
    db().prepare("UPDATE partners SET status = 'suspended' WHERE id = ?").run(sleepy);
    const refused = await enroll(sleepyKey.key, { installId });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'Partner account is suspended', code: 'PARTNER_INACTIVE' });
    // Neither refusal touched the credentials already handed out.
    expect((await new TestAgent(server.url, first.body).heartbeat()).status).toBe(200);
  });

  it("cannot take over another partner's device with its install id", async () => {
    const keyA = mintEnrollmentKey(server, orgId);
    const installId = 'install-victim-00000001';
    const victim = await enroll(keyA.key, { installId });
    const rival = insertPartner(server, { name: 'Rival MSP' }).partnerId;
    const rivalOrg = insertOrg(server, rival, 'Rival Org');
    const keyB = mintEnrollmentKey(server, rivalOrg);
    const attempt = await enroll(keyB.key, { installId });
    expect(attempt.status).toBe(201);
    // A device of its own, in its own organization; the victim's device and credential are untouched.
    expect(attempt.body.orgId).toBe(rivalOrg);
    expect(attempt.body.deviceId).not.toBe(victim.body.deviceId);
    expect(attempt.body.agentId).not.toBe(victim.body.agentId);
    expect(devicesOfKey(keyA.id)).toEqual([
      expect.objectContaining({ id: victim.body.deviceId, org_id: orgId, agent_id: victim.body.agentId }),
    ]);
    expect((await new TestAgent(server.url, victim.body).heartbeat()).status).toBe(200);
    // Nor with another key of the victim's own organization.
    const sibling = mintEnrollmentKey(server, orgId);
    const other = await enroll(sibling.key, { installId });
    expect(other.body.deviceId).not.toBe(victim.body.deviceId);
    expect((await new TestAgent(server.url, victim.body).heartbeat()).status).toBe(200);
  });

  it('enrolls a removed device again as a new device; the removed one keeps its history', async () => {
    const key = mintEnrollmentKey(server, orgId);
    const installId = 'install-removed-000001';
    const first = await enroll(key.key, { installId });
    db().prepare("UPDATE devices SET status = 'decommissioned' WHERE id = ?").run(first.body.deviceId);
    const again = await enroll(key.key, { installId });
    expect(again.status).toBe(201);
    expect(again.body.deviceId).not.toBe(first.body.deviceId);
    expect(again.body.agentId).toBe(first.body.agentId);
    const rows = devicesOfKey(key.id);
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.id === first.body.deviceId)).toMatchObject({
      status: 'decommissioned',
      agent_id: `retired:${first.body.deviceId}`,
    });
    expect(keyUses(key.id)).toBe(2);
    // A third time is a repeat of the second: the same new device.
    const third = await enroll(key.key, { installId });
    expect(third.body.deviceId).toBe(again.body.deviceId);
    expect(keyUses(key.id)).toBe(2);
  });

  it('refuses a malformed install id with a 400', async () => {
    const key = mintEnrollmentKey(server, orgId);
    for (const installId of ['short', 'has space inside', 'x'.repeat(129)]) {
      const res = await enroll(key.key, { installId });
      expect(res.status).toBe(400);
    }
    expect(keyUses(key.id)).toBe(0);
  });
});
