import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN, auditSettled, enrollTotp, startServer, totp, type TestServer } from '../support/server';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server.dispose();
});

const nextStep = () => Math.floor(Date.now() / 1000) + 30;

describe('TOTP enrollment', () => {
  it('returns secret, otpauth URL, QR code and recovery codes, and enable issues an MFA session', async () => {
    const login = await server.api.login();
    const setup = await server.api.post('/auth/mfa/setup', {}, login.body.accessToken);
    expect(setup.status).toBe(200);
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(setup.body.otpAuthUrl).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    expect(setup.body.qrCodeDataUrl).toMatch(/^data:image\/png;base64,/);
    expect(setup.body.recoveryCodes).toHaveLength(10);

    const wrong = await server.api.post('/auth/mfa/enable', { code: '000000' }, login.body.accessToken);
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('INVALID_MFA_CODE');

    const enable = await server.api.post(
      '/auth/mfa/enable',
      { code: await totp(setup.body.secret) },
      login.body.accessToken,
    );
    expect(enable.status).toBe(200);
    expect(enable.body.recoveryCodes).toEqual(setup.body.recoveryCodes);
    const me = await server.api.get('/auth/me', enable.body.accessToken);
    expect(me.body).toMatchObject({ mfa: true, user: { mfaEnabled: true, mfaMethod: 'totp' } });

    const again = await server.api.post('/auth/mfa/setup', {}, enable.body.accessToken);
    expect(again.status).toBe(409);
  });

  it('keeps the secret encrypted at rest and the recovery codes hashed', async () => {
    const { secret, recoveryCodes } = await enrollTotp(server);
    const row = server.context.db
      .prepare('SELECT mfa_secret FROM users WHERE email = ?')
      .get(ADMIN.email) as { mfa_secret: string };
    expect(row.mfa_secret).toMatch(/^v1\./);
    expect(row.mfa_secret).not.toContain(secret);
    const hashes = server.context.db.prepare('SELECT code_hash FROM mfa_recovery_codes').all() as Array<{
      code_hash: string;
    }>;
    expect(hashes).toHaveLength(10);
    for (const code of recoveryCodes) expect(hashes.map((h) => h.code_hash)).not.toContain(code);
  });

  it('abandons setup data after 10 minutes', async () => {
    const login = await server.api.login();
    const setup = await server.api.post('/auth/mfa/setup', {}, login.body.accessToken);
    server.context.db.prepare("UPDATE mfa_setups SET expires_at = '2000-01-01T00:00:00.000Z'").run();
    const enable = await server.api.post(
      '/auth/mfa/enable',
      { code: await totp(setup.body.secret) },
      login.body.accessToken,
    );
    expect(enable.status).toBe(400);
    expect(enable.body.code).toBe('MFA_SETUP_EXPIRED');
  });
});

