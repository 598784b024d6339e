import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  server,
  ids,
  tok,
  keyRead,
  H,
  call,
  create,
  createOk,
  expectError,
  storedRule,
  auditEntries,
  NO_CRITERION,
  MIXED,
  usePamRulesWorld,
} from '../support/pam-rules-world';

// /pam/rules create, list, update and delete: what is stored, returned and audited; re-approval of suspended
// rules and stale tiers in the list.

usePamRulesWorld();

describe('create', () => {
  it('201 with the full rule and defaults; stored and audited', async () => {
    const res = await create({
      name: '  Acme installers ',
      verdict: 'auto_approve',
      matchSigner: 'Acme Corp',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      id: expect.any(String),
      orgId: ids.a1,
      siteId: null,
      name: 'Acme installers',
      verdict: 'auto_approve',
      suspendedVerdict: null,
      priority: 100,
      enabled: true,
      matchSigner: 'Acme Corp',
      matchSignerGroupId: null,
      matchSignerThumbprint: null,
      matchHash: null,
      matchPathGlob: null,
      matchParentImage: null,
      matchCommandLine: null,
      matchUser: null,
      matchAdGroup: null,
      matchToolName: null,
      matchRiskTier: null,
      matchNegate: null,
      timeWindow: null,
      approvalDurationMinutes: null,
      reapprovedAt: null,
      reapprovedByUserId: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(storedRule(res.body.id)).toMatchObject({
      org_id: ids.a1,
      match_signer: 'Acme Corp',
      created_by: ids.orgAdminId,
    });
    const [entry] = await auditEntries('pam.rule.create', res.body.id);
    expect(entry).toMatchObject({
      org_id: ids.a1,
      actor_type: 'user',
      actor_id: ids.orgAdminId,
      resource_type: 'pam_rule',
      resource_name: 'Acme installers',
    });
    expect(JSON.parse(entry!.details)).toMatchObject({ verdict: 'auto_approve', criteria: ['matchSigner'] });
  });

  it('every executable criterion, negation, time window and duration; hex lower-cased, days sorted', async () => {
    const body = await createOk({
      name: 'everything',
      verdict: 'require_approval',
      priority: 5,
      enabled: false,
      siteId: ids.siteA1,
      matchSigner: 'Acme Corp',
      matchSignerThumbprint: H('C'),
      matchHash: H('A'),
      matchPathGlob: 'C:\\Program Files\\**',
      matchParentImage: 'explorer.exe',
      matchCommandLine: ' /S',
      matchUser: 'CORP\\alice',
      matchAdGroup: 'Helpdesk',
      matchNegate: ['parentImage', 'adGroup'],
      timeWindow: { start: '22:00', end: '06:00', days: [5, 1], timezone: 'Asia/Tokyo' },
      approvalDurationMinutes: 60,
    });
    expect(body).toMatchObject({
      priority: 5,
      enabled: false,
      siteId: ids.siteA1,
      matchSignerThumbprint: H('c'),
      matchHash: H('a'),
      matchCommandLine: ' /S',
      matchNegate: ['parentImage', 'adGroup'],
      timeWindow: { start: '22:00', end: '06:00', days: [1, 5], timezone: 'Asia/Tokyo' },
      approvalDurationMinutes: 60,
    });
    expect(storedRule(body.id)).toMatchObject({
      enabled: 0,
      match_hash: H('a'),
      approval_duration_minutes: 60,
    });
  });

  it('tool-action rules; an unknown tool is not rejected', async () => {
    expect(
      await createOk({ matchToolName: 'run_powershell', matchRiskTier: 4, verdict: 'auto_deny' }),
    ).toMatchObject({
      matchToolName: 'run_powershell',
      matchRiskTier: 4,
    });
    expect(await createOk({ matchToolName: 'future_tool', matchRiskTier: 1 })).toMatchObject({
      matchRiskTier: 1,
    });
    expect(await createOk({ matchRiskTier: 0, verdict: 'auto_approve' })).toMatchObject({
      matchToolName: null,
    });
  });

  it('user and group rules may carry any verdict, ignore included', async () => {
    await createOk({ matchUser: 'svc_backup', verdict: 'ignore' });
    await createOk({ matchAdGroup: 'Contractors', verdict: 'auto_deny' });
  });
});

describe('list', () => {
  it('rules in decision order with stale-tier flags', async () => {
    const org = ids.a2;
    const mk = (body: Record<string, unknown>) => createOk({ orgId: org, ...body }, tok.system);
    const late = await mk({ name: 'p50', priority: 50, matchUser: 'a' });
    const early = await mk({ name: 'p10', priority: 10, matchUser: 'b' });
    const tied = await mk({ name: 'p50 later', priority: 50, matchUser: 'c' });
    const tool = await mk({ name: 'tool', priority: 60, matchToolName: 'run_powershell', matchRiskTier: 3 });
    // A build that dropped the tier: written straight into SQLite, as an older build would have stored it.
    server.context.db
      .prepare("UPDATE pam_rules SET match_tool_name = 'read_file', match_risk_tier = 2 WHERE id = ?")
      .run(tool.id);
    const res = await call('GET', `/pam/rules?orgId=${org}`, tok.system);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const rows = res.body.rules.filter((r: { id: string }) =>
      [late.id, early.id, tied.id, tool.id].includes(r.id),
    );
    expect(rows.map((r: { name: string }) => r.name)).toEqual(['p10', 'p50', 'p50 later', 'tool']);
    expect(rows[0]).toMatchObject({ matchRiskTierStale: false, matchRiskTierValidTiers: null });
    expect(rows[3]).toMatchObject({ matchRiskTierStale: true, matchRiskTierValidTiers: [0] });
    const priorities = res.body.rules.map((r: { priority: number }) => r.priority);
    expect(priorities).toEqual([...priorities].sort((a, b) => a - b));
  });

  it('readers with devices:read (technician, read key) list; GET one rule', async () => {
    const rule = await createOk({ name: 'readable', matchSigner: 'R' });
    const tech = await call('GET', '/pam/rules', tok.orgTech);
    expect(tech.status).toBe(200);
    expect(tech.body.rules.some((r: { id: string }) => r.id === rule.id)).toBe(true);
    const key = await call('GET', `/pam/rules/${rule.id}`, { key: keyRead });
    expect(key.status).toBe(200);
    expect(key.body).toMatchObject({ success: true, id: rule.id, name: 'readable' });
  });
});

describe('update', () => {
  it('partial: name, priority, null clears a criterion; audited with changed fields', async () => {
    const rule = await createOk({ name: 'before', matchSigner: 'Acme', matchPathGlob: 'C:\\x\\*' });
    const res = await call('PATCH', `/pam/rules/${rule.id}`, tok.orgAdmin, {
      name: 'after',
      priority: 7,
      matchPathGlob: null,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      id: rule.id,
      name: 'after',
      priority: 7,
      matchSigner: 'Acme',
      matchPathGlob: null,
    });
    expect(storedRule(rule.id)).toMatchObject({ name: 'after', priority: 7, match_path_glob: null });
    const [entry] = await auditEntries('pam.rule.update', rule.id);
    expect(JSON.parse(entry!.details).changedFields.sort()).toEqual(['matchPathGlob', 'name', 'priority']);
  });

  it('the merged rule is validated', async () => {
    const rule = await createOk({ matchSigner: 'Acme', matchHash: H('e'), matchNegate: ['signer'] });
    const path = `/pam/rules/${rule.id}`;
    expectError(
      await call('PATCH', path, tok.orgAdmin, { matchSigner: null }),
      400,
      'matchNegate: signer is negated but the rule has no matchSigner',
    );
    expectError(
      await call('PATCH', path, tok.orgAdmin, { matchSigner: null, matchHash: null, matchNegate: null }),
      400,
      NO_CRITERION,
    );
    expectError(await call('PATCH', path, tok.orgAdmin, { matchToolName: 'read_file' }), 400, MIXED);
    expectError(
      await call('PATCH', path, tok.orgAdmin, { matchSignerGroupId: randomUUID() }),
      400,
      'matchSigner and matchSignerGroupId are exclusive',
    );
    const toolRule = await createOk({ matchToolName: 'write_file', verdict: 'auto_deny' });
    expectError(
      await call('PATCH', `/pam/rules/${toolRule.id}`, tok.orgAdmin, { verdict: 'ignore' }),
      400,
      'The ignore verdict is not valid for tool-action rules',
    );
    const tier = await call('PATCH', `/pam/rules/${toolRule.id}`, tok.orgAdmin, { matchRiskTier: 4 });
    expect(tier.body).toMatchObject({ code: 'pam_rule_risk_tier_unreachable', validTiers: [1, 2] });
    expect(storedRule(rule.id)).toMatchObject({ match_signer: 'Acme', match_negate: '["signer"]' });
    expectError(await call('PATCH', path, tok.orgAdmin, {}), 400, 'No updates provided');
    expectError(await call('PATCH', path, tok.orgAdmin, { orgId: ids.b1 }), 400, 'Unrecognized key: "orgId"');
  });

  it('a stale-tier rule can be renamed and disabled, but not re-pinned or re-enabled unreachable', async () => {
    const rule = await createOk({ matchToolName: 'query_event_log', matchRiskTier: 1 });
    server.context.db.prepare('UPDATE pam_rules SET match_risk_tier = 3 WHERE id = ?').run(rule.id);
    const path = `/pam/rules/${rule.id}`;
    expect((await call('PATCH', path, tok.orgAdmin, { name: 'stale', enabled: false })).status).toBe(200);
    expect((await call('PATCH', path, tok.orgAdmin, { enabled: true })).body.code).toBe(
      'pam_rule_risk_tier_unreachable',
    );
    expect((await call('PATCH', path, tok.orgAdmin, { matchRiskTier: 2 })).body.code).toBe(
      'pam_rule_risk_tier_unreachable',
    );
    expect((await call('PATCH', path, tok.orgAdmin, { matchRiskTier: 0, enabled: true })).body).toMatchObject(
      {
        matchRiskTier: 0,
        enabled: true,
      },
    );
  });

  it('re-approval of a suspended rule, and its refusals', async () => {
    const rule = await createOk({ name: 'suspended', matchSigner: 'Acme', verdict: 'auto_approve' });
    const path = `/pam/rules/${rule.id}`;
    expectError(
      await call('PATCH', path, tok.orgAdmin, { reapprove: true }),
      400,
      'PAM rule is not suspended',
    );
    // A release suspended the auto-approve rule.
    server.context.db
      .prepare(
        "UPDATE pam_rules SET verdict = 'require_approval', suspended_verdict = 'auto_approve' WHERE id = ?",
      )
      .run(rule.id);
    expectError(
      await call('PATCH', path, tok.orgAdmin, { reapprove: true, verdict: 'auto_deny' }),
      400,
      'reapprove cannot be combined with verdict',
    );
    expect(storedRule(rule.id)).toMatchObject({
      verdict: 'require_approval',
      suspended_verdict: 'auto_approve',
    });
    const res = await call('PATCH', path, tok.orgAdmin, { reapprove: true, name: 'reapproved' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      verdict: 'auto_approve',
      suspendedVerdict: null,
      name: 'reapproved',
      reapprovedAt: expect.any(String),
      reapprovedByUserId: ids.orgAdminId,
    });
    expect(storedRule(rule.id)).toMatchObject({
      verdict: 'auto_approve',
      suspended_verdict: null,
      reapproved_by_user_id: ids.orgAdminId,
    });
    const [entry] = (await auditEntries('pam.rule.update', rule.id)).slice(-1);
    expect(JSON.parse(entry!.details)).toMatchObject({ reapproved: true, verdict: 'auto_approve' });
    expectError(
      await call('PATCH', path, tok.orgAdmin, { reapprove: true }),
      400,
      'PAM rule is not suspended',
    );
  });

  it('editing the verdict directly clears the suspension', async () => {
    const rule = await createOk({ matchSigner: 'Acme', verdict: 'auto_approve' });
    server.context.db
      .prepare(
        "UPDATE pam_rules SET verdict = 'require_approval', suspended_verdict = 'auto_approve' WHERE id = ?",
      )
      .run(rule.id);
    const res = await call('PATCH', `/pam/rules/${rule.id}`, tok.orgAdmin, { verdict: 'require_approval' });
    expect(res.body).toMatchObject({
      verdict: 'require_approval',
      suspendedVerdict: null,
      reapprovedAt: null,
    });
    expect(storedRule(rule.id)).toMatchObject({ suspended_verdict: null });
  });
});

describe('delete', () => {
  it('returns the deleted rule, removes it and audits', async () => {
    const rule = await createOk({ name: 'doomed', matchHash: H('d') });
    const res = await call('DELETE', `/pam/rules/${rule.id}`, tok.orgAdmin);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, id: rule.id, name: 'doomed' });
    expect(storedRule(rule.id)).toBeUndefined();
    expectError(await call('DELETE', `/pam/rules/${rule.id}`, tok.orgAdmin), 404, 'PAM rule not found');
    expect(await auditEntries('pam.rule.delete', rule.id)).toHaveLength(1);
  });
});
