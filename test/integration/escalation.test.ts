import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server';
import {
  insertOrg,
  insertOrgUser,
  insertPartner,
  insertSite,
  mfaToken,
  PASSWORD,
  ROLES,
} from '../support/seed';

// Nobody hands out more than they hold: an API key's scopes are bounded by its creator's permissions, and a user
// restricted to some sites can neither invite someone with wider site access nor enroll agents elsewhere.

describe('no escalation through keys and invitations', () => {
  let server: TestServer;
  let orgId: string;
  let siteA: string;
  let siteB: string;
  let keyWriter: string;
  let siteBound: string;

  beforeAll(async () => {
    server = await startServer();
    const { partnerId } = insertPartner(server);
    orgId = insertOrg(server, partnerId, 'Contoso');
    siteA = insertSite(server, orgId, 'Clinic A');
    siteB = insertSite(server, orgId, 'Clinic B');
    // A custom organization role that may manage keys (organizations:write) and nothing else.
    const roleId = randomUUID();
    const now = new Date().toISOString();
    server.context.db
      .prepare(
        "INSERT INTO roles (id, org_id, scope, name, created_at, updated_at) VALUES (?, ?, 'organization', 'Key clerk', ?, ?)",
      )
      .run(roleId, orgId, now, now);
    server.context.db
      .prepare(
        "INSERT INTO role_permissions (role_id, resource, action) VALUES (?, 'organizations', 'update')",
      )
      .run(roleId);
    await insertOrgUser(server, orgId, roleId, 'clerk@contoso.test');
    keyWriter = await mfaToken(server, 'clerk@contoso.test', PASSWORD);
    // An organization administrator limited to clinic A.
    const bound = await insertOrgUser(server, orgId, ROLES.orgAdmin, 'a-admin@contoso.test');
    server.context.db
      .prepare('UPDATE organization_users SET site_ids = ? WHERE user_id = ?')
      .run(JSON.stringify([siteA]), bound);
    siteBound = await mfaToken(server, 'a-admin@contoso.test', PASSWORD);
  }, 60_000);

  afterAll(async () => {
    await server?.dispose();
  });

  it('refuses API key scopes the creator does not hold, on create and on update', async () => {
    for (const scopes of [['*'], ['sites:delete'], ['organizations:read']]) {
      const res = await server.api.post('/api-keys', { orgId, name: 'Too strong', scopes }, keyWriter);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'PERMISSION_ESCALATION', missing: scopes });
    }
    const ok = await server.api.post(
      '/api-keys',
      { orgId, name: 'Bounded', scopes: ['organizations:write'] },
      keyWriter,
    );
    expect(ok.status).toBe(201);
    const widened = await server.api.request('PATCH', `/api-keys/${ok.body.id}`, {
      token: keyWriter,
      body: { scopes: ['*'] },
    });
    expect(widened.status).toBe(403);
    expect(server.context.db.prepare('SELECT COUNT(*) AS n FROM api_keys').get()).toEqual({ n: 1 });
  });

  it('keeps a site-restricted administrator within their sites', async () => {
    const invite = (siteIds?: string[]) =>
      server.api.post(
        '/users/invite',
        {
          email: `new-${randomUUID().slice(0, 6)}@contoso.test`,
          name: 'New',
          roleId: ROLES.orgReadOnly,
          siteIds,
        },
        siteBound,
      );
    // Omitting siteIds would mean every site; naming clinic B is outside the inviter's reach.
    expect((await invite()).status).toBe(403);
    expect((await invite([siteB])).status).toBe(403);
    expect((await invite([siteA])).status).toBe(201);

    const enroll = (siteId?: string) =>
      server.api.post('/enrollment-keys', { name: 'Rollout', ...(siteId ? { siteId } : {}) }, siteBound);
    const outside = await enroll(siteB);
    expect(outside.status).toBe(403);
    expect(outside.body.error).toBe('Access to this site denied');
    expect((await enroll()).status).toBe(403);
    expect((await enroll(siteA)).status).toBe(201);
  });
});
