import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditSettled } from '../support/server';
import { insertOrgRole, insertPartnerUser, lastAudit, signedToken } from '../support/seed';
import { createOrgProvider, setStatus, startSsoWorld, type SsoWorld } from '../support/sso-world';

// Rule 10 end to end against a real OpenID provider: the round trip with PKCE S256, state and nonce, the state
// cookie, the callback's checks, auto-provisioning with the default role, the identity link with sealed tokens, the
// fragment code and its single exchange for a session.

let world: SsoWorld;
let providerId: string;
let roleId: string;

beforeAll(async () => {
  world = await startSsoWorld();
  roleId = insertOrgRole(world.server, world.orgId, 'SSO technicians', [['devices', 'view']]);
  const provider = await createOrgProvider(world, { defaultRoleId: roleId, allowedDomains: 'contoso.test' });
  providerId = provider.id;
  await setStatus(world, providerId, 'active');
});
afterAll(async () => {
  await world?.dispose();
});

describe('SSO sign-in', () => {
  it('signs a new user in with PKCE, provisions them with the default role and exchanges the code once', async () => {
    world.idp.signInAs({
      sub: 'idp-alice',
      email: 'Alice@Contoso.test',
      email_verified: true,
      name: 'Alice Idp',
    });
    const browser = world.browser();
    const start = await browser.get(new URL(`/api/v1/sso/login/${world.orgId}`, world.server.url));
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.get('location')!);
    expect(authorize.origin).toBe(world.idp.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${world.server.url}/api/v1/sso/callback`);
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    const cookieLine = start.headers.getSetCookie().find((c) => c.startsWith('service_sso_state='))!;
    expect(cookieLine).toMatch(/HttpOnly/i);
    expect(cookieLine).toMatch(/SameSite=Lax/i);
    expect(cookieLine).toMatch(/Path=\/api\/v1\/sso\/callback/);
    expect(cookieLine).toMatch(/Max-Age=600/);
    // The cookie holds a signature of the state, never the state itself.
    expect(cookieLine).not.toContain(authorize.searchParams.get('state')!);

    const { url } = await browser.follow(authorize);
    expect(url.pathname).toBe('/login');
    const code = new URLSearchParams(url.hash.slice(1)).get('ssoCode');
    expect(code).toBeTruthy();

    const exchanged = await world.server.api.post('/sso/exchange', { code });
    expect(exchanged.status).toBe(200);
    expect(exchanged.body).toMatchObject({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      mfa: false,
      redirectPath: '/',
      user: {
        email: 'alice@contoso.test',
        name: 'Alice Idp',
        scope: 'organization',
        orgId: world.orgId,
        roleId,
      },
    });
    const me = await world.server.api.get('/auth/me', exchanged.body.accessToken);
    expect(me.status).toBe(200);

    const again = await world.server.api.post('/sso/exchange', { code });
    expect(again.status).toBe(401);
    expect(again.body.code).toBe('SSO_CODE_INVALID');

    const link = world.server.context.db
      .prepare('SELECT * FROM sso_identities WHERE provider_id = ? AND external_id = ?')
      .get(providerId, 'idp-alice') as { access_token_sealed: string; user_id: string };
    expect(link.access_token_sealed).toMatch(/^v1\./);
    const user = world.server.context.db
      .prepare('SELECT password_hash FROM users WHERE id = ?')
      .get(link.user_id) as {
      password_hash: string | null;
    };
    expect(user.password_hash).toBeNull();
    await auditSettled(world.server);
    expect(lastAudit(world.server, 'sso.user.provision', link.user_id)).toBeDefined();
    expect(lastAudit(world.server, 'user.login', link.user_id)?.details).toContain('"method":"sso"');
  });
});

describe('partner providers (rule 15)', () => {
  it("signs in the partner's own technicians only: identity first, no provisioning", async () => {
    const tech = await insertPartnerUser(
      world.server,
      world.partnerId,
      world.partnerAdminRoleId,
      'tech@northwind.test',
      {
        orgAccess: 'all',
      },
    );
    const partnerAdmin = await signedToken(world.server, 'tech@northwind.test');
    const created = await world.server.api.request('POST', '/sso/providers', {
      token: partnerAdmin,
      body: {
        name: 'Northwind IdP',
        type: 'oidc',
        ownerScope: 'partner',
        issuer: world.idp.issuer,
        clientId: world.idp.clientId,
        clientSecret: world.idp.clientSecret,
      },
    });
    expect(created.status).toBe(201);
    await setStatus(world, created.body.id, 'active');

    world.idp.signInAs({ sub: 'idp-tech', email: 'tech@northwind.test', email_verified: true, name: 'Tech' });
    const signedIn = await world.browser().signIn(`/api/v1/sso/login/partner/${world.partnerId}`);
    const session = await world.server.api.post('/sso/exchange', { code: signedIn.code });
    expect(session.body).toMatchObject({ user: { id: tech, scope: 'partner', partnerId: world.partnerId } });

    world.idp.signInAs({ sub: 'idp-new', email: 'new@northwind.test', email_verified: true, name: 'New' });
    expect((await world.browser().signIn(`/api/v1/sso/login/partner/${world.partnerId}`)).error).toBe(
      'user_not_found',
    );
    // An organization user of the partner's customer is not the partner's technician.
    world.idp.signInAs({
      sub: 'idp-alice-2',
      email: 'alice@contoso.test',
      email_verified: true,
      name: 'Alice',
    });
    expect((await world.browser().signIn(`/api/v1/sso/login/partner/${world.partnerId}`)).error).toBe(
      'no_org_access',
    );
  });

  it('offers the partner button by slug (any case) or, with one partner, on the shared page', async () => {
    const slug = (
      world.server.context.db.prepare('SELECT slug FROM partners WHERE id = ?').get(world.partnerId) as {
        slug: string;
      }
    ).slug;
    const offered = {
      sso: {
        providerName: 'Northwind IdP',
        loginUrl: `/api/v1/sso/login/partner/${world.partnerId}`,
        enforceSSO: false,
      },
    };
    expect((await world.server.api.get(`/sso/partner-sign-in?slug=${slug.toUpperCase()}`)).body).toEqual(
      offered,
    );
    expect((await world.server.api.get('/sso/partner-sign-in')).body).toEqual(offered);
    expect((await world.server.api.get('/sso/partner-sign-in?slug=nobody')).body).toEqual({ sso: null });
    world.server.context.db
      .prepare("UPDATE partners SET status = 'suspended' WHERE id = ?")
      .run(world.partnerId);
    expect((await world.server.api.get(`/sso/partner-sign-in?slug=${slug}`)).body).toEqual({ sso: null });
    expect((await world.server.api.get('/sso/partner-sign-in')).body).toEqual({ sso: null });
    world.server.context.db
      .prepare("UPDATE partners SET status = 'active' WHERE id = ?")
      .run(world.partnerId);
  });

  it('answers provider_not_found for an owner without an active provider', async () => {
    const landing = await world.browser().signIn('/api/v1/sso/login/00000000-0000-4000-8000-00000000abcd');
    expect(landing.location).toBe('/login?error=provider_not_found');
  });
});

describe('the exchange code', () => {
  it('is a secret guess like any other: 20 wrong codes from one address, then 429', async () => {
    // The replayed code of the first test was this address's first failure.
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++)
      statuses.push((await world.server.api.post('/sso/exchange', { code: `guess-${i}` })).status);
    expect(statuses.slice(0, 19).every((s) => s === 401)).toBe(true);
    expect(statuses[19]).toBe(429);
    const limited = await world.server.api.post('/sso/exchange', { code: 'guess-last' });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('Too many invalid SSO codes');
    expect(limited.headers.get('retry-after')).toBeTruthy();
  });
});
