import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrg, insertOrgRole, insertOrgUser, PASSWORD, readOutbox } from '../support/seed';
import { createOrgProvider, setStatus, startSsoWorld, type SsoWorld } from '../support/sso-world';

// Rules 13, 14 and 16: an enforcing provider refuses password sign-in with the wrong-password answer and sends no
// reset link; the sign-in page's discovery keys on DNS-verified domains only; GET /sso/check; the IdP's MFA counts
// only when the provider trusts it and the ID token's amr says so.

let world: SsoWorld;
let providerId: string;
const api = () => world.server.api;

async function proveDomain(orgId: string, domain: string): Promise<void> {
  const claim = await api().request('POST', '/sso/domains', { token: world.admin, body: { orgId, domain } });
  expect(claim.status).toBe(201);
  world.txt.set(claim.body.txtName, [claim.body.txtValue]);
  expect(
    (await api().request('POST', `/sso/domains/${claim.body.id}/verify`, { token: world.admin })).status,
  ).toBe(200);
}

beforeAll(async () => {
  world = await startSsoWorld({ env: { ENABLE_2FA: 'true' } });
  const roleId = insertOrgRole(world.server, world.orgId, 'SSO users', [['devices', 'view']]);
  providerId = (await createOrgProvider(world, { defaultRoleId: roleId, name: 'Contoso Entra' })).id;
  await insertOrgUser(world.server, world.orgId, roleId, 'pat@contoso.test');
});
afterAll(async () => {
  await world?.dispose();
});

describe('SSO enforcement (rule 13)', () => {
  it('refuses password sign-in for governed users exactly like a wrong password, and sends no reset link', async () => {
    expect((await api().login('pat@contoso.test', PASSWORD)).status).toBe(200);
    await setStatus(world, providerId, 'active');
    expect((await api().login('pat@contoso.test', PASSWORD)).status).toBe(200);
    await api().request('PATCH', `/sso/providers/${providerId}`, {
      token: world.admin,
      body: { enforceSSO: true },
    });

    const preview = await api().get(`/sso/providers/${providerId}/enforcement-preview`, world.admin);
    expect(preview.body).toEqual({
      total: 1,
      users: [{ id: expect.any(String), email: 'pat@contoso.test', name: 'pat' }],
    });
    const governed = await api().login('pat@contoso.test', PASSWORD);
    const wrong = await api().login('pat@contoso.test', 'Not-The-Password-1');
    expect(governed.status).toBe(401);
    expect(governed.body).toEqual(wrong.body);
    // Platform administrators are not governed by an organization's provider.
    expect((await api().login()).status).toBe(200);

    const before = readOutbox(world.server).length;
    const forgot = await api().post('/auth/forgot-password', { email: 'pat@contoso.test' });
    const unknown = await api().post('/auth/forgot-password', { email: 'nobody@contoso.test' });
    expect(forgot.status).toBe(200);
    expect(forgot.body).toEqual(unknown.body);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(readOutbox(world.server).length).toBe(before);

    // Disabling the provider gives the password back.
    await setStatus(world, providerId, 'inactive');
    expect((await api().login('pat@contoso.test', PASSWORD)).status).toBe(200);
    await setStatus(world, providerId, 'active');
  });
});

describe('sign-in page discovery (rule 14) and check', () => {
  it('offers the provider only for a domain DNS-verified by exactly one organization', async () => {
    const discover = (email: string) => api().post('/auth/sso-discovery', { email });
    expect((await discover('pat@contoso.test')).body).toEqual({ sso: null });
    await proveDomain(world.orgId, 'contoso.test');
    expect((await discover('someone-unknown@CONTOSO.test')).body).toEqual({
      sso: { providerName: 'Contoso Entra', loginUrl: `/api/v1/sso/login/${world.orgId}`, enforceSSO: true },
    });
    // allowedDomains plays no part; a domain claimed but not proven does not count.
    expect((await discover('x@fabrikam.test')).body).toEqual({ sso: null });
    const second = insertOrg(world.server, world.partnerId, 'Second');
    const claim = await api().request('POST', '/sso/domains', {
      token: world.admin,
      body: { orgId: second, domain: 'contoso.test' },
    });
    expect((await discover('x@contoso.test')).body.sso).not.toBeNull();
    world.txt.set(claim.body.txtName, [claim.body.txtValue]);
    await api().request('POST', `/sso/domains/${claim.body.id}/verify`, { token: world.admin });
    expect((await discover('x@contoso.test')).body).toEqual({ sso: null });
    await api().request('DELETE', `/sso/domains/${claim.body.id}`, { token: world.admin });
    expect((await discover('x@contoso.test')).body.sso).not.toBeNull();
  });

  it('answers GET /sso/check without a token', async () => {
    expect((await api().get(`/sso/check/${world.orgId}`)).body).toEqual({
      enabled: true,
      providerName: 'Contoso Entra',
      type: 'oidc',
      enforceSSO: true,
    });
    const unknown = await api().get('/sso/check/00000000-0000-4000-8000-00000000abcd');
    expect(unknown.body).toEqual({ enabled: false, providerName: null, type: null, enforceSSO: false });
  });
});

describe('trustsIdpMfa (rule 16)', () => {
  it("asks an MFA user for Gatehouse's own code unless the provider trusts the IdP's mfa amr", async () => {
    world.idp.signInAs({ sub: 'sub-pat', email: 'pat@contoso.test', email_verified: true, name: 'Pat' }, [
      'pwd',
      'mfa',
    ]);
    world.server.context.db
      .prepare(
        "UPDATE users SET mfa_enabled = 1, mfa_method = 'totp', mfa_secret = 'x' WHERE email = 'pat@contoso.test'",
      )
      .run();
    const first = await world.browser().signIn(`/api/v1/sso/login/${world.orgId}`);
    const challenged = await api().post('/sso/exchange', { code: first.code });
    expect(challenged.body).toMatchObject({
      mfaRequired: true,
      tempToken: expect.any(String),
      redirectPath: '/',
    });

    await api().request('PATCH', `/sso/providers/${providerId}`, {
      token: world.admin,
      body: { trustsIdpMfa: true },
    });
    const trusted = await world.browser().signIn(`/api/v1/sso/login/${world.orgId}?redirect=/approvals`);
    const session = await api().post('/sso/exchange', { code: trusted.code });
    expect(session.body).toMatchObject({ mfa: true, redirectPath: '/approvals' });

    world.idp.signInAs({ sub: 'sub-pat', email: 'pat@contoso.test', email_verified: true, name: 'Pat' }, [
      'pwd',
    ]);
    const passwordOnly = await world.browser().signIn(`/api/v1/sso/login/${world.orgId}`);
    expect((await api().post('/sso/exchange', { code: passwordOnly.code })).body.mfaRequired).toBe(true);
  });
});
