import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET_POLICIES, type SecretKind } from '../../server/http/guard';
import { enrollmentBody, mintEnrollmentKey } from '../support/agent-client';
import {
  insertApiKey,
  insertOrg,
  insertOrgUser,
  insertPartner,
  nextMessageTo,
  mfaToken,
  PASSWORD,
  plainToken,
  readOutbox,
  ROLES,
} from '../support/seed';
import {
  auditSettled,
  enrollTotp,
  startServer,
  totp,
  type ApiResponse,
  type TestServer,
} from '../support/server';

// Every secret a caller supplies goes through the one secret guard: failures only, per account and address, per
// address, and a progressive delay per account that known-good addresses skip. Addresses are simulated with
// X-Forwarded-For from the trusted loopback proxy.

const SECRET = 'fleet-secret-42';
let server: TestServer;
let orgId: string;
beforeAll(async () => {
  server = await startServer({
    env: {
      TRUST_PROXY_HEADERS: 'true',
      TRUSTED_PROXY_CIDRS: '127.0.0.1/32,::1/128',
      ENROLLMENT_SECRET: SECRET,
    },
  });
  orgId = insertOrg(server, insertPartner(server).partnerId);
});
afterAll(async () => {
  await server.dispose();
});

let ipCounter = 0;
const freshIp = () => `198.51.100.${++ipCounter}`;
const call = (
  method: string,
  path: string,
  from: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
) =>
  server.api.request(method, path, {
    body: options.body,
    token: options.token,
    headers: { 'x-forwarded-for': from, ...options.headers },
  });
const login = (email: string, password: string, from: string) =>
  call('POST', '/auth/login', from, { body: { email, password } });

let userCounter = 0;
async function technician(): Promise<{ email: string; userId: string }> {
  const email = `tech${++userCounter}@contoso.test`;
  return { email, userId: await insertOrgUser(server, orgId, ROLES.orgTechnician, email) };
}

function expectThrottled(res: ApiResponse, kind: SecretKind): void {
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({ error: SECRET_POLICIES[kind].message, code: 'RATE_LIMITED' });
  expect(res.body.error).not.toMatch(/try again/i);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(res.body.retryAfterSeconds).toBe(retryAfter);
}

/** Fails `times` times (each answering `failStatus`), then expects the next attempt to be throttled. */
async function exhaust(
  kind: SecretKind,
  times: number,
  attempt: () => Promise<ApiResponse>,
  failStatus: number,
): Promise<void> {
  for (let i = 0; i < times; i++) expect((await attempt()).status, `attempt ${i + 1}`).toBe(failStatus);
  expectThrottled(await attempt(), kind);
}

const auditRows = (action: string, actorId?: string) =>
  server.context.db
    .prepare(
      `SELECT action, result, ip_address, details FROM audit_logs WHERE action = ?
       ${actorId ? 'AND actor_id = ?' : ''} ORDER BY seq`,
    )
    .all(...(actorId ? [action, actorId] : [action])) as Array<{
    action: string;
    result: string;
    ip_address: string;
    details: string;
  }>;

const passwordBudget = SECRET_POLICIES.password.perAccountAddress!.failures;
const codeBudget = SECRET_POLICIES.mfa_code.perAccountAddress!.failures;

describe('passwords', () => {
  it('never throttles successes: a training-room account signs in again and again', async () => {
    const { email } = await technician();
    const room = freshIp();
    for (let i = 0; i < passwordBudget + 5; i++)
      expect((await login(email, PASSWORD, room)).status).toBe(200);
  });

  it('locks only the attacker: a technician is not kept out by failures from another address', async () => {
    const { email, userId } = await technician();
    const office = freshIp();
    expect((await login(email, PASSWORD, office)).status).toBe(200);

    const attacker = freshIp();
    await exhaust('password', passwordBudget, () => login(email, 'wrong-password', attacker), 401);
    // Even the right password is refused at the attacker's address: a refused caller learns nothing.
    expectThrottled(await login(email, PASSWORD, attacker), 'password');

    expect((await login(email, PASSWORD, office)).status).toBe(200);
    expect((await login(email, PASSWORD, freshIp())).status).toBe(200);
    expect((await login(email.toUpperCase(), PASSWORD, freshIp())).status).toBe(200);

    await auditSettled(server);
    const reached = auditRows('auth.secret.limit_reached', userId);
    expect(reached).toHaveLength(1);
    expect(reached[0]).toMatchObject({ result: 'failure', ip_address: attacker });
    expect(JSON.parse(reached[0]!.details)).toMatchObject({ secret: 'password', limit: 'account_address' });
    const throttled = auditRows('auth.secret.throttled', userId);
    expect(throttled).toHaveLength(2);
    expect(throttled.every((r) => r.result === 'denied' && r.ip_address === attacker)).toBe(true);
    expect(auditRows('user.login.failed', userId)).toHaveLength(passwordBudget);
  });

  it('slows a distributed attack down without a hard lock, and the known-good address still gets in', async () => {
    const { email } = await technician();
    const office = freshIp();
    expect((await login(email, PASSWORD, office)).status).toBe(200);
    const attackers = [freshIp(), freshIp(), freshIp()];
    const statuses: number[] = [];
    for (const attacker of attackers) {
      for (let i = 0; i < passwordBudget; i++) statuses.push((await login(email, 'wrong', attacker)).status);
    }
    // The account delay starts after two addresses' worth of failures: the third is slowed down.
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect((await login(email, PASSWORD, office)).status).toBe(200);
    const elsewhere = await login(email, PASSWORD, freshIp());
    if (elsewhere.status !== 200) {
      expectThrottled(elsewhere, 'password');
      expect(elsewhere.body.retryAfterSeconds).toBeLessThanOrEqual(
        SECRET_POLICIES.password.perAccount!.maxDelaySeconds,
      );
    }
  });

  it('an unknown address is counted like an account, with the same answers', async () => {
    const from = freshIp();
    await exhaust('password', passwordBudget, () => login('ghost@nowhere.test', 'whatever-1', from), 401);
    await auditSettled(server);
    const row = auditRows('auth.secret.throttled').find((r) => r.ip_address === from);
    expect(JSON.parse(row!.details)).toMatchObject({ secret: 'password', limit: 'account_address' });
  });

  it('throttles wrong current passwords on change-password and shares the budget with sign-in', async () => {
    const { email } = await technician();
    const token = await plainToken(server, email);
    const from = freshIp();
    const change = (currentPassword: string) =>
      call('POST', '/auth/change-password', from, {
        body: { currentPassword, newPassword: 'Quiet-Meadow-2031' },
        token,
      });
    await exhaust('password', passwordBudget, () => change('guess'), 400);
    expectThrottled(await login(email, PASSWORD, from), 'password');
    expect((await login(email, PASSWORD, freshIp())).status).toBe(200);
  });
});

