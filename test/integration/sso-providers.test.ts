import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertOrg,
  insertOrgRole,
  insertPartner,
  insertPartnerUser,
  insertOrgUser,
  signedToken,
} from '../support/seed';
import { auditSettled } from '../support/server';
import { createOrgProvider, setStatus, startSsoWorld, type SsoWorld } from '../support/sso-world';

// /sso provider administration (spec 1): presets, create (inactive, secret sealed and write-only), SAML refused,
// the default role rules, MFA sessions for writes, status, test (discovery reachable and safe), issuer changes
// needing a fresh discovery, delete with its identities, tenant isolation, and the sso.provider.* audit entries. A
// resolver that answers a private address for one name stands in for an IdP pointing inside the network.

let world: SsoWorld;
let roleId: string;
const SECRET = 'client-secret-never-shown-7f3a';
const api = () => world.server.api;

beforeAll(async () => {
  world = await startSsoWorld({
    sso: {
      resolver: (host) =>
        Promise.resolve(
          host === 'idp.inside.test'
            ? [{ address: '10.1.2.3', family: 4 }]
            : [{ address: '93.184.215.14', family: 4 }],
        ),
    },
  });
  roleId = insertOrgRole(world.server, world.orgId, 'SSO users', [['devices', 'view']]);
});
afterAll(async () => {
  await world?.dispose();
});

