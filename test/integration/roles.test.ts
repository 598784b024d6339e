import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertAcmeTree,
  insertOrgUser,
  insertPartnerUser,
  lastAudit as lastAuditOf,
  mfaToken,
  PASSWORD,
  ROLES,
  signedToken,
} from '../support/seed';
import { auditSettled, startServer, type TestServer } from '../support/server';

// /roles against a real server: visibility per tenant, immutable built-in roles, inheritance without cycles,
// effective permissions with their source, clone, delete rules, and no permission escalation.

let server: TestServer;

const tokenFor = (email: string, mfa = true) => signedToken(server, email, mfa);

const lastAudit = (action: string, resourceId: string) => lastAuditOf(server, action, resourceId);

const perms = (...list: string[]) =>
  list.map((p) => {
    const [resource, action] = p.split(':');
    return { resource, action };
  });

let partnerId: string;
let adminRoleId: string;
let otherPartnerId: string;
let otherAdminRoleId: string;
let orgA: string;
let orgB: string;
let orgX: string;
let orgAdminToken: string;

beforeAll(async () => {
  server = await startServer();
  ({ partnerId, adminRoleId, otherPartnerId, otherAdminRoleId, orgA, orgB, orgX } = insertAcmeTree(server));
  await insertPartnerUser(server, partnerId, adminRoleId, 'padmin@acme.test', { orgAccess: 'all' });
  await insertPartnerUser(server, partnerId, adminRoleId, 'pselected@acme.test', {
    orgAccess: 'selected',
    orgIds: [orgA],
  });
  await insertPartnerUser(server, otherPartnerId, otherAdminRoleId, 'padmin@other.test', {
    orgAccess: 'all',
  });
  await insertOrgUser(server, orgA, ROLES.orgAdmin, 'oadmin@contoso.test');
  await insertOrgUser(server, orgA, ROLES.orgTechnician, 'otech@contoso.test');
  await insertOrgUser(server, orgX, ROLES.orgAdmin, 'oadmin@initech.test');
  await insertOrgUser(server, orgX, ROLES.orgTechnician, 'otech1@initech.test');
  await insertOrgUser(server, orgX, ROLES.orgTechnician, 'otech2@initech.test');
  orgAdminToken = await tokenFor('oadmin@contoso.test');
});
afterAll(async () => {
  await server.dispose();
});

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