describe('MFA codes', () => {
  it('throttles wrong TOTP and recovery codes on mfa/disable, from that address only', async () => {
    const { email } = await technician();
    const { secret, session } = await enrollTotp(server, email, PASSWORD);
    const token = session.accessToken as string;
    const from = freshIp();
    const disable = (code: string, ip = from) =>
      call('POST', '/auth/mfa/disable', ip, { body: { code }, token });
    for (let i = 0; i < codeBudget; i++) {
      expect((await disable(i % 2 ? '000000' : 'ABCD-EFGH-JK')).status).toBe(400);
    }
    expectThrottled(await disable(await totp(secret, Math.floor(Date.now() / 1000) + 30)), 'mfa_code');
    // The enrollment spent this time step's code: the next step's code is the current one.
    const next = await totp(secret, Math.floor(Date.now() / 1000) + 30);
    expect((await disable(next, freshIp())).status).toBe(200);
  });

  it('throttles the login MFA step across challenges', async () => {
    const { email } = await technician();
    const { secret } = await enrollTotp(server, email, PASSWORD);
    const from = freshIp();
    const statuses: number[] = [];
    for (let challenge = 0; challenge < 3; challenge++) {
      const started = await login(email, PASSWORD, from);
      for (let i = 0; i < 4; i++) {
        statuses.push(
          (
            await call('POST', '/auth/mfa/verify', from, {
              body: { tempToken: started.body.tempToken, code: '123456' },
            })
          ).status,
        );
      }
    }
    expect(statuses.slice(0, codeBudget).every((s) => s === 401)).toBe(true);
    expect(statuses[codeBudget]).toBe(429);
    const other = freshIp();
    const started = await login(email, PASSWORD, other);
    const verified = await call('POST', '/auth/mfa/verify', other, {
      body: {
        tempToken: started.body.tempToken,
        code: await totp(secret, Math.floor(Date.now() / 1000) + 30),
      },
    });
    expect(verified.status).toBe(200);
  });

  it('throttles wrong codes when confirming a TOTP setup', async () => {
    const { email } = await technician();
    const token = await plainToken(server, email);
    const from = freshIp();
    expect((await call('POST', '/auth/mfa/setup', from, { body: {}, token })).status).toBe(200);
    await exhaust(
      'mfa_code',
      codeBudget,
      () => call('POST', '/auth/mfa/enable', from, { body: { code: '000000' }, token }),
      400,
    );
  });

  it('throttles wrong SMS codes when confirming a phone', async () => {
    const { email } = await technician();
    const token = await plainToken(server, email);
    const from = freshIp();
    const phone = '+14155550199';
    expect(
      (await call('POST', '/auth/phone/verify', from, { body: { phoneNumber: phone }, token })).status,
    ).toBe(200);
    const sent = readOutbox(server)
      .filter((m) => m.kind === 'sms' && m.to === phone)
      .at(-1)!;
    const code = /\b(\d{6})\b/.exec(sent.text)![1]!;
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    // Five wrong tries kill the code; the answers after that (no live code) still count as failures.
    await exhaust(
      'mfa_code',
      codeBudget,
      () => call('POST', '/auth/phone/confirm', from, { body: { code: wrong }, token }),
      400,
    );
  });

  it('throttles step-up re-authentication by user, and a wrong one never ends the session', async () => {
    const { email } = await technician();
    const token = await mfaToken(server, email, PASSWORD);
    const from = freshIp();
    const register = (reauthPassword: string) =>
      call('POST', '/pam/approver-devices', from, {
        body: {
          name: 'Laptop',
          response: { id: 'x', rawId: 'x', type: 'public-key', response: {} },
          reauthPassword,
        },
        token,
      });
    for (let i = 0; i < passwordBudget; i++) {
      const res = await register('not-it');
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('reauth_failed');
    }
    expectThrottled(await register(PASSWORD), 'password');
    expect((await call('GET', '/auth/me', from, { token })).status).toBe(200);
  });
});

