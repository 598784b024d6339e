import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runOffboardingReaper, startOffboardingReaper } from '../../server/jobs/offboarding-reaper';
import {
  insertOrg,
  insertOrgUser,
  insertPartner,
  insertPartnerUser,
  mfaToken,
  PASSWORD,
  ROLES,
  insertApiKey,
} from '../support/seed';
import { auditSettled, startServer, type TestServer } from '../support/server';
import { userByEmail } from '../../server/modules/users';

// Partner status over real HTTP: offboarding revokes every session and API key of the partner at once, the reaper
// turns it `churned` after the drain window, `active` before that restores sign-in, and the partner guard blocks
// the users and keys of every partner that is not active.

const DRAIN_HOURS = 2;
const HOUR = 3600 * 1000;

let server: TestServer;
let admin: string;

beforeAll(async () => {
  server = await startServer({ env: { OFFBOARDING_DRAIN_WINDOW_HOURS: String(DRAIN_HOURS) } });
  admin = await mfaToken(server);
});
afterAll(async () => {
  await server.dispose();
});
// Many sign-ins from 127.0.0.1: keep the per-IP login limit out of the way.
beforeEach(() => {
  server.context.db.prepare('DELETE FROM rate_limits').run();
});

async function signIn(email: string): Promise<{ accessToken: string; refreshToken: string }> {
  const res = await server.api.login(email, PASSWORD);
  if (res.status !== 200) throw new Error(`login failed for ${email}: ${JSON.stringify(res.body)}`);
  return res.body;
}

const orgsWithToken = (token: string) => server.api.get('/orgs/', token);
const orgsWithKey = (key: string) => server.api.request('GET', '/orgs/', { headers: { 'x-api-key': key } });
const setStatus = (partnerId: string, status: string) =>
  server.api.request('PATCH', `/orgs/partners/${partnerId}`, { body: { status }, token: admin });

const partnerRow = (id: string) =>
  server.context.db.prepare('SELECT status, offboarding_started_at FROM partners WHERE id = ?').get(id) as {
    status: string;
    offboarding_started_at: string | null;
  };
const tokenVersion = (email: string) => userByEmail(server.context.db, email)!.token_version;

async function auditFor(action: string, resourceId: string) {
  await auditSettled(server);
  return (
    server.context.db
      .prepare('SELECT * FROM audit_logs WHERE action = ? AND resource_id = ? ORDER BY seq')
      .all(action, resourceId) as Array<{ org_id: string | null; actor_type: string; details: string }>
  ).map((r) => ({ ...r, details: JSON.parse(r.details) as Record<string, unknown> }));
}

/** A partner with two organizations, a partner technician, an organization user and a key per organization. */
async function tenant(label: string) {
  const { partnerId, adminRoleId } = insertPartner(server, { name: `${label} MSP` });
  const orgA = insertOrg(server, partnerId, `${label} A`);
  const orgB = insertOrg(server, partnerId, `${label} B`);
  const partnerEmail = `tech@${label}.test`;
  const orgEmail = `user@${label}-a.test`;
  await insertPartnerUser(server, partnerId, adminRoleId, partnerEmail, { orgAccess: 'all' });
  await insertOrgUser(server, orgA, ROLES.orgTechnician, orgEmail);
  return {
    partnerId,
    orgA,
    orgB,
    partnerEmail,
    orgEmail,
    keyA: insertApiKey(server, orgA),
    keyB: insertApiKey(server, orgB),
  };
}

