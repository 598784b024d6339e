import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertOrgRole, insertOrgUser } from '../support/seed';
import { auditSettled } from '../support/server';
import { landing } from '../support/sso-browser';
import { createOrgProvider, setStatus, startSsoWorld, type SsoWorld } from '../support/sso-world';

// Every refusal of rules 10-12 against the real IdP: each ends on /login?error=<code> and signs nobody in. The
// ID-token refusals use the IdP's tamper hook (test/support/oidc-provider.ts): the token is genuine but for the one
// claim under test, re-signed with the IdP's own key.

let world: SsoWorld;
let providerId: string;
const api = () => world.server.api;
const HOUR = 3600;

const alice = { sub: 'sub-alice', email: 'alice@contoso.test', email_verified: true, name: 'Alice' };

/** Runs a sign-in up to (not including) the callback; returns the browser and the callback URL the IdP sent. */
async function toCallback() {
  const browser = world.browser();
  const { url } = await browser.follow(`/api/v1/sso/login/${world.orgId}`, true);
  expect(url.pathname).toBe('/api/v1/sso/callback');
  return { browser, callback: url };
}

async function callbackLanding(browser: ReturnType<SsoWorld['browser']>, callback: URL) {
  const res = await browser.get(callback);
  expect(res.status).toBe(302);
  return landing(new URL(res.headers.get('location')!, world.server.url));
}

async function signInError(): Promise<string | null> {
  return (await world.browser().signIn(`/api/v1/sso/login/${world.orgId}`)).error;
}

beforeAll(async () => {
  world = await startSsoWorld();
  const roleId = insertOrgRole(world.server, world.orgId, 'SSO users', [['devices', 'view']]);
  const provider = await createOrgProvider(world, { defaultRoleId: roleId, allowedDomains: 'contoso.test' });
  providerId = provider.id;
  await setStatus(world, providerId, 'active');
});
afterAll(async () => {
  await world?.dispose();
});
beforeEach(() => {
  world.idp.tamperIdToken(null);
  world.idp.signInAs(alice);
});

describe('ID token checks (rule 10 f)', () => {
  const cases: Array<[string, (c: Record<string, unknown>) => Record<string, unknown>]> = [
    ['wrong nonce', (c) => ({ ...c, nonce: 'not-the-nonce' })],
    ['wrong audience', (c) => ({ ...c, aud: 'someone-else' })],
    ['wrong issuer', (c) => ({ ...c, iss: 'https://evil.example' })],
    ['expired token', (c) => ({ ...c, iat: Number(c.iat) - 2 * HOUR, exp: Number(c.iat) - HOUR })],
  ];
  for (const [name, change] of cases)
    it(`refuses a ${name} with sso_failed and signs nobody in`, async () => {
      world.idp.tamperIdToken(change);
      const before = world.server.context.db
        .prepare('SELECT COUNT(*) AS n FROM sso_exchange_codes')
        .get() as {
        n: number;
      };
      expect(await signInError()).toBe('sso_failed');
      const after = world.server.context.db.prepare('SELECT COUNT(*) AS n FROM sso_exchange_codes').get() as {
        n: number;
      };
      expect(after.n).toBe(before.n);
    });

  it('accepts a token the hook re-signed without changing a claim (only the claim under test made the difference)', async () => {
    world.idp.tamperIdToken((c) => c);
    const result = await world.browser().signIn(`/api/v1/sso/login/${world.orgId}`);
    expect(result.error).toBeNull();
    expect(result.code).toBeTruthy();
  });
});

