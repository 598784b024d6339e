import { describe, expect, it } from 'vitest';
import { insertOrgUser, ROLES } from '../support/seed';
import { auditSettled } from '../support/server';
import {
  server,
  tokenFor,
  lastAudit,
  perms,
  orgA,
  orgAdminToken,
  useRolesWorld,
} from '../support/roles-world';

// Deleting and cloning /roles.

useRolesWorld();

describe('deleting roles', () => {
  it('refuses roles with users or child roles, with counts, and deletes free ones', async () => {
    const role = await server.api.post(
      '/roles',
      { name: 'Doomed', permissions: perms('devices:view') },
      orgAdminToken,
    );
    const user = await insertOrgUser(server, orgA, role.body.id, 'doomed@contoso.test');
    const child = await server.api.post(
      '/roles',
      { name: 'Doomed Child', permissions: [], parentRoleId: role.body.id },
      orgAdminToken,
    );

    const withUsers = await server.api.request('DELETE', `/roles/${role.body.id}`, { token: orgAdminToken });
    expect(withUsers.status).toBe(400);
    expect(withUsers.body).toEqual({
      error: 'Cannot delete role with assigned users',
      code: 'ROLE_IN_USE',
      userCount: 1,
      childRoleCount: 1,
    });

    await server.api.post(`/users/${user}/role`, { roleId: ROLES.orgReadOnly }, orgAdminToken);
    const withChild = await server.api.request('DELETE', `/roles/${role.body.id}`, { token: orgAdminToken });
    expect(withChild.status).toBe(400);
    expect(withChild.body).toMatchObject({ userCount: 0, childRoleCount: 1 });

    const noMfa = await server.api.request('DELETE', `/roles/${child.body.id}`, {
      token: await tokenFor('oadmin@contoso.test', false),
    });
    expect(noMfa.status).toBe(403);
    expect(
      (await server.api.request('DELETE', `/roles/${child.body.id}`, { token: orgAdminToken })).status,
    ).toBe(200);
    const done = await server.api.request('DELETE', `/roles/${role.body.id}`, { token: orgAdminToken });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ success: true });
    expect((await server.api.get(`/roles/${role.body.id}`, orgAdminToken)).status).toBe(404);
    expect(
      server.context.db
        .prepare('SELECT COUNT(*) AS n FROM role_permissions WHERE role_id = ?')
        .get(role.body.id),
    ).toEqual({ n: 0 });
    await auditSettled(server);
    expect(lastAudit('role.delete', role.body.id)).toMatchObject({ org_id: orgA });
  });
});

describe('cloning roles', () => {
  it('copies a built-in role into a custom role of the caller’s tenant', async () => {
    const res = await server.api.post(
      `/roles/${ROLES.orgTechnician}/clone`,
      { name: 'My Technician' },
      orgAdminToken,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'My Technician',
      isSystem: false,
      scope: 'organization',
      orgId: orgA,
      parentRoleId: null,
    });
    const source = await server.api.get(`/roles/${ROLES.orgTechnician}`, orgAdminToken);
    expect(res.body.permissions).toEqual(source.body.permissions);
    await auditSettled(server);
    expect(JSON.parse(lastAudit('role.clone', res.body.id)!.details)).toMatchObject({
      sourceRoleId: ROLES.orgTechnician,
      sourceRoleName: 'Organization Technician',
    });
    // The clone is a custom role: it can be changed.
    const patch = await server.api.request('PATCH', `/roles/${res.body.id}`, {
      token: orgAdminToken,
      body: { permissions: perms('devices:view') },
    });
    expect(patch.status).toBe(200);
    const dup = await server.api.post(
      `/roles/${ROLES.orgTechnician}/clone`,
      { name: 'My Technician' },
      orgAdminToken,
    );
    expect(dup.status).toBe(409);
  });

  it('flattens inherited permissions so the copy grants what the source grants', async () => {
    const parent = await server.api.post(
      '/roles',
      { name: 'Clone Parent', permissions: perms('sites:view') },
      orgAdminToken,
    );
    const child = await server.api.post(
      '/roles',
      { name: 'Clone Child', permissions: perms('reports:view'), parentRoleId: parent.body.id },
      orgAdminToken,
    );
    const copy = await server.api.post(
      `/roles/${child.body.id}/clone`,
      { name: 'Clone Copy' },
      orgAdminToken,
    );
    expect(copy.status).toBe(201);
    expect(copy.body.permissions).toEqual(perms('reports:view', 'sites:view'));
    expect(copy.body.parentRoleId).toBeNull();
  });
});