describe('offboarding', () => {
  it('revokes every session and API key of the partner at once, and nothing of other partners', async () => {
    const t = await tenant('leaving');
    const other = await tenant('staying');
    const partnerSession = await signIn(t.partnerEmail);
    const orgSession = await signIn(t.orgEmail);
    const otherSession = await signIn(other.partnerEmail);
    expect((await orgsWithToken(partnerSession.accessToken)).status).toBe(200);
    expect((await orgsWithToken(orgSession.accessToken)).status).toBe(200);
    expect((await orgsWithKey(t.keyA.key)).status).toBe(200);
    const versions = [
      tokenVersion(t.partnerEmail),
      tokenVersion(t.orgEmail),
      tokenVersion(other.partnerEmail),
    ];

    const before = Date.now();
    const res = await setStatus(t.partnerId, 'offboarding');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('offboarding');
    const startedAt = Date.parse(res.body.offboardingStartedAt);
    expect(startedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(startedAt).toBeLessThanOrEqual(Date.now());

    const db = server.context.db;
    // Stored effect: refresh tokens revoked, token versions bumped, API keys revoked with the reason.
    for (const email of [t.partnerEmail, t.orgEmail]) {
      const tokens = db
        .prepare(
          'SELECT revoked_at, revoked_reason FROM refresh_tokens WHERE user_id = (SELECT id FROM users WHERE email = ?)',
        )
        .all(email) as Array<{ revoked_at: string | null; revoked_reason: string | null }>;
      expect(tokens.length).toBeGreaterThan(0);
      expect(tokens.every((r) => r.revoked_at !== null && r.revoked_reason === 'partner_offboarding')).toBe(
        true,
      );
    }
    expect(tokenVersion(t.partnerEmail)).toBe(versions[0]! + 1);
    expect(tokenVersion(t.orgEmail)).toBe(versions[1]! + 1);
    expect(tokenVersion(other.partnerEmail)).toBe(versions[2]);
    const keys = db
      .prepare('SELECT id, status, revoked_reason FROM api_keys WHERE id IN (?, ?, ?) ORDER BY id')
      .all(t.keyA.id, t.keyB.id, other.keyA.id) as Array<{
      id: string;
      status: string;
      revoked_reason: string | null;
    }>;
    expect(Object.fromEntries(keys.map((k) => [k.id, [k.status, k.revoked_reason]]))).toEqual({
      [t.keyA.id]: ['revoked', 'partner_offboarding'],
      [t.keyB.id]: ['revoked', 'partner_offboarding'],
      [other.keyA.id]: ['active', null],
    });

    // Over HTTP: old access and refresh tokens are dead, keys are refused, sign-in is blocked.
    for (const session of [partnerSession, orgSession]) {
      const old = await orgsWithToken(session.accessToken);
      expect(old.status).toBe(401);
      expect(old.body.code).toBe('TOKEN_REVOKED');
      expect((await server.api.post('/auth/refresh', { refreshToken: session.refreshToken })).status).toBe(
        401,
      );
    }
    const key = await orgsWithKey(t.keyA.key);
    expect(key.status).toBe(401);
    expect(key.body.error).toBe('API key is revoked');
    const login = await server.api.login(t.partnerEmail, PASSWORD);
    expect(login.status).toBe(403);
    expect(login.body).toEqual({ error: 'Partner account is being offboarded', code: 'PARTNER_INACTIVE' });

    // Other partners are untouched.
    expect((await orgsWithToken(otherSession.accessToken)).status).toBe(200);
    expect((await orgsWithKey(other.keyA.key)).status).toBe(200);

    const [entry] = await auditFor('partner.update', t.partnerId);
    expect(entry).toMatchObject({ org_id: null, actor_type: 'user' });
    expect(entry!.details).toEqual({
      changedFields: ['status'],
      status: { from: 'active', to: 'offboarding' },
      revoked: { users: 2, apiKeys: 2 },
    });

    // Asking again does not restart the drain window.
    const again = await setStatus(t.partnerId, 'offboarding');
    expect(again.status).toBe(200);
    expect(again.body.offboardingStartedAt).toBe(res.body.offboardingStartedAt);
  });

  it('the reaper turns the partner churned once the drain window has passed', async () => {
    const t = await tenant('draining');
    const res = await setStatus(t.partnerId, 'offboarding');
    const started = Date.parse(res.body.offboardingStartedAt);

    expect(runOffboardingReaper(server.context, new Date(started + HOUR))).not.toContain(t.partnerId);
    expect(partnerRow(t.partnerId).status).toBe('offboarding');
    expect(runOffboardingReaper(server.context, new Date(started + DRAIN_HOURS * HOUR - 1000))).not.toContain(
      t.partnerId,
    );

    const churned = runOffboardingReaper(server.context, new Date(started + DRAIN_HOURS * HOUR + 1000));
    expect(churned).toContain(t.partnerId);
    expect(partnerRow(t.partnerId).status).toBe('churned');
    expect(runOffboardingReaper(server.context, new Date(started + 10 * DRAIN_HOURS * HOUR))).not.toContain(
      t.partnerId,
    );

    const read = await server.api.get(`/orgs/partners/${t.partnerId}`, admin);
    expect(read.body.status).toBe('churned');
    const login = await server.api.login(t.orgEmail, PASSWORD);
    expect(login.status).toBe(403);
    expect(login.body).toEqual({ error: 'Partner account is closed', code: 'PARTNER_INACTIVE' });

    const entries = await auditFor('partner.update', t.partnerId);
    const reaped = entries.at(-1)!;
    expect(reaped).toMatchObject({ org_id: null, actor_type: 'system' });
    expect(reaped.details).toMatchObject({
      changedFields: ['status'],
      status: { from: 'offboarding', to: 'churned' },
      reason: 'drain_window_elapsed',
      offboardingStartedAt: res.body.offboardingStartedAt,
    });
  });

  it('the scheduled reaper runs at start-up and catches up on a window that ended while stopped', async () => {
    const t = await tenant('overdue');
    server.context.db
      .prepare("UPDATE partners SET status = 'offboarding', offboarding_started_at = ? WHERE id = ?")
      .run(new Date(Date.now() - (DRAIN_HOURS + 1) * HOUR).toISOString(), t.partnerId);
    const stop = startOffboardingReaper(server.context);
    stop();
    expect(partnerRow(t.partnerId).status).toBe('churned');
  });

  it('back to active before the reaper finalizes: users sign in again, revoked keys stay revoked', async () => {
    const t = await tenant('returning');
    const session = await signIn(t.partnerEmail);
    const off = await setStatus(t.partnerId, 'offboarding');
    const started = Date.parse(off.body.offboardingStartedAt);

    const back = await setStatus(t.partnerId, 'active');
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ status: 'active', offboardingStartedAt: null });
    expect(partnerRow(t.partnerId)).toEqual({ status: 'active', offboarding_started_at: null });

    // Sessions revoked at the start stay dead; a fresh sign-in works.
    expect((await orgsWithToken(session.accessToken)).status).toBe(401);
    const fresh = await signIn(t.partnerEmail);
    const orgs = await orgsWithToken(fresh.accessToken);
    expect(orgs.status).toBe(200);
    expect(orgs.body.data.map((o: { id: string }) => o.id).sort()).toEqual([t.orgA, t.orgB].sort());
    expect((await orgsWithToken((await signIn(t.orgEmail)).accessToken)).status).toBe(200);
    // Spec 1: revoked is permanent for an API key.
    const key = await orgsWithKey(t.keyA.key);
    expect(key.status).toBe(401);
    expect(key.body.error).toBe('API key is revoked');

    expect(runOffboardingReaper(server.context, new Date(started + 100 * HOUR))).not.toContain(t.partnerId);
    expect(partnerRow(t.partnerId).status).toBe('active');
    const [, restored] = await auditFor('partner.update', t.partnerId);
    expect(restored!.details).toEqual({
      changedFields: ['status'],
      status: { from: 'offboarding', to: 'active' },
    });
  });
});