describe('the round trip (rule 10 d, rule 12)', () => {
  it('refuses a callback without the state cookie', async () => {
    const { browser, callback } = await toCallback();
    browser.dropCookie(world.server.url, 'service_sso_state');
    expect((await callbackLanding(browser, callback)).error).toBe('session_expired');
  });

  it("refuses another browser's state cookie", async () => {
    const first = await toCallback();
    const second = await toCallback();
    const othersCookie = second.browser.cookie(world.server.url, 'service_sso_state')!;
    first.browser.setCookie(world.server.url, 'service_sso_state', othersCookie, '/api/v1/sso/callback');
    expect((await callbackLanding(first.browser, first.callback)).error).toBe('session_expired');
  });

  it('refuses a replayed callback, even with the cookie put back', async () => {
    const { browser, callback } = await toCallback();
    const cookie = browser.cookie(world.server.url, 'service_sso_state')!;
    expect((await callbackLanding(browser, callback)).code).toBeTruthy();
    browser.setCookie(world.server.url, 'service_sso_state', cookie, '/api/v1/sso/callback');
    expect((await callbackLanding(browser, callback)).error).toBe('session_expired');
  });

  it('refuses a sign-in older than 10 minutes', async () => {
    const { browser, callback } = await toCallback();
    world.server.context.db
      .prepare(
        "UPDATE sso_login_sessions SET expires_at = '2000-01-01T00:00:00.000Z' WHERE consumed_at IS NULL",
      )
      .run();
    expect((await callbackLanding(browser, callback)).error).toBe('session_expired');
  });

  it('refuses a sign-in in flight when the provider is disabled, or its secret changes', async () => {
    const disabled = await toCallback();
    await setStatus(world, providerId, 'inactive');
    await setStatus(world, providerId, 'active');
    expect((await callbackLanding(disabled.browser, disabled.callback)).error).toBe('session_expired');

    const stillInactive = await toCallback();
    await setStatus(world, providerId, 'testing');
    expect((await callbackLanding(stillInactive.browser, stillInactive.callback)).error).toBe(
      'provider_not_found',
    );
    await setStatus(world, providerId, 'active');

    const reconfigured = await toCallback();
    const patched = await api().request('PATCH', `/sso/providers/${providerId}`, {
      token: world.admin,
      body: { clientSecret: world.idp.clientSecret },
    });
    expect(patched.status).toBe(200);
    expect((await callbackLanding(reconfigured.browser, reconfigured.callback)).error).toBe(
      'session_expired',
    );
  });
});

