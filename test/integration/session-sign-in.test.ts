import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MeResponse } from '../../server/contract';
import { insertOrgRole, insertOrgUser, PASSWORD } from '../support/seed';
import { auditSettled, enrollTotp, totp } from '../support/server';
import { createOrgProvider, setStatus, startSsoWorld, type SsoWorld } from '../support/sso-world';

// How each session was signed in (issue 16, the sessions panel said "Password only" after single sign-on):
// GET /auth/me `signIn` names the first step (password or single sign-on via which provider) and the second
// factor (authenticator app, the IdP's own MFA, or none), from the sign-in's audit entry tied to the session; a
// refreshed session keeps it, and each session answers for itself.

let world: SsoWorld;
let providerId: string;
let roleId: string;
const api = () => world.server.api;

beforeAll(async () => {
  world = await startSsoWorld({ env: { ENABLE_2FA: 'true' } });
  roleId = insertOrgRole(world.server, world.orgId, 'SSO users', [['devices', 'view']]);
  providerId = (await createOrgProvider(world, { defaultRoleId: roleId, name: 'Contoso Entra' })).id;
  await setStatus(world, providerId, 'active');
});
afterAll(async () => {
  await world?.dispose();
});

async function signInOf(accessToken: string): Promise<MeResponse['signIn']> {
  await auditSettled(world.server);
  const me = await api().get('/auth/me', accessToken);
  expect(me.status).toBe(200);
  return (me.body as MeResponse).signIn;
}

/** Signs `email` in through the IdP and exchanges the fragment code (with the owed code when one is asked). */
async function ssoSignIn(email: string, amr: string[], secret?: string) {
  world.idp.signInAs({ sub: `sub-${email}`, email, email_verified: true, name: email }, amr);
  const { code } = await world.browser().signIn(`/api/v1/sso/login/${world.orgId}`);
  const exchanged = await api().post('/sso/exchange', { code });
  expect(exchanged.status).toBe(200);
  if (!exchanged.body.mfaRequired) return exchanged.body as { accessToken: string; refreshToken: string };
  expect(secret).toBeDefined();
  const verified = await api().post('/auth/mfa/verify', {
    tempToken: exchanged.body.tempToken,
    code: await totp(secret!, Math.floor(Date.now() / 1000) + 30),
  });
  expect(verified.status).toBe(200);
  return verified.body as { accessToken: string; refreshToken: string };
}

describe('GET /auth/me signIn', () => {
  it('says password, or password and the authenticator app, for a password sign-in', async () => {
    await insertOrgUser(world.server, world.orgId, roleId, 'pw@contoso.test');
    const plain = await api().login('pw@contoso.test', PASSWORD);
    expect(await signInOf(plain.body.accessToken)).toEqual({
      method: 'password',
      secondFactor: null,
      providerName: null,
      at: expect.any(String),
    });

    await insertOrgUser(world.server, world.orgId, roleId, 'pw-mfa@contoso.test');
    const { secret } = await enrollTotp(world.server, 'pw-mfa@contoso.test', PASSWORD);
    const first = await api().login('pw-mfa@contoso.test', PASSWORD);
    const verified = await api().post('/auth/mfa/verify', {
      tempToken: first.body.tempToken,
      code: await totp(secret, Math.floor(Date.now() / 1000) + 30),
    });
    expect(verified.status).toBe(200);
    expect(await signInOf(verified.body.accessToken)).toMatchObject({
      method: 'password',
      secondFactor: 'totp',
    });
  });

  it('says single sign-on and its provider, and keeps saying it after a refresh', async () => {
    await insertOrgUser(world.server, world.orgId, roleId, 'sso@contoso.test');
    const session = await ssoSignIn('sso@contoso.test', ['pwd']);
    const expected = { method: 'sso', secondFactor: null, providerName: 'Contoso Entra' };
    expect(await signInOf(session.accessToken)).toMatchObject(expected);

    const refreshed = await api().post('/auth/refresh', { refreshToken: session.refreshToken });
    expect(refreshed.status).toBe(200);
    expect(await signInOf(refreshed.body.accessToken)).toMatchObject(expected);

    // Each session answers for itself: a password sign-in of the same account next to it says password.
    const other = await api().login('sso@contoso.test', PASSWORD);
    expect(await signInOf(other.body.accessToken)).toMatchObject({ method: 'password' });
    expect(await signInOf(refreshed.body.accessToken)).toMatchObject(expected);
  });

  it("says single sign-on with Gatehouse's own code, or with the IdP's MFA when the provider trusts it", async () => {
    await insertOrgUser(world.server, world.orgId, roleId, 'sso-mfa@contoso.test');
    const { secret } = await enrollTotp(world.server, 'sso-mfa@contoso.test', PASSWORD);
    const withCode = await ssoSignIn('sso-mfa@contoso.test', ['pwd', 'mfa'], secret);
    expect(await signInOf(withCode.accessToken)).toMatchObject({
      method: 'sso',
      secondFactor: 'totp',
      providerName: 'Contoso Entra',
    });

    await api().request('PATCH', `/sso/providers/${providerId}`, {
      token: world.admin,
      body: { trustsIdpMfa: true },
    });
    const trusted = await ssoSignIn('sso-mfa@contoso.test', ['pwd', 'mfa']);
    expect(await signInOf(trusted.accessToken)).toMatchObject({
      method: 'sso',
      secondFactor: 'idp_mfa',
      providerName: 'Contoso Entra',
    });
  });

  it('refuses a challenge whose provider was altered in the temp token', async () => {
    await insertOrgUser(world.server, world.orgId, roleId, 'sso-alter@contoso.test');
    const { secret } = await enrollTotp(world.server, 'sso-alter@contoso.test', PASSWORD);
    await api().request('PATCH', `/sso/providers/${providerId}`, {
      token: world.admin,
      body: { trustsIdpMfa: false },
    });
    world.idp.signInAs(
      { sub: 'sub-alter', email: 'sso-alter@contoso.test', email_verified: true, name: 'Alter' },
      ['pwd'],
    );
    const { code } = await world.browser().signIn(`/api/v1/sso/login/${world.orgId}`);
    const exchanged = await api().post('/sso/exchange', { code });
    const tempToken = exchanged.body.tempToken as string;
    expect(tempToken.startsWith(`mfa_sso.${providerId}.`)).toBe(true);
    const altered = tempToken.replace(providerId, '00000000-0000-4000-8000-000000000000');
    const refused = await api().post('/auth/mfa/verify', {
      tempToken: altered,
      code: await totp(secret, Math.floor(Date.now() / 1000) + 30),
    });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('MFA_SESSION_EXPIRED');
  });
});