describe('partner guard', () => {
  it('blocks users and keys of pending, suspended, churned and offboarding partners; active restores access', async () => {
    const t = await tenant('guarded');
    const partnerToken = (await signIn(t.partnerEmail)).accessToken;
    const orgToken = (await signIn(t.orgEmail)).accessToken;
    const expected: Record<string, string> = {
      pending: 'Partner account is pending activation',
      suspended: 'Partner account is suspended',
      churned: 'Partner account is closed',
      offboarding: 'Partner account is being offboarded',
    };
    for (const [status, message] of Object.entries(expected)) {
      if (status === 'offboarding') {
        // Straight in SQL: the guard alone must refuse sessions the offboarding revocation did not reach.
        server.context.db.prepare("UPDATE partners SET status = 'offboarding' WHERE id = ?").run(t.partnerId);
      } else {
        expect((await setStatus(t.partnerId, status)).status).toBe(200);
      }
      const refusal = { error: message, code: 'PARTNER_INACTIVE' };
      for (const res of [
        await orgsWithToken(partnerToken),
        await orgsWithToken(orgToken),
        await orgsWithKey(t.keyA.key),
        await server.api.login(t.partnerEmail, PASSWORD),
        await server.api.login(t.orgEmail, PASSWORD),
      ]) {
        expect(res.status, status).toBe(403);
        expect(res.body, status).toEqual(refusal);
      }
      server.context.db.prepare("UPDATE partners SET status = 'active' WHERE id = ?").run(t.partnerId);
      expect((await orgsWithToken(partnerToken)).status, status).toBe(200);
      expect((await orgsWithToken(orgToken)).status, status).toBe(200);
      expect((await orgsWithKey(t.keyA.key)).status, status).toBe(200);
    }
    // The platform administrator is exempt and can still manage the partner whatever its status.
    expect((await setStatus(t.partnerId, 'suspended')).status).toBe(200);
    expect((await server.api.get(`/orgs/organizations?partnerId=${t.partnerId}`, admin)).status).toBe(200);
    expect((await setStatus(t.partnerId, 'active')).status).toBe(200);
    expect((await orgsWithToken(partnerToken)).status).toBe(200);
  });

  it('blocks the users of a soft-deleted partner', async () => {
    const t = await tenant('deleted');
    const res = await server.api.request('DELETE', `/orgs/partners/${t.partnerId}`, { token: admin });
    expect(res.body).toEqual({ success: true });
    const login = await server.api.login(t.partnerEmail, PASSWORD);
    expect(login.status).toBe(401);
    expect((await orgsWithKey(t.keyA.key)).status).toBe(401);
  });
});
