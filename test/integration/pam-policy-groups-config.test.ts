import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { warnStaleTierRules } from '../../server/modules/pam/policy/stale-tiers';
import { AI_TOOL_CATALOG } from '../../server/modules/pam/tools';
import { seedKeyCallers, type KeyCallerIds, type KeyCallerTokens } from '../support/key-callers';
import { insertOrgRole, insertOrgUser, mfaToken, PASSWORD } from '../support/seed';
import type { ApiClient } from '../support/server';
import { auditSettled, startServer, type ApiResponse, type TestServer } from '../support/server';

// /pam/signer-groups, /pam/config and /pam/ai-tools (spec 2 "Signer group", "PAM organization configuration"),
// and the start-up warning for tier-pinned rules that can no longer match.

let server: TestServer;
let api: ApiClient;
let ids: KeyCallerIds;
let tok: KeyCallerTokens;
let restricted: string;
let keyManage: string;

beforeAll(async () => {
  server = await startServer();
  ({ ids, tok } = await seedKeyCallers(server));
  api = server.api;
  const db = server.context.db;
  const roleId = insertOrgRole(server, ids.a1, 'Site policy', [
    ['devices', 'view'],
    ['devices', 'update'],
    ['pam', 'manage_policy'],
  ]);
  const userId = await insertOrgUser(server, ids.a1, roleId, 'site@a1.test');
  db.prepare('UPDATE organization_users SET site_ids = ? WHERE user_id = ?').run(
    JSON.stringify([ids.siteA1]),
    userId,
  );
  restricted = await mfaToken(server, 'site@a1.test', PASSWORD);
  const key = await server.api.post(
    '/api-keys',
    { orgId: ids.a1, name: 'pam policy', scopes: ['devices:read', 'devices:write', 'pam:manage_policy'] },
    tok.system,
  );
  keyManage = key.body.key as string;
});

afterAll(async () => {
  await server.dispose();
});

type Caller = string | { key: string };
const call = (method: string, path: string, caller: Caller, body?: unknown) =>
  api.request(method, path, {
    ...(typeof caller === 'string' ? { token: caller } : { headers: { 'x-api-key': caller.key } }),
    ...(body !== undefined ? { body } : {}),
  });

function expectError(res: ApiResponse, status: number, error: string | RegExp, code?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (typeof error === 'string') expect(res.body.error).toBe(error);
  else expect(res.body.error).toMatch(error);
  if (code) expect(res.body.code).toBe(code);
}

async function lastAudit(action: string, resourceId: string) {
  await auditSettled(server);
  return server.context.db
    .prepare(
      `SELECT org_id, actor_type, actor_id, resource_type, resource_name, details FROM audit_logs
       WHERE action = ? AND resource_id = ? ORDER BY rowid DESC LIMIT 1`,
    )
    .get(action, resourceId) as ({ details: string } & Record<string, unknown>) | undefined;
}

const storedGroup = (id: string) =>
  server.context.db.prepare('SELECT * FROM pam_signer_groups WHERE id = ?').get(id) as
    Record<string, unknown> | undefined;

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
      /Multi-factor/,
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

describe('organization configuration', () => {
  it('defaults when never set; PUT upserts, keeps omitted fields and audits', async () => {
    const initial = await call('GET', '/pam/config', tok.orgAdmin);
    expect(initial.status).toBe(200);
    expect(initial.body).toEqual({
      success: true,
      config: {
        orgId: ids.a1,
        defaultUnmatchedVerdict: 'require_approval',
        defaultApprovalDurationMinutes: 15,
        actuatorEnabled: true,
      },
    });
    const put = await call('PUT', '/pam/config', tok.orgAdmin, {
      defaultUnmatchedVerdict: 'auto_deny',
      defaultApprovalDurationMinutes: 45,
      actuatorEnabled: false,
    });
    expect(put.status).toBe(200);
    expect(put.body.config).toEqual({
      orgId: ids.a1,
      defaultUnmatchedVerdict: 'auto_deny',
      defaultApprovalDurationMinutes: 45,
      actuatorEnabled: false,
    });
    expect(server.context.db.prepare('SELECT * FROM pam_config WHERE org_id = ?').get(ids.a1)).toMatchObject({
      default_unmatched_verdict: 'auto_deny',
      default_approval_duration_minutes: 45,
      actuator_enabled: 0,
      updated_by: ids.orgAdminId,
    });
    const again = await call('PUT', '/pam/config', tok.orgAdmin, {
      defaultUnmatchedVerdict: 'require_approval',
    });
    expect(again.body.config).toMatchObject({
      defaultUnmatchedVerdict: 'require_approval',
      defaultApprovalDurationMinutes: 45,
      actuatorEnabled: false,
    });
    expect((await call('GET', '/pam/config', tok.orgTech)).body.config).toEqual(again.body.config);
    const entry = await lastAudit('pam.config.update', ids.a1);
    expect(entry).toMatchObject({ org_id: ids.a1, resource_type: 'pam_config' });
    expect(JSON.parse(entry!.details).changes).toEqual([
      { field: 'defaultUnmatchedVerdict', from: 'auto_deny', to: 'require_approval' },
    ]);
  });

  it('validation', async () => {
    expectError(await call('PUT', '/pam/config', tok.orgAdmin, {}), 400, /^defaultUnmatchedVerdict: /);
    expectError(
      await call('PUT', '/pam/config', tok.orgAdmin, { defaultUnmatchedVerdict: 'auto_approve' }),
      400,
      /^defaultUnmatchedVerdict: /,
    );
    expectError(
      await call('PUT', '/pam/config', tok.orgAdmin, {
        defaultUnmatchedVerdict: 'auto_deny',
        defaultApprovalDurationMinutes: 0,
      }),
      400,
      'defaultApprovalDurationMinutes: must be 1-1440',
    );
    expectError(
      await call('PUT', '/pam/config', tok.orgAdmin, {
        defaultUnmatchedVerdict: 'auto_deny',
        actuatorEnabled: 'no',
      }),
      400,
      /^actuatorEnabled: /,
    );
  });

  it('scope and permissions', async () => {
    const put = { defaultUnmatchedVerdict: 'auto_deny' };
    expectError(await call('PUT', '/pam/config', tok.system, put), 400, 'orgId is required for system scope');
    expectError(await call('GET', '/pam/config', tok.partnerAll), 400, 'orgId is required for partner scope');
    const partner = await call('PUT', '/pam/config', tok.partnerAll, { ...put, orgId: ids.a2 });
    expect(partner.body.config).toMatchObject({ orgId: ids.a2, defaultUnmatchedVerdict: 'auto_deny' });
    expect(
      (await call('GET', `/pam/config?orgId=${ids.a2}`, tok.system)).body.config.defaultUnmatchedVerdict,
    ).toBe('auto_deny');
    expectError(
      await call('PUT', '/pam/config', tok.partnerAll, { ...put, orgId: ids.b1 }),
      404,
      'Organization not found',
    );
    expectError(
      await call('GET', `/pam/config?orgId=${ids.a1}`, tok.orgAdminB),
      403,
      'Access to this organization denied',
    );
    expectError(await call('PUT', '/pam/config', tok.orgTech, put), 403, 'Insufficient permissions');
    expectError(await call('PUT', '/pam/config', tok.noMfa, put), 403, /Multi-factor/);
    expectError(await call('PUT', '/pam/config', restricted, put), 403, 'Access to this site denied');
    expect((await call('PUT', '/pam/config', { key: keyManage }, put)).status).toBe(200);
    // B1 was never touched by any of this.
    expect((await call('GET', '/pam/config', tok.orgAdminB)).body.config.defaultUnmatchedVerdict).toBe(
      'require_approval',
    );
  });
});