describe('keys and tokens', () => {
  it('throttles wrong API keys per address; a valid key elsewhere is unaffected', async () => {
    const { key } = insertApiKey(server, orgId);
    const from = freshIp();
    const withKey = (k: string, ip = from) =>
      call('GET', '/api-keys/current', ip, { headers: { 'x-api-key': k } });
    await exhaust(
      'api_key',
      SECRET_POLICIES.api_key.perAddress.failures,
      () => withKey(`svc_${'A'.repeat(32)}`),
      401,
    );
    expect((await withKey(key, freshIp())).status).toBe(200);
    for (let i = 0; i < 50; i++) expect((await withKey(key, freshIp())).status).toBe(200);
  });

  it('counts only failed enrollments: mass enrollment from one address goes on', async () => {
    const from = freshIp();
    const enroll = (body: object) => call('POST', '/agents/enroll', from, { body });
    const key = mintEnrollmentKey(server, orgId, { maxUsage: 1000 });
    const budget = SECRET_POLICIES.enrollment.perAddress.failures;
    for (let i = 0; i < budget + 10; i++) {
      expect((await enroll(enrollmentBody(key.key, { enrollmentSecret: SECRET }))).status).toBe(201);
    }
    await exhaust(
      'enrollment',
      budget,
      () => enroll(enrollmentBody(key.key, { enrollmentSecret: 'guess' })),
      403,
    );
    expectThrottled(await enroll(enrollmentBody(key.key, { enrollmentSecret: SECRET })), 'enrollment');
    expect(
      (
        await call('POST', '/agents/enroll', freshIp(), {
          body: enrollmentBody(key.key, { enrollmentSecret: SECRET }),
        })
      ).status,
    ).toBe(201);
  });

  it('throttles invalid invitation and reset links per address', async () => {
    const from = freshIp();
    const budget = SECRET_POLICIES.email_token.perAddress.failures;
    for (let i = 0; i < budget / 2; i++) {
      expect((await call('GET', `/auth/invitation?token=nope-${i}`, from)).status).toBe(400);
      expect(
        (
          await call('POST', '/auth/reset-password', from, {
            body: { token: `nope-${i}`, password: 'Quiet-Meadow-2031' },
          })
        ).status,
      ).toBe(400);
    }
    expectThrottled(await call('GET', '/auth/invitation?token=nope', from), 'email_token');
    expectThrottled(
      await call('POST', '/auth/accept-invite', from, {
        body: { token: 'nope', password: 'Quiet-Meadow-2031' },
      }),
      'email_token',
    );

    // A real reset link from another address still works.
    const { email } = await technician();
    const { token } = await nextMessageTo(server, email, async () => {
      expect((await call('POST', '/auth/forgot-password', freshIp(), { body: { email } })).status).toBe(200);
    });
    expect(
      (
        await call('POST', '/auth/reset-password', freshIp(), {
          body: { token, password: 'Quiet-Meadow-2031' },
        })
      ).status,
    ).toBe(200);
  });

  it('throttles invalid verify-email links on their own budget', async () => {
    const from = freshIp();
    await exhaust(
      'verify_email',
      SECRET_POLICIES.verify_email.perAddress.failures,
      () => call('POST', '/auth/verify-email', from, { body: { token: 'a'.repeat(43) } }),
      400,
    );
  });
});

describe('first-run setup token', () => {
  it('throttles wrong setup tokens per address', async () => {
    const fresh = await startServer({
      bootstrap: false,
      env: { TRUST_PROXY_HEADERS: 'true', TRUSTED_PROXY_CIDRS: '127.0.0.1/32,::1/128' },
    });
    try {
      const admin = { name: 'Grace Hopper', email: 'grace@gatehouse.test', password: 'Compiler-1952-Navy' };
      const setup = (setupToken: string, ip: string) =>
        fresh.api.request('POST', '/setup', {
          body: { ...admin, setupToken },
          headers: { 'x-forwarded-for': ip },
        });
      const from = '192.0.2.200';
      for (let i = 0; i < SECRET_POLICIES.setup_token.perAddress.failures; i++) {
        expect((await setup('guess', from)).status).toBe(403);
      }
      const refused = await setup(fresh.setupToken!, from);
      expect(refused.status).toBe(429);
      expect(refused.body.error).toBe(SECRET_POLICIES.setup_token.message);
      expect((await setup(fresh.setupToken!, '192.0.2.201')).status).toBe(201);
    } finally {
      await fresh.dispose();
    }
  });
});
