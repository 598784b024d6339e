import { describe, expect, it } from 'vitest';
import { insertOrgUser, insertPartnerUser, PASSWORD, ROLES } from '../support/seed';
import { auditSettled } from '../support/server';
import {
  server,
  partnerId,
  freshPhone,
  orgWithSettings,
  setOrgSettings,
  lastSmsCode,
  signIn,
  smsUser,
  useSmsMfaWorld,
} from '../support/sms-mfa-world';

// The organization MFA policy, and hostile request bodies on the SMS MFA endpoints.

useSmsMfaWorld();

describe('organization policy', () => {
  it('refuses SMS MFA when the organization disallows it, at enable, send and verify', async () => {
    const orgId = orgWithSettings({ security: { allowedMfaMethods: { sms: false } } });
    await insertOrgUser(server, orgId, ROLES.orgTechnician, 'nosms@contoso.test');
    const token = await signIn('nosms@contoso.test');
    const phone = freshPhone();
    await server.api.post('/auth/phone/verify', { phoneNumber: phone }, token);
    await server.api.post('/auth/phone/confirm', { code: lastSmsCode(phone) }, token);
    const refused = await server.api.post('/auth/mfa/sms/enable', {}, token);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error: 'SMS multi-factor authentication is not allowed by your organization',
      code: 'MFA_METHOD_NOT_ALLOWED',
    });

    // An account that enabled SMS before the organization turned it off.
    const existing = await smsUser('was-allowed@contoso.test');
    const login = await server.api.login('was-allowed@contoso.test', PASSWORD);
    await server.api.post('/auth/mfa/sms/send', { tempToken: login.body.tempToken });
    const code = lastSmsCode(existing.phone);
    setOrgSettings(existing.orgId, { security: { allowedMfaMethods: { sms: false } } });
    const send = await server.api.post('/auth/mfa/sms/send', { tempToken: login.body.tempToken });
    expect(send.status).toBe(403);
    expect(send.body.code).toBe('MFA_METHOD_NOT_ALLOWED');
    const verify = await server.api.post('/auth/mfa/verify', { tempToken: login.body.tempToken, code });
    expect(verify.status).toBe(403);
    expect(verify.body.code).toBe('MFA_METHOD_NOT_ALLOWED');
    // A recovery code still gets the technician in, to switch to TOTP.
    const recovered = await server.api.post('/auth/mfa/verify', {
      tempToken: login.body.tempToken,
      code: existing.recoveryCodes[0],
    });
    expect(recovered.status).toBe(200);
  });

  it('blocks disabling MFA when the organization requires it, and says so in /auth/me', async () => {
    const { orgId, userId, phone, session } = await smsUser('required@contoso.test', {
      security: { requireMfa: true },
    });
    const me = await server.api.get('/auth/me', session.accessToken);
    expect(me.body.mfaRequiredByPolicy).toBe(true);
    const refused = await server.api.post(
      '/auth/mfa/disable',
      { code: session.recoveryCodes[0] },
      session.accessToken,
    );
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error: 'Your organization requires multi-factor authentication',
      code: 'MFA_REQUIRED_BY_ORGANIZATION',
    });

    // Once the policy is lifted, a current SMS code (sent to the signed-in user) disables MFA and clears the phone.
    setOrgSettings(orgId, { security: { requireMfa: false } });
    expect((await server.api.get('/auth/me', session.accessToken)).body.mfaRequiredByPolicy).toBe(false);
    expect((await server.api.post('/auth/mfa/sms/send', {}, session.accessToken)).status).toBe(200);
    const disabled = await server.api.post(
      '/auth/mfa/disable',
      { code: lastSmsCode(phone) },
      session.accessToken,
    );
    expect(disabled.status).toBe(200);
    expect(
      server.context.db
        .prepare(
          'SELECT mfa_enabled, mfa_method, mfa_secret, phone_number, phone_verified FROM users WHERE id = ?',
        )
        .get(userId),
    ).toEqual({ mfa_enabled: 0, mfa_method: null, mfa_secret: null, phone_number: null, phone_verified: 0 });
    expect(
      (
        server.context.db
          .prepare('SELECT COUNT(*) AS n FROM mfa_recovery_codes WHERE user_id = ?')
          .get(userId) as { n: number }
      ).n,
    ).toBe(0);
    expect((await server.api.login('required@contoso.test', PASSWORD)).body.accessToken).toEqual(
      expect.any(String),
    );
    await auditSettled(server);
    const disable = server.context.db
      .prepare("SELECT details FROM audit_logs WHERE action = 'auth.mfa.disable' AND actor_id = ?")
      .get(userId) as { details: string };
    expect(JSON.parse(disable.details)).toEqual({ method: 'sms' });
  });

  it('applies no organization policy to partner technicians', async () => {
    await insertPartnerUser(server, partnerId, ROLES.partnerTechnician, 'partner-tech@acme.test', {
      orgAccess: 'all',
    });
    orgWithSettings({ security: { requireMfa: true, allowedMfaMethods: { sms: false } } });
    const token = await signIn('partner-tech@acme.test');
    expect((await server.api.get('/auth/me', token)).body.mfaRequiredByPolicy).toBe(false);
  });
});

describe('hostile bodies', () => {
  const bodies: unknown[] = [
    null,
    [],
    'text',
    42,
    true,
    {},
    { email: 1, token: 5 },
    { token: {}, password: [] },
    { phoneNumber: 14155550100, code: 123456 },
    { tempToken: null, code: '' },
    { companyName: 'x'.repeat(5000), acceptTerms: 'yes' },
    { currentPassword: null, newPassword: 'x'.repeat(5000) },
  ];
  const routes = [
    '/auth/register-partner',
    '/auth/register',
    '/auth/verify-email',
    '/auth/forgot-password',
    '/auth/reset-password',
    '/auth/change-password',
    '/auth/phone/verify',
    '/auth/phone/confirm',
    '/auth/mfa/sms/enable',
    '/auth/mfa/sms/send',
  ];

  it('answers every route with a 4xx and an error message, never a 5xx', async () => {
    const orgId = orgWithSettings({});
    await insertOrgUser(server, orgId, ROLES.orgTechnician, 'fuzz@contoso.test');
    const token = await signIn('fuzz@contoso.test');
    for (const path of routes) {
      for (const body of bodies) {
        for (const withToken of [false, true]) {
          const res = await server.api.request('POST', path, {
            rawBody: JSON.stringify(body),
            ...(withToken ? { token } : {}),
          });
          const label = `${path} ${JSON.stringify(body)?.slice(0, 60)} token=${withToken}`;
          expect(res.status, label).toBeGreaterThanOrEqual(400);
          expect(res.status, label).toBeLessThan(500);
          expect(res.body.error, label).toEqual(expect.any(String));
        }
      }
    }
  });
});
