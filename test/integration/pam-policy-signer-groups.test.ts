import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ids,
  tok,
  restricted,
  keyManage,
  call,
  expectError,
  lastAudit,
  storedGroup,
  usePamPolicyWorld,
} from '../support/pam-policy-world';

// /pam/signer-groups (spec 2 "Signer group").

usePamPolicyWorld();

describe('signer groups', () => {
  it('create: signers trimmed, blanks dropped, de-duplicated case-insensitively keeping the first spelling', async () => {
    const res = await call('POST', '/pam/signer-groups', tok.orgAdmin, {
      name: ' Trusted vendors ',
      description: 'Installers we allow',
      signers: [
        '  Microsoft Corporation ',
        'Acme Corp',
        'MICROSOFT CORPORATION',
        '',
        '   ',
        'acme corp',
        'Zeta',
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      signerGroup: {
        id: expect.any(String),
        orgId: ids.a1,
        name: 'Trusted vendors',
        description: 'Installers we allow',
        signers: ['Microsoft Corporation', 'Acme Corp', 'Zeta'],
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    });
    const id = res.body.signerGroup.id as string;
    expect(JSON.parse(storedGroup(id)!.signers as string)).toEqual([
      'Microsoft Corporation',
      'Acme Corp',
      'Zeta',
    ]);
    expect(await lastAudit('pam.signer_group.create', id)).toMatchObject({
      org_id: ids.a1,
      actor_id: ids.orgAdminId,
      resource_type: 'pam_signer_group',
      resource_name: 'Trusted vendors',
    });
  });

  it('validation', async () => {
    const post = (body: unknown) => call('POST', '/pam/signer-groups', tok.orgAdmin, body);
    expectError(await post({ signers: [] }), 400, 'name: is required');
    expectError(
      await post({ name: 'x'.repeat(256), signers: [] }),
      400,
      'name: must be at most 255 characters',
    );
    expectError(await post({ name: 'x' }), 400, 'signers: must be an array of strings');
    expectError(await post({ name: 'x', signers: 'Acme' }), 400, 'signers: must be an array of strings');
    expectError(
      await post({ name: 'x', signers: Array.from({ length: 501 }, (_, i) => `S${i}`) }),
      400,
      'signers: must hold at most 500 signers',
    );
    expectError(
      await post({ name: 'x', signers: ['a'.repeat(256)] }),
      400,
      'signers.0: must be at most 255 characters',
    );
    expectError(
      await post({ name: 'x', signers: [], description: 'd'.repeat(2001) }),
      400,
      'description: must be at most 2000 characters',
    );
    expect(
      (
        await post({
          name: 'max',
          signers: Array.from({ length: 500 }, (_, i) => `S${i}`),
          description: null,
        })
      ).status,
    ).toBe(201);
  });

  it('names are unique per organization (409), not across organizations', async () => {
    expect(
      (await call('POST', '/pam/signer-groups', tok.orgAdmin, { name: 'Dup', signers: [] })).status,
    ).toBe(201);
    expectError(
      await call('POST', '/pam/signer-groups', tok.orgAdmin, { name: 'DUP', signers: [] }),
      409,
      'A signer group with this name already exists',
      'SIGNER_GROUP_NAME_TAKEN',
    );
    expect(
      (await call('POST', '/pam/signer-groups', tok.orgAdminB, { name: 'Dup', signers: [] })).status,
    ).toBe(201);
  });

  it('list by name, scoped; partner and system name the organization', async () => {
    const a = await call('GET', '/pam/signer-groups', tok.orgAdmin);
    expect(a.status).toBe(200);
    expect(a.body.success).toBe(true);
    const names = a.body.signerGroups.map((g: { name: string }) => g.name);
    expect(names).toEqual(
      [...names].sort((x: string, y: string) => x.localeCompare(y, 'en', { sensitivity: 'base' })),
    );
    expect(a.body.signerGroups.every((g: { orgId: string }) => g.orgId === ids.a1)).toBe(true);
    const b = await call('GET', '/pam/signer-groups', tok.orgAdminB);
    expect(b.body.signerGroups.map((g: { name: string }) => g.name)).toEqual(['Dup']);
    expectError(
      await call('GET', '/pam/signer-groups', tok.system),
      400,
      'orgId is required for system scope',
    );
    const viaPartner = await call('GET', `/pam/signer-groups?orgId=${ids.a1}`, tok.partnerAll);
    expect(viaPartner.body.signerGroups).toHaveLength(a.body.signerGroups.length);
    expectError(
      await call('GET', `/pam/signer-groups?orgId=${ids.b1}`, tok.partnerAll),
      404,
      'Organization not found',
    );
    expect((await call('GET', '/pam/signer-groups', tok.orgTech)).status).toBe(200);
  });

  it('update is partial and audited; other organizations get 404', async () => {
    const created = await call('POST', '/pam/signer-groups', tok.orgAdmin, {
      name: 'Patch me',
      signers: ['A'],
    });
    const id = created.body.signerGroup.id as string;
    const res = await call('PATCH', `/pam/signer-groups/${id}`, tok.orgAdmin, { signers: ['B', ' b ', 'C'] });
    expect(res.status).toBe(200);
    expect(res.body.signerGroup).toMatchObject({ name: 'Patch me', signers: ['B', 'C'], description: null });
    const described = await call('PATCH', `/pam/signer-groups/${id}`, tok.orgAdmin, {
      description: 'now described',
      name: 'Patched',
    });
    expect(described.body.signerGroup).toMatchObject({
      name: 'Patched',
      description: 'now described',
      signers: ['B', 'C'],
    });
    expect(JSON.parse((await lastAudit('pam.signer_group.update', id))!.details)).toMatchObject({
      changedFields: ['name', 'description'],
      signerCount: 2,
    });
    expectError(
      await call('PATCH', `/pam/signer-groups/${id}`, tok.orgAdmin, {}),
      400,
      'No updates provided',
    );
    expectError(
      await call('PATCH', `/pam/signer-groups/${id}`, tok.orgAdmin, { name: 'Dup' }),
      409,
      'A signer group with this name already exists',
    );
    expectError(
      await call('PATCH', `/pam/signer-groups/${id}`, tok.orgAdminB, { name: 'x' }),
      404,
      'Signer group not found',
    );
    expectError(
      await call('DELETE', `/pam/signer-groups/${id}`, tok.orgAdminB),
      404,
      'Signer group not found',
    );
    expect(storedGroup(id)).toMatchObject({ name: 'Patched' });
  });

  it('delete: 409 naming the rule count while referenced, then 200', async () => {
    const created = await call('POST', '/pam/signer-groups', tok.orgAdmin, {
      name: 'Referenced',
      signers: ['Acme'],
    });
    const id = created.body.signerGroup.id as string;
    const rules: string[] = [];
    for (const name of ['one', 'two']) {
      const rule = await call('POST', '/pam/rules', tok.orgAdmin, {
        name,
        verdict: 'auto_approve',
        matchSignerGroupId: id,
      });
      expect(rule.status, JSON.stringify(rule.body)).toBe(201);
      rules.push(rule.body.id);
    }
    const refused = await call('DELETE', `/pam/signer-groups/${id}`, tok.orgAdmin);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      error: 'Signer group is referenced by 2 rule(s)',
      code: 'SIGNER_GROUP_IN_USE',
      ruleCount: 2,
    });
    expect(storedGroup(id)).toBeDefined();
    for (const rule of rules)
      expect((await call('DELETE', `/pam/rules/${rule}`, tok.orgAdmin)).status).toBe(200);
    const res = await call('DELETE', `/pam/signer-groups/${id}`, tok.orgAdmin);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, signerGroup: { id, name: 'Referenced' } });
    expect(storedGroup(id)).toBeUndefined();
    expect(await lastAudit('pam.signer_group.delete', id)).toBeDefined();
  });

  it('writes need pam:manage_policy, devices:write and MFA; API keys by scope; restricted technicians refused', async () => {
    const body = { name: `perm ${randomUUID()}`, signers: [] };
    expectError(await call('POST', '/pam/signer-groups', tok.orgTech, body), 403, 'Insufficient permissions');
    expectError(
      await call('POST', '/pam/signer-groups', tok.noMfa, body),
      403,
      /MFA required/,
      'MFA_REQUIRED',
    );
    expectError(
      await call('POST', '/pam/signer-groups', restricted, body),
      403,
      'Access to this site denied',
    );
    const byKey = await call('POST', '/pam/signer-groups', { key: keyManage }, body);
    expect(byKey.status).toBe(201);
    expectError(
      await call('PATCH', `/pam/signer-groups/${byKey.body.signerGroup.id}`, restricted, { name: 'x' }),
      403,
      'Access to this site denied',
    );
    expect((await call('GET', '/pam/signer-groups', restricted)).status).toBe(200);
  });
});