describe('account mapping (rules 11 and 12)', () => {
  it('refuses an email the IdP reports unverified, even for a linked user', async () => {
    world.idp.signInAs({ ...alice, sub: 'sub-linked' });
    expect((await world.browser().signIn(`/api/v1/sso/login/${world.orgId}`)).code).toBeTruthy();
    world.idp.signInAs({ ...alice, sub: 'sub-linked', email_verified: false });
    expect(await signInError()).toBe('email_not_verified');
  });

  it('needs the domain DNS-verified when the IdP says nothing about verification, except for linked users', async () => {
    world.idp.signInAs({ sub: 'sub-bob', email: 'bob@contoso.test', name: 'Bob' });
    expect(await signInError()).toBe('email_not_verified');

    const claim = await api().request('POST', '/sso/domains', {
      token: world.admin,
      body: { orgId: world.orgId, domain: 'contoso.test' },
    });
    expect(claim.status).toBe(201);
    const unproven = await api().request('POST', `/sso/domains/${claim.body.id}/verify`, {
      token: world.admin,
    });
    expect(unproven.status).toBe(400);
    expect(unproven.body.code).toBe('SSO_DOMAIN_UNVERIFIED');
    world.txt.set(claim.body.txtName, [claim.body.txtValue]);
    const proven = await api().request('POST', `/sso/domains/${claim.body.id}/verify`, {
      token: world.admin,
    });
    expect(proven.status).toBe(200);
    expect(proven.body.verifiedAt).toEqual(expect.any(String));

    expect((await world.browser().signIn(`/api/v1/sso/login/${world.orgId}`)).code).toBeTruthy();
    // Linked now: the claim's absence no longer matters once the domain proof is withdrawn.
    await api().request('DELETE', `/sso/domains/${claim.body.id}`, { token: world.admin });
    expect((await world.browser().signIn(`/api/v1/sso/login/${world.orgId}`)).code).toBeTruthy();
    world.idp.signInAs({ sub: 'sub-carol', email: 'carol@contoso.test', name: 'Carol' });
    expect(await signInError()).toBe('email_not_verified');
  });

  it('refuses a domain outside allowedDomains (exact match)', async () => {
    world.idp.signInAs({ ...alice, sub: 'sub-mallory', email: 'mallory@evil-contoso.test' });
    expect(await signInError()).toBe('domain_not_allowed');
    world.idp.signInAs({ ...alice, sub: 'sub-sub', email: 'eve@mail.contoso.test' });
    expect(await signInError()).toBe('domain_not_allowed');
  });

  it('refuses an existing account of another organization with no_org_access', async () => {
    const otherOrg = world.server.context.db
      .prepare(
        "INSERT INTO organizations (id, partner_id, name, slug, created_at, updated_at) VALUES (lower(hex(randomblob(16))), ?, 'Other', 'other', '2026-01-01', '2026-01-01') RETURNING id",
      )
      .get(world.partnerId) as { id: string };
    await insertOrgUser(
      world.server,
      otherOrg.id,
      '00000000-0000-4000-8000-000000000005',
      'dave@contoso.test',
    );
    world.idp.signInAs({ ...alice, sub: 'sub-dave', email: 'dave@contoso.test' });
    expect(await signInError()).toBe('no_org_access');
  });

  it('re-checks the default role against the administrator who set it at every creation', async () => {
    const roleId = insertOrgRole(world.server, world.orgId, 'Operators', [['devices', 'execute']]);
    const orgAdmin = await insertOrgUser(
      world.server,
      world.orgId,
      '00000000-0000-4000-8000-000000000003',
      'oa@contoso.test',
    );
    world.server.context.db
      .prepare('UPDATE sso_providers SET default_role_id = ?, default_role_set_by = ? WHERE id = ?')
      .run(roleId, orgAdmin, providerId);
    world.idp.signInAs({ ...alice, sub: 'sub-frank', email: 'frank@contoso.test' });
    expect((await world.browser().signIn(`/api/v1/sso/login/${world.orgId}`)).code).toBeTruthy();
    // The administrator is demoted to read-only: they could no longer grant the role, so nobody new gets it.
    world.server.context.db
      .prepare(
        "UPDATE organization_users SET role_id = '00000000-0000-4000-8000-000000000005' WHERE user_id = ?",
      )
      .run(orgAdmin);
    world.idp.signInAs({ ...alice, sub: 'sub-grace', email: 'grace@contoso.test' });
    expect(await signInError()).toBe('default_role_required');
    // An account that exists already still signs in: the check guards creation only.
    world.idp.signInAs({ ...alice, sub: 'sub-frank', email: 'frank@contoso.test' });
    expect((await world.browser().signIn(`/api/v1/sso/login/${world.orgId}`)).code).toBeTruthy();
  });

  it('refuses an unknown identity with user_not_found when autoProvision is off', async () => {
    const off = await api().request('PATCH', `/sso/providers/${providerId}`, {
      token: world.admin,
      body: { autoProvision: false },
    });
    expect(off.status).toBe(200);
    world.idp.signInAs({ ...alice, sub: 'sub-heidi', email: 'heidi@contoso.test' });
    expect(await signInError()).toBe('user_not_found');
    await api().request('PATCH', `/sso/providers/${providerId}`, {
      token: world.admin,
      body: { autoProvision: true },
    });
  });

  it('records every refusal in the audit trail with its code', async () => {
    await auditSettled(world.server);
    const codes = (
      world.server.context.db
        .prepare("SELECT details FROM audit_logs WHERE action = 'sso.login.failed'")
        .all() as Array<{ details: string }>
    ).map((r) => (JSON.parse(r.details) as { code: string }).code);
    for (const code of [
      'sso_failed',
      'session_expired',
      'provider_not_found',
      'email_not_verified',
      'domain_not_allowed',
      'no_org_access',
      'default_role_required',
      'user_not_found',
    ])
      expect(codes).toContain(code);
    // The client secret went to the IdP on every code exchange; it is in no audit entry and no log line.
    const everything = JSON.stringify(world.server.context.db.prepare('SELECT * FROM audit_logs').all());
    expect(everything + world.logs.join('')).not.toContain(world.idp.clientSecret);
  });
});
