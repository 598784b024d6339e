import { describe, expect, it } from 'vitest';
import { insertOrgUser, PASSWORD, ROLES } from '../support/seed';
import { auditSettled, totp } from '../support/server';
import {
  server,
  freshPhone,
  orgWithSettings,
  lastSmsCode,
  wrongCode,
  signIn,
  smsUser,
  smsLogin,
  useSmsMfaWorld,
} from '../support/sms-mfa-world';

// Phone verification and signing in with an SMS code through the outbox.

useSmsMfaWorld();

describe('phone verification', () => {
  it('sends a hashed 6-digit code and confirms the phone with it', async () => {
    const orgId = orgWithSettings({});
    const userId = await insertOrgUser(server, orgId, ROLES.orgTechnician, 'phone@contoso.test');
    const token = await signIn('phone@contoso.test');

    const bad = await server.api.post('/auth/phone/verify', { phoneNumber: '0415 555 0100' }, token);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(
      'phoneNumber: Phone number must be in E.164 format, for example +14155550123',
    );
    expect((await server.api.post('/auth/phone/verify', { phoneNumber: '+14155550100' })).status).toBe(401);

    const phone = freshPhone();
    const sent = await server.api.post('/auth/phone/verify', { phoneNumber: phone }, token);
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({
      success: true,
      expiresAt: expect.any(String),
      sentTo: `+*******${phone.slice(-4)}`,
    });
    expect(Date.parse(sent.body.expiresAt) - Date.now()).toBeGreaterThan(9 * 60 * 1000);
    const code = lastSmsCode(phone);
    const row = server.context.db
      .prepare("SELECT code_hash, phone_number FROM sms_codes WHERE user_id = ? AND purpose = 'phone_verify'")
      .get(userId) as { code_hash: string; phone_number: string };
    expect(row.phone_number).toBe(phone);
    expect(row.code_hash).not.toContain(code);
    // Not yet on the account.
    expect((await server.api.get('/auth/me', token)).body.user).toMatchObject({
      phoneNumber: null,
      phoneVerified: false,
    });

    const wrong = await server.api.post('/auth/phone/confirm', { code: wrongCode(code) }, token);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ error: 'Invalid verification code', code: 'INVALID_SMS_CODE' });
    const ok = await server.api.post('/auth/phone/confirm', { code }, token);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ success: true, phoneNumber: phone, phoneVerified: true });
    expect((await server.api.get('/auth/me', token)).body.user).toMatchObject({
      phoneNumber: phone,
      phoneVerified: true,
    });

    const reused = await server.api.post('/auth/phone/confirm', { code }, token);
    expect(reused.status).toBe(400);
    expect(reused.body.code).toBe('SMS_CODE_EXPIRED');

    await auditSettled(server);
    const audit = server.context.db
      .prepare("SELECT details FROM audit_logs WHERE action = 'user.phone.verify' AND actor_id = ?")
      .get(userId) as { details: string };
    expect(audit.details).not.toContain(phone);
  });

  it('kills a code after five wrong tries and only the newest code counts', async () => {
    const orgId = orgWithSettings({});
    const userId = await insertOrgUser(server, orgId, ROLES.orgTechnician, 'tries@contoso.test');
    const token = await signIn('tries@contoso.test');
    const phone = freshPhone();
    await server.api.post('/auth/phone/verify', { phoneNumber: phone }, token);
    await server.api.post('/auth/phone/verify', { phoneNumber: phone }, token);
    const live = server.context.db
      .prepare('SELECT COUNT(*) AS n FROM sms_codes WHERE user_id = ? AND consumed_at IS NULL')
      .get(userId) as { n: number };
    expect(live.n).toBe(1); // the first code was retired by the second
    const code = lastSmsCode(phone);
    for (let i = 0; i < 5; i++) {
      expect((await server.api.post('/auth/phone/confirm', { code: wrongCode(code) }, token)).status).toBe(
        400,
      );
    }
    const dead = await server.api.post('/auth/phone/confirm', { code }, token);
    expect(dead.status).toBe(400);
    expect(dead.body.code).toBe('SMS_CODE_EXPIRED');
  });

  it('limits SMS sends per user', async () => {
    const orgId = orgWithSettings({});
    await insertOrgUser(server, orgId, ROLES.orgTechnician, 'flood@contoso.test');
    const token = await signIn('flood@contoso.test');
    const phone = freshPhone();
    for (let i = 0; i < 5; i++) {
      expect((await server.api.post('/auth/phone/verify', { phoneNumber: phone }, token)).status).toBe(200);
    }
    const refused = await server.api.post('/auth/phone/verify', { phoneNumber: phone }, token);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('SMS MFA', () => {
  it('needs a verified phone, then enables with recovery codes and an MFA session', async () => {
    const orgId = orgWithSettings({});
    const userId = await insertOrgUser(server, orgId, ROLES.orgTechnician, 'nophone@contoso.test');
    const token = await signIn('nophone@contoso.test');
    const refused = await server.api.post('/auth/mfa/sms/enable', {}, token);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('PHONE_NOT_VERIFIED');

    const phone = freshPhone();
    await server.api.post('/auth/phone/verify', { phoneNumber: phone }, token);
    await server.api.post('/auth/phone/confirm', { code: lastSmsCode(phone) }, token);
    const enabled = await server.api.post('/auth/mfa/sms/enable', {}, token);
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({
      success: true,
      mfa: true,
      user: { mfaEnabled: true, mfaMethod: 'sms' },
    });
    expect(enabled.body.recoveryCodes).toHaveLength(10);
    expect((await server.api.get('/auth/me', enabled.body.accessToken)).body.mfa).toBe(true);
    expect(
      (
        server.context.db
          .prepare('SELECT COUNT(*) AS n FROM mfa_recovery_codes WHERE user_id = ?')
          .get(userId) as { n: number }
      ).n,
    ).toBe(10);

    const again = await server.api.post('/auth/mfa/sms/enable', {}, enabled.body.accessToken);
    expect(again.status).toBe(409);

    await auditSettled(server);
    const actions = server.context.db
      .prepare(
        "SELECT action, details FROM audit_logs WHERE actor_id = ? AND action LIKE 'auth.mfa.%' ORDER BY seq",
      )
      .all(userId) as Array<{ action: string; details: string }>;
    expect(actions.map((a) => a.action)).toEqual(['auth.mfa.setup', 'auth.mfa.enable']);
    expect(JSON.parse(actions[0]!.details)).toMatchObject({ method: 'sms' });
  });

  it('signs in with password, an SMS code and a one-time verify; wrong and replayed codes fail', async () => {
    const { phone, recoveryCodes } = await smsUser('sms-login@contoso.test');
    const login = await server.api.login('sms-login@contoso.test', PASSWORD);
    expect(login.body).toEqual({ mfaRequired: true, tempToken: expect.any(String), mfaMethod: 'sms' });

    const sent = await server.api.post('/auth/mfa/sms/send', { tempToken: login.body.tempToken });
    expect(sent.status).toBe(200);
    expect(sent.body.sentTo).toBe(`+*******${phone.slice(-4)}`);
    const code = lastSmsCode(phone);
    const wrong = await server.api.post('/auth/mfa/verify', {
      tempToken: login.body.tempToken,
      code: wrongCode(code),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'Invalid MFA code', code: 'INVALID_MFA_CODE' });
    const ok = await server.api.post('/auth/mfa/verify', { tempToken: login.body.tempToken, code });
    expect(ok.status).toBe(200);
    expect(ok.body.mfa).toBe(true);
    expect((await server.api.get('/auth/me', ok.body.accessToken)).body).toMatchObject({ mfa: true });

    const second = await server.api.login('sms-login@contoso.test', PASSWORD);
    const replay = await server.api.post('/auth/mfa/verify', { tempToken: second.body.tempToken, code });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('INVALID_MFA_CODE');
    // Recovery codes still work for an SMS account.
    const recovered = await server.api.post('/auth/mfa/verify', {
      tempToken: second.body.tempToken,
      code: recoveryCodes[0],
    });
    expect(recovered.status).toBe(200);

    const expired = await server.api.post('/auth/mfa/sms/send', { tempToken: 'mfa_not-a-challenge' });
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('MFA_SESSION_EXPIRED');
  });

  it('ends the challenge after five wrong SMS codes', async () => {
    const { phone } = await smsUser('sms-five@contoso.test');
    const login = await server.api.login('sms-five@contoso.test', PASSWORD);
    await server.api.post('/auth/mfa/sms/send', { tempToken: login.body.tempToken });
    const code = lastSmsCode(phone);
    for (let i = 0; i < 5; i++) {
      expect(
        (
          await server.api.post('/auth/mfa/verify', {
            tempToken: login.body.tempToken,
            code: wrongCode(code),
          })
        ).status,
      ).toBe(401);
    }
    const late = await server.api.post('/auth/mfa/verify', { tempToken: login.body.tempToken, code });
    expect(late.status).toBe(401);
    expect(late.body.code).toBe('MFA_SESSION_EXPIRED');
  });

  it('refuses sms/send for an account whose method is not SMS', async () => {
    const orgId = orgWithSettings({});
    const userId = await insertOrgUser(server, orgId, ROLES.orgTechnician, 'totp-only@contoso.test');
    server.context.db
      .prepare("UPDATE users SET mfa_enabled = 1, mfa_method = 'totp' WHERE id = ?")
      .run(userId);
    const login = await server.api.login('totp-only@contoso.test', PASSWORD);
    const res = await server.api.post('/auth/mfa/sms/send', { tempToken: login.body.tempToken });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('MFA_METHOD_MISMATCH');
  });

  it('lets an MFA session move the phone of an SMS account and switch it to TOTP', async () => {
    const { phone, session } = await smsUser('mover@contoso.test');
    // The session that enable returned carries mfa: true.
    const move = await server.api.post(
      '/auth/phone/verify',
      { phoneNumber: freshPhone() },
      session.accessToken,
    );
    expect(move.status).toBe(200);
    const mfaSession = await smsLogin('mover@contoso.test', phone);
    const setup = await server.api.post('/auth/mfa/setup', {}, mfaSession);
    expect(setup.status).toBe(200);
    const switched = await server.api.post(
      '/auth/mfa/enable',
      { code: await totp(setup.body.secret) },
      mfaSession,
    );
    expect(switched.status).toBe(200);
    expect(switched.body.user).toMatchObject({ mfaMethod: 'totp', phoneNumber: phone });
    const login = await server.api.login('mover@contoso.test', PASSWORD);
    expect(login.body.mfaMethod).toBe('totp');
  });

  it('refuses to switch an SMS account to TOTP or move its phone without an MFA session', async () => {
    const orgId = orgWithSettings({});
    await insertOrgUser(server, orgId, ROLES.orgTechnician, 'stolen@contoso.test');
    const passwordOnly = await signIn('stolen@contoso.test'); // issued before SMS MFA was enabled
    const phone = freshPhone();
    await server.api.post('/auth/phone/verify', { phoneNumber: phone }, passwordOnly);
    await server.api.post('/auth/phone/confirm', { code: lastSmsCode(phone) }, passwordOnly);
    expect((await server.api.post('/auth/mfa/sms/enable', {}, passwordOnly)).status).toBe(200);

    const move = await server.api.post('/auth/phone/verify', { phoneNumber: freshPhone() }, passwordOnly);
    expect(move.status).toBe(403);
    expect(move.body.code).toBe('MFA_REQUIRED');
    const setup = await server.api.post('/auth/mfa/setup', {}, passwordOnly);
    expect(setup.status).toBe(403);
    expect(setup.body.code).toBe('MFA_REQUIRED');
  });
});
