import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { warnStaleTierRules } from '../../server/modules/pam/policy/stale-tiers';
import { AI_TOOL_CATALOG } from '../../server/modules/pam/tools';
import {
  server,
  api,
  ids,
  tok,
  restricted,
  keyManage,
  call,
  expectError,
  lastAudit,
  usePamPolicyWorld,
} from '../support/pam-policy-world';

// /pam/config and /pam/ai-tools (spec 2 "PAM organization configuration"), and the start-up warning for
// tier-pinned rules that can no longer match.

usePamPolicyWorld();

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
    expectError(await call('PUT', '/pam/config', tok.noMfa, put), 403, /MFA required/);
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
