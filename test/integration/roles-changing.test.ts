import { beforeAll, describe, expect, it } from 'vitest';
import { mfaToken, ROLES } from '../support/seed';
import { auditSettled } from '../support/server';
import {
  server,
  tokenFor,
  lastAudit,
  perms,
  partnerId,
  adminRoleId,
  otherPartnerId,
  orgA,
  orgB,
  orgAdminToken,
  useRolesWorld,
} from '../support/roles-world';

// Creating and changing /roles: immutable built-in roles, inheritance without cycles, validation and audit.

useRolesWorld();

// The parent checks below name Contoso's and Initech's custom auditor roles, which the reading suite creates
// through the API in its first test; this suite creates them the same way.
beforeAll(async () => {
  const initechAdmin = await tokenFor('oadmin@initech.test');
  for (const [name, token] of [
    ['Contoso Auditor', orgAdminToken],
    ['Initech Auditor', initechAdmin],
  ] as const) {
    const res = await server.api.post('/roles', { name, permissions: perms('audit:read') }, token);
    if (res.status !== 201) throw new Error(`${name}: ${res.status} ${JSON.stringify(res.body)}`);
  }
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