describe('MFA login', () => {
  it('asks for a code after the password, then issues tokens carrying mfa: true', async () => {
    const { secret } = await enrollTotp(server);
    const login = await server.api.login();
    expect(login.status).toBe(200);
    expect(login.body).toEqual({ mfaRequired: true, tempToken: expect.any(String), mfaMethod: 'totp' });
    expect(login.body.accessToken).toBeUndefined();

    const code = await totp(secret, nextStep());
    const verify = await server.api.post('/auth/mfa/verify', { tempToken: login.body.tempToken, code });
    expect(verify.status).toBe(200);
    expect(verify.body.mfa).toBe(true);
    expect((await server.api.get('/auth/me', verify.body.accessToken)).body.mfa).toBe(true);

    // The tempToken is single use, and the code cannot be replayed on a fresh challenge either.
    const reuse = await server.api.post('/auth/mfa/verify', { tempToken: login.body.tempToken, code });
    expect(reuse.status).toBe(401);
    expect(reuse.body.code).toBe('MFA_SESSION_EXPIRED');
    const second = await server.api.login();
    const replay = await server.api.post('/auth/mfa/verify', { tempToken: second.body.tempToken, code });
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ error: 'Invalid MFA code', code: 'INVALID_MFA_CODE' });
  });

  it('expires the tempToken after 5 minutes', async () => {
    const { secret } = await enrollTotp(server);
    const login = await server.api.login();
    server.context.db.prepare("UPDATE mfa_challenges SET expires_at = '2000-01-01T00:00:00.000Z'").run();
    const verify = await server.api.post('/auth/mfa/verify', {
      tempToken: login.body.tempToken,
      code: await totp(secret, nextStep()),
    });
    expect(verify.status).toBe(401);
    expect(verify.body.code).toBe('MFA_SESSION_EXPIRED');
  });

  it('ends a challenge after five wrong codes', async () => {
    const { secret } = await enrollTotp(server);
    const login = await server.api.login();
    for (let i = 0; i < 5; i++) {
      const wrong = await server.api.post('/auth/mfa/verify', {
        tempToken: login.body.tempToken,
        code: '000000',
      });
      expect(wrong.status).toBe(401);
    }
    const right = await server.api.post('/auth/mfa/verify', {
      tempToken: login.body.tempToken,
      code: await totp(secret, nextStep()),
    });
    expect(right.status).toBe(401);
    expect(right.body.code).toBe('MFA_SESSION_EXPIRED');
  });

  it('rate-limits MFA verification per user', async () => {
    await enrollTotp(server);
    const statuses: number[] = [];
    for (let challenge = 0; challenge < 3; challenge++) {
      const login = await server.api.login();
      // Four wrong codes per challenge: below the five that would end the challenge itself.
      for (let i = 0; i < 4; i++) {
        statuses.push(
          (await server.api.post('/auth/mfa/verify', { tempToken: login.body.tempToken, code: '123456' }))
            .status,
        );
      }
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe('recovery codes', () => {
  it('each code signs in once', async () => {
    const { recoveryCodes } = await enrollTotp(server);
    const code = recoveryCodes[0]!.toLowerCase(); // case and dashes do not matter
    const first = await server.api.login();
    const ok = await server.api.post('/auth/mfa/verify', { tempToken: first.body.tempToken, code });
    expect(ok.status).toBe(200);
    expect((await server.api.get('/auth/me', ok.body.accessToken)).body.mfa).toBe(true);

    const second = await server.api.login();
    const reused = await server.api.post('/auth/mfa/verify', { tempToken: second.body.tempToken, code });
    expect(reused.status).toBe(401);
    expect(reused.body.code).toBe('INVALID_MFA_CODE');
  });

  it('regenerating needs an MFA session and replaces every code', async () => {
    const { recoveryCodes, session } = await enrollTotp(server);
    const regenerated = await server.api.post('/auth/mfa/recovery-codes', {}, session.accessToken);
    expect(regenerated.status).toBe(200);
    expect(regenerated.body.recoveryCodes).toHaveLength(10);
    const login = await server.api.login();
    const old = await server.api.post('/auth/mfa/verify', {
      tempToken: login.body.tempToken,
      code: recoveryCodes[1],
    });
    expect(old.status).toBe(401);
    const fresh = await server.api.post('/auth/mfa/verify', {
      tempToken: login.body.tempToken,
      code: regenerated.body.recoveryCodes[0],
    });
    expect(fresh.status).toBe(200);
    // Audited, without the codes themselves.
    await auditSettled(server);
    const entries = server.context.db
      .prepare("SELECT details FROM audit_logs WHERE action = 'auth.mfa.recovery_codes.rotate'")
      .all() as Array<{ details: string }>;
    expect(entries).toHaveLength(1);
    for (const code of regenerated.body.recoveryCodes as string[])
      expect(entries[0]!.details).not.toContain(code);
  });
});

describe('the requireMfa guard', () => {
  it('answers 403 with the MFA-required message to a session without MFA', async () => {
    const login = await server.api.login(); // no MFA enrolled: the token carries mfa: false
    const res = await server.api.post('/auth/mfa/recovery-codes', {}, login.body.accessToken);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      error: 'MFA required',
      code: 'MFA_REQUIRED',
    });
  });

  it('lets a session without MFA through when ENABLE_2FA is off', async () => {
    const relaxed = await startServer({ env: { ENABLE_2FA: 'false' } });
    try {
      const login = await relaxed.api.login();
      const res = await relaxed.api.post('/auth/mfa/recovery-codes', {}, login.body.accessToken);
      // Passes the guard and reaches the handler, which explains MFA is not enrolled.
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('MFA_NOT_ENABLED');
    } finally {
      await relaxed.dispose();
    }
  });
});

describe('disable', () => {
  it('needs a current code, clears the secret and codes, and login no longer asks for MFA', async () => {
    const { session, recoveryCodes } = await enrollTotp(server);
    expect((await server.api.post('/auth/mfa/disable', { code: '000000' }, session.accessToken)).status).toBe(
      400,
    );
    const ok = await server.api.post('/auth/mfa/disable', { code: recoveryCodes[2] }, session.accessToken);
    expect(ok.status).toBe(200);
    const row = server.context.db
      .prepare('SELECT mfa_enabled, mfa_secret FROM users WHERE email = ?')
      .get(ADMIN.email);
    expect(row).toEqual({ mfa_enabled: 0, mfa_secret: null });
    expect((await server.api.login()).body.accessToken).toEqual(expect.any(String));
  });
});