describe('creating and changing roles', () => {
  it('creates a custom role in the caller’s tenant and records role.create', async () => {
    const noMfa = await server.api.post(
      '/roles',
      { name: 'X', permissions: [] },
      await tokenFor('oadmin@contoso.test', false),
    );
    expect(noMfa.status).toBe(403);
    expect(noMfa.body.code).toBe('MFA_REQUIRED');
    const tech = await server.api.post(
      '/roles',
      { name: 'X', permissions: [] },
      await tokenFor('otech@contoso.test'),
    );
    expect(tech.status).toBe(403);

    const res = await server.api.post(
      '/roles',
      {
        name: 'Field Tech',
        description: 'Devices and scripts',
        permissions: perms('devices:view', 'devices:execute', 'scripts:view', 'devices:view'),
      },
      orgAdminToken,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Field Tech',
      description: 'Devices and scripts',
      scope: 'organization',
      orgId: orgA,
      partnerId: null,
      isSystem: false,
      userCount: 0,
    });
    expect(res.body.permissions).toEqual(perms('devices:execute', 'devices:view', 'scripts:view'));
    await auditSettled(server);
    const entry = lastAudit('role.create', res.body.id);
    expect(entry).toMatchObject({ org_id: orgA, actor_email: 'oadmin@contoso.test' });

    const dup = await server.api.post('/roles', { name: 'field tech', permissions: [] }, orgAdminToken);
    expect(dup.status).toBe(409);
    const builtInName = await server.api.post(
      '/roles',
      { name: 'Organization Technician', permissions: [] },
      orgAdminToken,
    );
    expect(builtInName.status).toBe(409);
    // Another tenant may use the same name.
    const elsewhere = await server.api.post(
      '/roles',
      { name: 'Field Tech', permissions: [] },
      await tokenFor('oadmin@initech.test'),
    );
    expect(elsewhere.status).toBe(201);
  });

  it('validates names and permissions', async () => {
    const cases: Array<[object, string]> = [
      [{ name: 'x'.repeat(101), permissions: [] }, 'name: Name must be at most 100 characters'],
      [{ name: '  ', permissions: [] }, 'name: Name is required'],
      [{ name: 'No perms' }, 'permissions: Invalid input: expected array, received undefined'],
      [{ name: 'Bad', permissions: perms('devices:explode') }, 'Unknown permission: devices:explode'],
      [{ name: 'Bad', permissions: perms('pam:view') }, 'Unknown permission: pam:view'],
      [{ name: 'Bad', permissions: perms('devices:*') }, 'Unknown permission: devices:*'],
    ];
    for (const [body, error] of cases) {
      const res = await server.api.post('/roles', body, orgAdminToken);
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 400, error });
    }
    const special = await server.api.post(
      '/roles',
      { name: 'Approver', permissions: perms('pam:approve', 'audit:export') },
      orgAdminToken,
    );
    expect(special.status).toBe(201);
    const wildcard = await server.api.post(
      '/roles',
      { name: 'Everything', permissions: perms('*:*') },
      orgAdminToken,
    );
    expect(wildcard.status).toBe(201);
  });

  it('inherits from a parent and reports effective permissions with their source', async () => {
    const base = await server.api.post(
      '/roles',
      { name: 'Base', permissions: perms('devices:view') },
      orgAdminToken,
    );
    const mid = await server.api.post(
      '/roles',
      { name: 'Mid', permissions: perms('scripts:view', 'devices:view'), parentRoleId: base.body.id },
      orgAdminToken,
    );
    const top = await server.api.post(
      '/roles',
      { name: 'Top', permissions: perms('alerts:update'), parentRoleId: mid.body.id },
      orgAdminToken,
    );
    expect(top.status).toBe(201);
    expect(top.body.parentRoleId).toBe(mid.body.id);
    const eff = await server.api.get(`/roles/${top.body.id}/effective-permissions`, orgAdminToken);
    expect(eff.status).toBe(200);
    expect(eff.body).toEqual({
      roleId: top.body.id,
      permissions: [
        {
          resource: 'alerts',
          action: 'update',
          sourceRoleId: top.body.id,
          sourceRoleName: 'Top',
          inherited: false,
        },
        {
          resource: 'devices',
          action: 'view',
          sourceRoleId: mid.body.id,
          sourceRoleName: 'Mid',
          inherited: true,
        },
        {
          resource: 'scripts',
          action: 'view',
          sourceRoleId: mid.body.id,
          sourceRoleName: 'Mid',
          inherited: true,
        },
      ],
    });
    // Direct permissions only on GET /roles/:id.
    const got = await server.api.get(`/roles/${top.body.id}`, orgAdminToken);
    expect(got.body.permissions).toEqual(perms('alerts:update'));

    // A built-in parent of the same scope is fine.
    const child = await server.api.post(
      '/roles',
      { name: 'Tech Plus', permissions: perms('reports:view'), parentRoleId: ROLES.orgTechnician },
      orgAdminToken,
    );
    expect(child.status).toBe(201);

    // Cycles are refused, including a role as its own parent.
    const cycle = await server.api.request('PATCH', `/roles/${base.body.id}`, {
      token: orgAdminToken,
      body: { parentRoleId: top.body.id },
    });
    expect(cycle.status).toBe(400);
    expect(cycle.body.error).toContain('circular inheritance');
    const selfParent = await server.api.request('PATCH', `/roles/${mid.body.id}`, {
      token: orgAdminToken,
      body: { parentRoleId: mid.body.id },
    });
    expect(selfParent.status).toBe(400);
    expect(selfParent.body.error).toContain('circular inheritance');
    expect(
      server.context.db.prepare('SELECT parent_role_id FROM roles WHERE id = ?').get(base.body.id),
    ).toEqual({
      parent_role_id: null,
    });

    // Re-parenting and detaching work, and effective permissions follow at once.
    const reparent = await server.api.request('PATCH', `/roles/${top.body.id}`, {
      token: orgAdminToken,
      body: { parentRoleId: base.body.id },
    });
    expect(reparent.status).toBe(200);
    const after = await server.api.get(`/roles/${top.body.id}/effective-permissions`, orgAdminToken);
    expect(
      after.body.permissions.map((p: { resource: string; action: string }) => `${p.resource}:${p.action}`),
    ).toEqual(['alerts:update', 'devices:view']);
    const detach = await server.api.request('PATCH', `/roles/${top.body.id}`, {
      token: orgAdminToken,
      body: { parentRoleId: null },
    });
    expect(detach.body.parentRoleId).toBeNull();
  });

  it('requires a parent the caller sees, of the same scope and tenant', async () => {
    const initechRole = server.context.db
      .prepare("SELECT id FROM roles WHERE name = 'Initech Auditor'")
      .get() as { id: string };
    const hidden = await server.api.post(
      '/roles',
      { name: 'Child', permissions: [], parentRoleId: initechRole.id },
      orgAdminToken,
    );
    expect(hidden.status).toBe(400);
    expect(hidden.body.error).toBe('Parent role not found');
    const partnerToken = await tokenFor('padmin@acme.test');
    const scope = await server.api.post(
      '/roles',
      { name: 'Partner Child', permissions: [], parentRoleId: ROLES.orgTechnician },
      partnerToken,
    );
    expect(scope.status).toBe(400);
    expect(scope.body.error).toBe('Parent role must have the same scope and belong to the same tenant');
    // An organization role of Contoso cannot parent a role of Fabrikam.
    const contoso = server.context.db
      .prepare("SELECT id FROM roles WHERE name = 'Contoso Auditor'")
      .get() as {
      id: string;
    };
    const cross = await server.api.post(
      '/roles',
      { name: 'Fabrikam Child', permissions: [], parentRoleId: contoso.id, orgId: orgB },
      partnerToken,
    );
    expect(cross.status).toBe(400);
    expect(cross.body.error).toBe('Parent role must have the same scope and belong to the same tenant');
  });

  it('updates name, description and permissions of custom roles and records changedFields', async () => {
    const role = await server.api.post(
      '/roles',
      { name: 'Editable', permissions: perms('devices:view') },
      orgAdminToken,
    );
    const empty = await server.api.request('PATCH', `/roles/${role.body.id}`, {
      token: orgAdminToken,
      body: {},
    });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe('No updates provided');
    const res = await server.api.request('PATCH', `/roles/${role.body.id}`, {
      token: orgAdminToken,
      body: { name: 'Edited', description: null, permissions: perms('alerts:view', 'alerts:update') },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Edited', description: null });
    expect(res.body.permissions).toEqual(perms('alerts:update', 'alerts:view'));
    await auditSettled(server);
    expect(JSON.parse(lastAudit('role.update', role.body.id)!.details)).toMatchObject({
      changedFields: ['name', 'description', 'permissions'],
      permissions: ['alerts:update', 'alerts:view'],
    });
  });

  it('keeps built-in roles immutable', async () => {
    for (const id of [ROLES.orgTechnician, ROLES.orgAdmin]) {
      const patch = await server.api.request('PATCH', `/roles/${id}`, {
        token: orgAdminToken,
        body: { name: 'Hacked' },
      });
      expect(patch.status).toBe(400);
      expect(patch.body.error).toBe('Cannot modify system roles');
      const del = await server.api.request('DELETE', `/roles/${id}`, { token: orgAdminToken });
      expect(del.status).toBe(400);
      expect(del.body.error).toBe('Cannot delete system roles');
    }
    // The partner's own Partner Admin role is built in too.
    const partnerToken = await tokenFor('padmin@acme.test');
    const patch = await server.api.request('PATCH', `/roles/${adminRoleId}`, {
      token: partnerToken,
      body: { permissions: [] },
    });
    expect(patch.body.error).toBe('Cannot modify system roles');
    expect(
      server.context.db
        .prepare('SELECT COUNT(*) AS n FROM role_permissions WHERE role_id = ?')
        .get(adminRoleId),
    ).toEqual({ n: 1 });
  });

  it('lets partner and system callers create roles in the tenant they name', async () => {
    const partnerToken = await tokenFor('padmin@acme.test');
    const partnerRole = await server.api.post(
      '/roles',
      { name: 'Dispatcher', permissions: perms('alerts:view'), parentRoleId: ROLES.partnerTechnician },
      partnerToken,
    );
    expect(partnerRole.status).toBe(201);
    expect(partnerRole.body).toMatchObject({ scope: 'partner', partnerId, orgId: null });
    const orgRole = await server.api.post(
      '/roles',
      { name: 'Fabrikam Desk', permissions: perms('alerts:view'), orgId: orgB },
      partnerToken,
    );
    expect(orgRole.body).toMatchObject({ scope: 'organization', orgId: orgB });
    const foreign = await server.api.post(
      '/roles',
      { name: 'Nope', permissions: [], partnerId: otherPartnerId },
      partnerToken,
    );
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toBe('Access denied to this partner');
    const orgNaming = await server.api.post(
      '/roles',
      { name: 'Nope', permissions: [], orgId: orgB },
      orgAdminToken,
    );
    expect(orgNaming.status).toBe(403);
    expect(orgNaming.body.error).toBe('Access to this organization denied');

    const system = await mfaToken(server);
    const platformRole = await server.api.post(
      '/roles',
      { name: 'Platform Auditor', permissions: perms('audit:read', 'organizations:view') },
      system,
    );
    expect(platformRole.body).toMatchObject({
      scope: 'system',
      partnerId: null,
      orgId: null,
      isSystem: false,
    });
    const forPartner = await server.api.post(
      '/roles',
      { name: 'Other Dispatcher', permissions: perms('alerts:view'), partnerId: otherPartnerId },
      system,
    );
    expect(forPartner.body).toMatchObject({ scope: 'partner', partnerId: otherPartnerId });
    await auditSettled(server);
    expect(lastAudit('role.create', platformRole.body.id)!.org_id).toBeNull();
  });
});

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
