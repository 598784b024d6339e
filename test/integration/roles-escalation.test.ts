import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { insertOrgUser, PASSWORD, ROLES } from '../support/seed';
import { server, tokenFor, perms, orgA, orgAdminToken, useRolesWorld } from '../support/roles-world';

// No permission escalation through /roles: nobody grants or inherits more than they hold.

useRolesWorld();

describe('no escalation through roles', () => {
  it('refuses roles, edits and clones that grant more than the caller holds', async () => {
    const db = server.context.db;
    const managerRole = randomUUID();
    db.prepare(
      "INSERT INTO roles (id, org_id, scope, name, created_at, updated_at) VALUES (?, ?, 'organization', 'Role Manager', '', '')",
    ).run(managerRole, orgA);
    const insert = db.prepare('INSERT INTO role_permissions (role_id, resource, action) VALUES (?, ?, ?)');
    for (const p of ['users:view', 'users:create', 'users:update', 'users:delete', 'devices:view'])
      insert.run(managerRole, ...p.split(':'));
    await insertOrgUser(server, orgA, managerRole, 'rolemanager@contoso.test');
    const token = await tokenFor('rolemanager@contoso.test');

    const tooMuch = await server.api.post(
      '/roles',
      { name: 'Escalated', permissions: perms('devices:view', 'devices:delete') },
      token,
    );
    expect(tooMuch.status).toBe(403);
    expect(tooMuch.body).toMatchObject({
      error: 'Cannot grant permissions you do not hold',
      code: 'PERMISSION_ESCALATION',
      missing: ['devices:delete'],
    });
    const viaParent = await server.api.post(
      '/roles',
      { name: 'Escalated', permissions: [], parentRoleId: ROLES.orgAdmin },
      token,
    );
    expect(viaParent.status).toBe(403);
    const viaClone = await server.api.post(
      `/roles/${ROLES.orgTechnician}/clone`,
      { name: 'Escalated' },
      token,
    );
    expect(viaClone.status).toBe(403);

    const fine = await server.api.post(
      '/roles',
      { name: 'Viewer Lite', permissions: perms('devices:view') },
      token,
    );
    expect(fine.status).toBe(201);
    const widen = await server.api.request('PATCH', `/roles/${fine.body.id}`, {
      token,
      body: { permissions: perms('devices:view', 'scripts:execute') },
    });
    expect(widen.status).toBe(403);
    // A role that already holds more than the caller cannot be touched by them.
    const admins = await server.api.post(
      '/roles',
      { name: 'Strong', permissions: perms('*:*') },
      orgAdminToken,
    );
    const rename = await server.api.request('PATCH', `/roles/${admins.body.id}`, {
      token,
      body: { name: 'Weak' },
    });
    expect(rename.status).toBe(403);
    expect(rename.body.error).toBe('Cannot manage a role that holds permissions you do not hold');
    const del = await server.api.request('DELETE', `/roles/${admins.body.id}`, { token });
    expect(del.status).toBe(403);
  });

  it('applies permission changes of a role on the holder’s next request', async () => {
    const role = await server.api.post(
      '/roles',
      { name: 'Growing', permissions: perms('devices:view') },
      orgAdminToken,
    );
    await insertOrgUser(server, orgA, role.body.id, 'growing@contoso.test');
    const login = await server.api.login('growing@contoso.test', PASSWORD);
    const token = login.body.accessToken as string;
    expect((await server.api.get('/users', token)).status).toBe(403);
    await server.api.request('PATCH', `/roles/${role.body.id}`, {
      token: orgAdminToken,
      body: { permissions: perms('devices:view', 'users:view') },
    });
    const after = await server.api.get('/users', token);
    expect(after.status).toBe(200);
    expect(after.body.data.length).toBeGreaterThan(0);
  });
});