describe('AI tool catalog', () => {
  it('lists the tools and tiers of this build for readers', async () => {
    const res = await call('GET', '/pam/ai-tools', tok.orgTech);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, tools: AI_TOOL_CATALOG });
    expect((await api.get('/pam/ai-tools')).status).toBe(401);
  });
});

describe('start-up stale-tier warning', () => {
  it('one warning naming every enabled tier-pinned rule its tool cannot reach; silent when none', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean))
          lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const log = pino({ level: 'info' }, stream);
    const flush = () => new Promise((resolve) => setImmediate(resolve));
    warnStaleTierRules({ db: server.context.db, log });
    await flush();
    expect(lines.filter((l) => l.level === 40)).toEqual([]);

    const make = async (body: Record<string, unknown>, token = tok.orgAdmin) => {
      const res = await call('POST', '/pam/rules', token, { verdict: 'auto_deny', ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as string;
    };
    const a = await make({ name: 'pinned a', matchToolName: 'write_file', matchRiskTier: 2 });
    const b = await make(
      { name: 'pinned b', matchToolName: 'manage_local_users', matchRiskTier: 4 },
      tok.orgAdminB,
    );
    const off = await make({
      name: 'disabled',
      matchToolName: 'write_file',
      matchRiskTier: 2,
      enabled: false,
    });
    await make({ name: 'reachable', matchToolName: 'run_powershell', matchRiskTier: 3 });
    // A later build narrowed the tools: the stored tiers are out of reach now.
    server.context.db.prepare('UPDATE pam_rules SET match_risk_tier = 4 WHERE id IN (?, ?)').run(a, off);
    server.context.db.prepare('UPDATE pam_rules SET match_risk_tier = 1 WHERE id = ?').run(b);

    warnStaleTierRules({ db: server.context.db, log });
    await flush();
    const warnings = lines.filter((l) => l.level === 40);
    expect(warnings).toHaveLength(1);
    const warning = warnings[0]!;
    expect(warning.msg).toMatch(/^2 enabled PAM rule\(s\) pin a risk tier/);
    expect(warning.msg).toContain('"pinned a"');
    expect(warning.msg).toContain('"pinned b"');
    expect(warning.staleTierRules).toEqual([
      expect.objectContaining({ ruleId: expect.any(String), toolName: expect.any(String) }),
      expect.objectContaining({ ruleId: expect.any(String) }),
    ]);
    const byId = new Map((warning.staleTierRules as Array<{ ruleId: string }>).map((r) => [r.ruleId, r]));
    expect(byId.get(a)).toEqual({
      ruleId: a,
      name: 'pinned a',
      orgId: ids.a1,
      toolName: 'write_file',
      riskTier: 4,
      validTiers: [1, 2],
    });
    expect(byId.get(b)).toEqual({
      ruleId: b,
      name: 'pinned b',
      orgId: ids.b1,
      toolName: 'manage_local_users',
      riskTier: 1,
      validTiers: [4],
    });
    expect(byId.has(off)).toBe(false);
    // The list flags the same rule.
    const listed = await call('GET', '/pam/rules', tok.orgAdmin);
    expect(listed.body.rules.find((r: { id: string }) => r.id === a)).toMatchObject({
      matchRiskTierStale: true,
      matchRiskTierValidTiers: [1, 2],
    });
  });
});