describe('SSO provider administration', () => {
  it('lists four OIDC and five SAML presets with attribute mappings', async () => {
    const res = await api().get('/sso/presets', world.admin);
    expect(res.status).toBe(200);
    const presets = res.body.data as Array<{
      type: string;
      scopes: string | null;
      attributeMapping: { email: string };
    }>;
    expect(presets.filter((p) => p.type === 'oidc')).toHaveLength(4);
    expect(presets.filter((p) => p.type === 'saml')).toHaveLength(5);
    const scopes = presets.filter((p) => p.type === 'oidc').map((p) => p.scopes);
    expect(scopes.filter((s) => s === 'openid profile email')).toHaveLength(3);
    expect(scopes.filter((s) => s === 'openid profile email groups')).toHaveLength(1);
    for (const p of presets) expect(p.attributeMapping.email).toBeTruthy();
  });

  it('creates a provider inactive, discovers its endpoints, seals the secret and never returns it', async () => {
    const created = await createOrgProvider(world, {
      clientSecret: SECRET,
      defaultRoleId: roleId,
      preset: 'okta',
    });
    expect(created).toMatchObject({
      status: 'inactive',
      ownerScope: 'organization',
      orgId: world.orgId,
      partnerId: world.partnerId,
      hasClientSecret: true,
      scopes: 'openid profile email groups',
      autoProvision: true,
      authorizationUrl: `${world.idp.issuer}/auth`,
      tokenUrl: `${world.idp.issuer}/token`,
      redirectUri: `${world.server.url}/api/v1/sso/callback`,
    });
    expect(JSON.stringify(created)).not.toContain(SECRET);
    const row = world.server.context.db
      .prepare('SELECT client_secret_sealed FROM sso_providers WHERE id = ?')
      .get(created.id) as { client_secret_sealed: string };
    expect(row.client_secret_sealed).toMatch(/^v1\./);
    expect(world.server.context.secretBox.open(row.client_secret_sealed)).toBe(SECRET);
    for (const path of [`/sso/providers/${created.id}`, `/sso/providers?orgId=${world.orgId}`]) {
      const read = await api().get(path, world.admin);
      expect(read.status).toBe(200);
      expect(JSON.stringify(read.body)).not.toContain(SECRET);
    }
  });

  it('refuses SAML, a missing default role, and writes without an MFA session', async () => {
    const saml = await api().request('POST', '/sso/providers', {
      token: world.admin,
      body: { name: 'ADFS', type: 'saml', orgId: world.orgId, autoProvision: false },
    });
    expect(saml.status).toBe(400);
    expect(saml.body.error).toBe('Only OIDC providers are supported: SAML sign-in is not offered');
    const noRole = await api().request('POST', '/sso/providers', {
      token: world.admin,
      body: { name: 'x', type: 'oidc', orgId: world.orgId },
    });
    expect(noRole.status).toBe(400);
    expect(noRole.body.error).toBe('defaultRoleId is required when autoProvision is true');
    const withoutMfa = await signedToken(world.server, 'admin@gatehouse.test', false);
    const refused = await api().request('POST', '/sso/providers', {
      token: withoutMfa,
      body: { name: 'x', type: 'oidc', orgId: world.orgId, autoProvision: false },
    });
    expect(refused.status).toBe(403);
  });

  it('creates a provider whose discovery fails with a warning, and tests it: reachable or refused', async () => {
    const inside = await createOrgProvider(world, {
      issuer: 'https://idp.inside.test',
      autoProvision: false,
    });
    expect(inside.warning).toMatch(/private or reserved address/);
    expect(inside.authorizationUrl).toBeNull();
    const test = await api().request('POST', `/sso/providers/${inside.id}/test`, { token: world.admin });
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ success: false, endpoints: null });
    expect(test.body.message).toMatch(/private or reserved address/);

    const plain = await createOrgProvider(world, { issuer: 'http://idp.public.test', autoProvision: false });
    expect(plain.warning).toMatch(/must be HTTPS/);

    const good = await createOrgProvider(world, { autoProvision: false });
    const ok = await api().request('POST', `/sso/providers/${good.id}/test`, { token: world.admin });
    expect(ok.body).toMatchObject({ success: true, endpoints: { tokenUrl: `${world.idp.issuer}/token` } });

    // Discovered endpoints are judged again at every sign-in: a provider whose IdP now resolves inside the network
    // (here written straight in, as if its DNS changed after creation) cannot start one.
    world.server.context.db
      .prepare("UPDATE sso_providers SET client_id = 'gatehouse', status = 'active' WHERE id = ?")
      .run(inside.id);
    const start = await fetch(`${world.server.url}/api/v1/sso/login/${world.orgId}`, { redirect: 'manual' });
    expect(start.headers.get('location')).toBe('/login?error=sso_failed');
    world.server.context.db
      .prepare("UPDATE sso_providers SET status = 'inactive' WHERE id = ?")
      .run(inside.id);

    // Rule 12: changing the issuer needs a successful fresh discovery.
    const moved = await api().request('PATCH', `/sso/providers/${good.id}`, {
      token: world.admin,
      body: { issuer: 'https://idp.inside.test' },
    });
    expect(moved.status).toBe(400);
    expect(moved.body.code).toBe('SSO_DISCOVERY_FAILED');
  });

  it('sets status, refuses to activate an incomplete provider, and deletes a provider with its identities', async () => {
    const incomplete = await createOrgProvider(world, { issuer: undefined, autoProvision: false });
    const refused = await api().request('POST', `/sso/providers/${incomplete.id}/status`, {
      token: world.admin,
      body: { status: 'active' },
    });
    expect(refused.status).toBe(400);
    const bad = await api().request('POST', `/sso/providers/${incomplete.id}/status`, {
      token: world.admin,
      body: { status: 'enabled' },
    });
    expect(bad.status).toBe(400);

    const provider = await createOrgProvider(world, {
      defaultRoleId: roleId,
      allowedDomains: 'contoso.test',
    });
    await setStatus(world, provider.id, 'testing');
    expect((await api().get(`/sso/providers/${provider.id}`, world.admin)).body.status).toBe('testing');
    const userId = await insertOrgUser(world.server, world.orgId, roleId, 'linked@contoso.test');
    world.server.context.db
      .prepare(
        `INSERT INTO sso_identities (id, provider_id, user_id, external_id, idp_email, last_login_at, created_at, updated_at)
         VALUES ('link-1', ?, ?, 'ext', 'linked@contoso.test', 'x', 'x', 'x')`,
      )
      .run(provider.id, userId);
    const removed = await api().request('DELETE', `/sso/providers/${provider.id}`, { token: world.admin });
    expect(removed.status).toBe(200);
    expect((await api().get(`/sso/providers/${provider.id}`, world.admin)).status).toBe(404);
    expect(
      world.server.context.db.prepare("SELECT 1 FROM sso_identities WHERE id = 'link-1'").get(),
    ).toBeUndefined();
  });

  it("keeps each tenant's providers to itself", async () => {
    const mine = await createOrgProvider(world, { autoProvision: false });
    const other = insertPartner(world.server, { name: 'Other MSP' });
    insertOrg(world.server, other.partnerId, 'Other customer');
    await insertPartnerUser(world.server, other.partnerId, other.adminRoleId, 'boss@other.test', {
      orgAccess: 'all',
    });
    const stranger = await signedToken(world.server, 'boss@other.test');
    expect((await api().get(`/sso/providers/${mine.id}`, stranger)).status).toBe(404);
    const list = await api().get('/sso/providers', stranger);
    expect(list.body.data).toEqual([]);
    const filtered = await api().get(`/sso/providers?orgId=${world.orgId}`, stranger);
    expect(filtered.body.data).toEqual([]);
    for (const [method, path, body] of [
      ['PATCH', `/sso/providers/${mine.id}`, { name: 'taken' }],
      ['DELETE', `/sso/providers/${mine.id}`, undefined],
      ['POST', `/sso/providers/${mine.id}/status`, { status: 'active' }],
      ['POST', `/sso/providers/${mine.id}/test`, undefined],
    ] as const)
      expect((await api().request(method, path, { token: stranger, body })).status).toBe(404);
    const domains = await api().get(`/sso/domains?orgId=${world.orgId}`, stranger);
    expect(domains.status).toBe(404);
    const claim = await api().request('POST', '/sso/domains', {
      token: stranger,
      body: { orgId: world.orgId, domain: 'contoso.test' },
    });
    expect(claim.status).toBe(404);
    const create = await api().request('POST', '/sso/providers', {
      token: stranger,
      body: { name: 'x', type: 'oidc', orgId: world.orgId, autoProvision: false },
    });
    expect(create.status).toBe(404);

    // The partner's own technicians see their partner's provider; an organization user of it does not.
    const partnerProvider = await api().request('POST', '/sso/providers', {
      token: stranger,
      body: { name: 'Partner IdP', type: 'oidc', ownerScope: 'partner' },
    });
    expect(partnerProvider.status).toBe(201);
    expect(partnerProvider.body).toMatchObject({ ownerScope: 'partner', orgId: null, autoProvision: false });
    await insertOrgUser(
      world.server,
      world.orgId,
      '00000000-0000-4000-8000-000000000003',
      'orgadmin@contoso.test',
    );
    const orgAdmin = await signedToken(world.server, 'orgadmin@contoso.test');
    expect((await api().get(`/sso/providers/${partnerProvider.body.id}`, orgAdmin)).status).toBe(404);
  });

  it('audits create, update and delete, and the secret appears in no answer, audit entry or log line', async () => {
    const created = await createOrgProvider(world, { clientSecret: SECRET, autoProvision: false });
    await api().request('PATCH', `/sso/providers/${created.id}`, {
      token: world.admin,
      body: { clientSecret: `${SECRET}-rotated`, name: 'Renamed' },
    });
    await api().request('DELETE', `/sso/providers/${created.id}`, { token: world.admin });
    await auditSettled(world.server);
    const rows = world.server.context.db
      .prepare('SELECT action, details, org_id FROM audit_logs WHERE resource_id = ? ORDER BY seq')
      .all(created.id) as Array<{ action: string; details: string; org_id: string }>;
    expect(rows.map((r) => r.action)).toEqual([
      'sso.provider.create',
      'sso.provider.update',
      'sso.provider.delete',
    ]);
    expect(rows.every((r) => r.org_id === world.orgId)).toBe(true);
    expect(JSON.parse(rows[1]!.details)).toMatchObject({ changedFields: ['name', 'clientSecret'] });
    const everything = [
      JSON.stringify(world.server.context.db.prepare('SELECT * FROM audit_logs').all()),
      world.logs.join(''),
    ].join('\n');
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain(world.idp.clientSecret);
  });
});
