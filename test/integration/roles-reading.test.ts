import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mfaToken, ROLES } from '../support/seed';
import {
  server,
  tokenFor,
  perms,
  adminRoleId,
  otherPartnerId,
  otherAdminRoleId,
  orgA,
  orgB,
  orgX,
  orgAdminToken,
  useRolesWorld,
} from '../support/roles-world';

// Reading /roles: which roles each tenant sees, and effective permissions with their source.

useRolesWorld();

describe('reading roles', () => {
  it('lists the built-in roles of the scope and the tenant’s custom roles, with user counts in scope', async () => {
    const own = await server.api.post(
      '/roles',
      { name: 'Contoso Auditor', permissions: perms('audit:read') },
      orgAdminToken,
    );
    expect(own.status).toBe(201);
    const foreign = await server.api.post(
      '/roles',
      { name: 'Initech Auditor', permissions: perms('audit:read') },
      await tokenFor('oadmin@initech.test'),
    );
    expect(foreign.status).toBe(201);

    const res = await server.api.get('/roles', orgAdminToken);
    expect(res.status).toBe(200);
    const names = res.body.data.map((r: { name: string }) => r.name);
    expect(names).toEqual([
      'Organization Administrator',
      'Organization Read Only',
      'Organization Technician',
      'Contoso Auditor',
    ]);
    const tech = res.body.data.find((r: { id: string }) => r.id === ROLES.orgTechnician);
    // Initech's two technicians are not Contoso's business.
    expect(tech).toMatchObject({ isSystem: true, scope: 'organization', userCount: 1, partnerId: null });
    const auditor = res.body.data.find((r: { name: string }) => r.name === 'Contoso Auditor');
    expect(auditor).toMatchObject({ isSystem: false, orgId: orgA, userCount: 0, parentRoleId: null });

    const users = await server.api.get('/users/roles', orgAdminToken);
    expect(users.status).toBe(200);
    expect(users.body.data.map((r: { name: string }) => r.name)).toEqual(names);
  });

  it('shows a partner its partner roles and the roles of its organizations', async () => {
    const res = await server.api.get('/roles', await tokenFor('padmin@acme.test'));
    expect(res.status).toBe(200);
    const names = res.body.data.map((r: { name: string }) => r.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'Partner Admin',
        'Partner Technician',
        'Organization Technician',
        'Contoso Auditor',
      ]),
    );
    expect(names).not.toContain('Initech Auditor');
    expect(names).not.toContain('Platform Administrator');
    // Only this partner's Partner Admin.
    expect(res.body.data.filter((r: { name: string }) => r.name === 'Partner Admin')).toHaveLength(1);

    // Naming an organization narrows to the roles it may hold.
    const forOrg = await server.api.get(`/roles?orgId=${orgB}`, await tokenFor('padmin@acme.test'));
    expect(forOrg.body.data.map((r: { name: string }) => r.name)).toEqual([
      'Organization Administrator',
      'Organization Read Only',
      'Organization Technician',
    ]);
    const foreign = await server.api.get(`/users/roles?orgId=${orgX}`, await tokenFor('padmin@acme.test'));
    expect(foreign.status).toBe(404);
  });

  it('lets partner users without full access read roles (writes need full access)', async () => {
    const token = await tokenFor('pselected@acme.test');
    const res = await server.api.get('/roles', token);
    expect(res.status).toBe(200);
    const write = await server.api.post('/roles', { name: 'Nope', permissions: [] }, token);
    expect(write.status).toBe(403);
    expect(write.body.error).toBe('Full partner organization access required');
  });

  it('lets system scope see every role', async () => {
    const token = await mfaToken(server);
    const res = await server.api.get('/roles', token);
    const names = res.body.data.map((r: { name: string }) => r.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'Platform Administrator',
        'Contoso Auditor',
        'Initech Auditor',
        'Partner Admin',
      ]),
    );
    const tech = res.body.data.find((r: { id: string }) => r.id === ROLES.orgTechnician);
    expect(tech.userCount).toBe(3);
    const filtered = await server.api.get(`/roles?partnerId=${otherPartnerId}`, token);
    expect(filtered.body.data.map((r: { id: string }) => r.id)).toEqual([
      otherAdminRoleId,
      ROLES.partnerTechnician,
    ]);
  });

  it('describes the available permissions', async () => {
    const res = await server.api.get('/roles/permissions/available', orgAdminToken);
    expect(res.status).toBe(200);
    expect(res.body.resources).toEqual([
      'devices',
      'scripts',
      'alerts',
      'automations',
      'reports',
      'users',
      'settings',
      'organizations',
      'sites',
      'remote',
    ]);
    expect(res.body.actions).toEqual(['view', 'create', 'update', 'delete', 'execute']);
    expect(res.body.special).toContainEqual({
      resource: 'audit',
      action: 'read',
      description: 'Read the audit log',
    });
  });

  it('returns one role with direct permissions, and 404 for roles of other tenants', async () => {
    const got = await server.api.get(`/roles/${ROLES.orgReadOnly}`, orgAdminToken);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ name: 'Organization Read Only', isSystem: true, userCount: 0 });
    expect(got.body.permissions).toContainEqual({ resource: 'users', action: 'view' });

    const initechRole = server.context.db
      .prepare("SELECT id FROM roles WHERE name = 'Initech Auditor'")
      .get() as { id: string };
    for (const path of [
      `/roles/${initechRole.id}`,
      `/roles/${initechRole.id}/users`,
      `/roles/${initechRole.id}/effective-permissions`,
      `/roles/${ROLES.partnerTechnician}`,
      `/roles/${adminRoleId}`,
      `/roles/${ROLES.platformAdmin}`,
      `/roles/${randomUUID()}`,
    ]) {
      const res = await server.api.get(path, orgAdminToken);
      expect({ path, status: res.status, error: res.body.error }).toEqual({
        path,
        status: 404,
        error: 'Role not found',
      });
    }
    const writes = await Promise.all([
      server.api.request('PATCH', `/roles/${initechRole.id}`, {
        token: orgAdminToken,
        body: { name: 'Mine' },
      }),
      server.api.request('DELETE', `/roles/${initechRole.id}`, { token: orgAdminToken }),
      server.api.post(`/roles/${initechRole.id}/clone`, { name: 'Stolen' }, orgAdminToken),
      server.api.request('PATCH', `/roles/${initechRole.id}`, {
        token: await tokenFor('padmin@acme.test'),
        body: { name: 'Mine' },
      }),
    ]);
    for (const res of writes) expect(res.status).toBe(404);
    expect(server.context.db.prepare('SELECT name FROM roles WHERE id = ?').get(initechRole.id)).toEqual({
      name: 'Initech Auditor',
    });
  });

  it('lists the users of a role within the caller’s scope', async () => {
    const res = await server.api.get(`/roles/${ROLES.orgTechnician}/users`, orgAdminToken);
    expect(res.status).toBe(200);
    expect(res.body.data.map((u: { email: string }) => u.email)).toEqual(['otech@contoso.test']);
    expect(res.body.pagination).toEqual({ page: 1, limit: 50, total: 1 });
  });
});
