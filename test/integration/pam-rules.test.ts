import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedKeyCallers, type KeyCallerIds, type KeyCallerTokens } from '../support/key-callers';
import { insertOrgRole, insertOrgUser, insertSite, mfaToken, PASSWORD } from '../support/seed';
import type { ApiClient } from '../support/server';
import { auditSettled, startServer, type ApiResponse, type TestServer } from '../support/server';

// /pam/rules (spec 2 "PAM rule", "Rule validation", Privileged access endpoints): CRUD against a real server and
// SQLite, every rule of the validation paragraph, re-approval of suspended rules, stale tiers in the list, the
// scope matrix (organization, partner, system, API keys, a site-restricted technician), permissions and MFA,
// and the audit trail. P1 owns A1 and A2, P2 owns B1 (test/support/key-callers.ts).

let server: TestServer;
let api: ApiClient;
let ids: KeyCallerIds;
let tok: KeyCallerTokens;
let siteA1b: string;
let restricted: string;
let restrictedId: string;
let keyManage: string;
let keyRead: string;

const H = (c: string) => c.repeat(64);

beforeAll(async () => {
  server = await startServer();
  ({ ids, tok } = await seedKeyCallers(server));
  api = server.api;
  siteA1b = insertSite(server, ids.a1, 'Alpha Branch');
  // A policy manager of A1 restricted to the Alpha HQ site.
  const db = server.context.db;
  const roleId = insertOrgRole(server, ids.a1, 'Site policy', [
    ['devices', 'view'],
    ['devices', 'update'],
    ['pam', 'manage_policy'],
  ]);
  restrictedId = await insertOrgUser(server, ids.a1, roleId, 'site@a1.test');
  db.prepare('UPDATE organization_users SET site_ids = ? WHERE user_id = ?').run(
    JSON.stringify([ids.siteA1]),
    restrictedId,
  );
  restricted = await mfaToken(server, 'site@a1.test', PASSWORD);
  keyManage = await createKey(ids.a1, ['devices:read', 'devices:write', 'pam:manage_policy']);
  keyRead = await createKey(ids.a1, ['devices:read']);
});

afterAll(async () => {
  await server.dispose();
});

async function createKey(orgId: string, scopes: string[]): Promise<string> {
  const res = await server.api.post(
    '/api-keys',
    { orgId, name: `pam ${scopes.join(' ')}`, scopes },
    tok.system,
  );
  if (res.status !== 201) throw new Error(`key: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.key as string;
}

type Caller = string | { key: string };
const opts = (caller: Caller) =>
  typeof caller === 'string' ? { token: caller } : { headers: { 'x-api-key': caller.key } };
const call = (method: string, path: string, caller: Caller, body?: unknown) =>
  api.request(method, path, { ...opts(caller), ...(body !== undefined ? { body } : {}) });

const create = (body: Record<string, unknown>, caller: Caller = tok.orgAdmin) =>
  call('POST', '/pam/rules', caller, body);

async function createOk(body: Record<string, unknown>, caller: Caller = tok.orgAdmin) {
  const res = await create({ name: 'rule', verdict: 'auto_approve', ...body }, caller);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string } & Record<string, unknown>;
}

function expectError(res: ApiResponse, status: number, error: string | RegExp, code?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (typeof error === 'string') expect(res.body.error).toBe(error);
  else expect(res.body.error).toMatch(error);
  if (code) expect(res.body.code).toBe(code);
}

const storedRule = (id: string) =>
  server.context.db.prepare('SELECT * FROM pam_rules WHERE id = ?').get(id) as
    Record<string, unknown> | undefined;

async function auditEntries(action: string, resourceId?: string) {
  await auditSettled(server);
  return server.context.db
    .prepare(
      `SELECT org_id, actor_type, actor_id, action, resource_type, resource_id, resource_name, details
       FROM audit_logs WHERE action = ? AND (? IS NULL OR resource_id = ?) ORDER BY rowid`,
    )
    .all(action, resourceId ?? null, resourceId ?? null) as Array<
    { details: string } & Record<string, unknown>
  >;
}

const NO_CRITERION =
  'A rule needs at least one identifying criterion (signer, signer group, hash, path, parent, command line, user, group, tool, tier); a time window alone is not enough';
const MIXED =
  'A rule matches an executable (signer, signer group, thumbprint, hash, path, parent, command line) or an AI tool action (tool name, risk tier), never both';

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

describe('rule validation', () => {
  const cases: Array<[string, Record<string, unknown>, string | RegExp, string?]> = [
    ['no criterion', {}, NO_CRITERION, 'VALIDATION_ERROR'],
    ['a time window alone', { timeWindow: { start: '09:00', end: '17:00' } }, NO_CRITERION],
    ['empty strings are no criteria', { matchSigner: '  ', matchHash: '' }, NO_CRITERION],
    ['executable and tool criteria', { matchSigner: 'Acme', matchToolName: 'read_file' }, MIXED],
    ['hash and risk tier', { matchHash: H('a'), matchRiskTier: 1 }, MIXED],
    [
      'ignore for a tool rule',
      { matchToolName: 'read_file', verdict: 'ignore' },
      'The ignore verdict is not valid for tool-action rules',
    ],
    [
      'signer with signer group',
      { matchSigner: 'Acme', matchSignerGroupId: randomUUID() },
      'matchSigner and matchSignerGroupId are exclusive',
    ],
    [
      'signer group with thumbprint',
      { matchSignerGroupId: randomUUID(), matchSignerThumbprint: H('c') },
      'matchSignerGroupId and matchSignerThumbprint are exclusive',
    ],
    [
      'unknown signer group',
      { matchSignerGroupId: randomUUID() },
      'matchSignerGroupId: signer group not found in this organization',
    ],
    ['short hash', { matchHash: 'abc' }, 'matchHash: must be a SHA-256 hex digest (64 hex characters)'],
    [
      'non-hex thumbprint',
      { matchSignerThumbprint: 'z'.repeat(64) },
      /^matchSignerThumbprint: must be a SHA-256/,
    ],
    [
      'negation of an absent criterion',
      { matchSigner: 'Acme', matchNegate: ['hash'] },
      'matchNegate: hash is negated but the rule has no matchHash',
    ],
    ['unknown negation key', { matchSigner: 'Acme', matchNegate: ['thumbprint'] }, /^matchNegate\.0: /],
    [
      'repeated negation key',
      { matchSigner: 'Acme', matchNegate: ['signer', 'signer'] },
      'matchNegate: must not repeat a criterion',
    ],
    [
      'time HH:MM',
      { matchSigner: 'Acme', timeWindow: { start: '9:00', end: '17:00' } },
      'timeWindow.start: must be HH:MM (24 hour)',
    ],
    [
      'time 24:00',
      { matchSigner: 'Acme', timeWindow: { start: '09:00', end: '24:00' } },
      'timeWindow.end: must be HH:MM (24 hour)',
    ],
    [
      'day 7',
      { matchSigner: 'Acme', timeWindow: { start: '09:00', end: '17:00', days: [7] } },
      'timeWindow.days.0: must be 0-6',
    ],
    [
      'repeated day',
      { matchSigner: 'Acme', timeWindow: { start: '09:00', end: '17:00', days: [1, 1] } },
      'timeWindow.days: must not repeat a day',
    ],
    [
      'no day',
      { matchSigner: 'Acme', timeWindow: { start: '09:00', end: '17:00', days: [] } },
      'timeWindow.days: must list at least one day',
    ],
    [
      'unknown time zone',
      { matchSigner: 'Acme', timeWindow: { start: '09:00', end: '17:00', timezone: 'Mars/Base' } },
      'timeWindow.timezone: must be an IANA time zone',
    ],
    [
      'duration 0',
      { matchSigner: 'Acme', approvalDurationMinutes: 0 },
      'approvalDurationMinutes: must be 1-1440',
    ],
    [
      'duration 1441',
      { matchSigner: 'Acme', approvalDurationMinutes: 1441 },
      'approvalDurationMinutes: must be 1-1440',
    ],
    ['risk tier 5', { matchRiskTier: 5 }, 'matchRiskTier: must be 0-4'],
    ['unknown field', { matchSigner: 'Acme', matchHsh: H('a') }, 'Unrecognized key: "matchHsh"'],
  ];
  for (const [name, body, error, code] of cases) {
    it(name, async () => {
      expectError(await create({ name: 'x', verdict: 'auto_approve', ...body }), 400, error, code);
    });
  }

  it('name 1-255 and a known verdict are required', async () => {
    expectError(
      await create({ name: ' ', verdict: 'auto_approve', matchSigner: 'A' }),
      400,
      'name: is required',
    );
    expectError(
      await create({ name: 'x'.repeat(256), verdict: 'auto_approve', matchSigner: 'A' }),
      400,
      'name: must be at most 255 characters',
    );
    expectError(await create({ verdict: 'auto_approve', matchSigner: 'A' }), 400, 'name: is required');
    expectError(
      await create({ name: 'x', verdict: 'allow', matchSigner: 'A' }),
      400,
      /^verdict: must be one of/,
    );
  });

  it('pam_rule_risk_tier_unreachable names the valid tiers; nothing is stored', async () => {
    const before = (server.context.db.prepare('SELECT count(*) AS n FROM pam_rules').get() as { n: number })
      .n;
    const res = await create({
      name: 'x',
      verdict: 'auto_approve',
      matchToolName: 'read_file',
      matchRiskTier: 3,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Risk tier 3 is unreachable for tool read_file; valid tiers: 0',
      code: 'pam_rule_risk_tier_unreachable',
      validTiers: [0],
    });
    const negated = await create({
      name: 'x',
      verdict: 'auto_approve',
      matchToolName: 'restart_service',
      matchRiskTier: 2,
      matchNegate: ['riskTier'],
    });
    expect(negated.body).toMatchObject({ code: 'pam_rule_risk_tier_unreachable', validTiers: [2] });
    expect((server.context.db.prepare('SELECT count(*) AS n FROM pam_rules').get() as { n: number }).n).toBe(
      before,
    );
  });

  it('the signer group must belong to the rule organization', async () => {
    const group = await call('POST', '/pam/signer-groups', tok.orgAdminB, {
      name: 'B vendors',
      signers: ['Acme'],
    });
    expect(group.status).toBe(201);
    expectError(
      await create({ name: 'x', verdict: 'auto_approve', matchSignerGroupId: group.body.signerGroup.id }),
      400,
      'matchSignerGroupId: signer group not found in this organization',
    );
    const own = await call('POST', '/pam/signer-groups', tok.orgAdmin, {
      name: 'A vendors',
      signers: ['Acme'],
    });
    expect(
      await createOk({ matchSignerGroupId: own.body.signerGroup.id, matchNegate: ['signerGroup'] }),
    ).toMatchObject({
      matchSignerGroupId: own.body.signerGroup.id,
    });
  });

  it('siteId must be a site of the organization the caller may reach', async () => {
    expectError(
      await create({ name: 'x', verdict: 'auto_approve', matchSigner: 'A', siteId: randomUUID() }),
      404,
      'Site not found',
    );
    expectError(
      await create({ name: 'x', verdict: 'auto_approve', matchSigner: 'A', siteId: ids.siteB1 }),
      403,
      'Access to this site denied',
    );
    expectError(
      await create(
        { name: 'x', verdict: 'auto_approve', matchSigner: 'A', siteId: ids.siteB1, orgId: ids.a1 },
        tok.system,
      ),
      400,
      "siteId: must be a site of the rule's organization",
    );
  });
});

describe('scope', () => {
  it('partner and system callers name the organization', async () => {
    expectError(
      await create({ name: 'x', verdict: 'auto_approve', matchSigner: 'A' }, tok.system),
      400,
      'orgId is required for system scope',
    );
    expectError(
      await create({ name: 'x', verdict: 'auto_approve', matchSigner: 'A' }, tok.partnerAll),
      400,
      'orgId is required for partner scope',
    );
    const rule = await createOk({ orgId: ids.a2, matchSigner: 'Partner' }, tok.partnerAll);
    expect(rule.orgId).toBe(ids.a2);
    expectError(
      await create(
        { name: 'x', verdict: 'auto_approve', matchSigner: 'A', orgId: ids.a2 },
        tok.partnerSelected,
      ),
      404,
      'Organization not found',
    );
    expectError(
      await create({ name: 'x', verdict: 'auto_approve', matchSigner: 'A', orgId: ids.b1 }, tok.partnerAll),
      404,
      'Organization not found',
    );
    expectError(await call('GET', '/pam/rules', tok.partnerAll), 400, 'orgId is required for partner scope');
    const listed = await call('GET', `/pam/rules?orgId=${ids.a2}`, tok.partnerAll);
    expect(listed.body.rules.map((r: { id: string }) => r.id)).toEqual([rule.id]);
  });

  it('an organization caller naming another organization is refused', async () => {
    expectError(
      await create({ name: 'x', verdict: 'auto_approve', matchSigner: 'A', orgId: ids.b1 }),
      403,
      'Access to this organization denied',
    );
    expectError(
      await call('GET', `/pam/rules?orgId=${ids.b1}`, tok.orgAdmin),
      403,
      'Access to this organization denied',
    );
    expect((await call('GET', `/pam/rules?orgId=${ids.a1}`, tok.orgAdmin)).status).toBe(200);
  });

  it('another organization never sees, reads, changes or deletes a rule (404)', async () => {
    const rule = await createOk({ name: 'private', matchSigner: 'Secret' });
    const listB = await call('GET', '/pam/rules', tok.orgAdminB);
    expect(listB.status).toBe(200);
    expect(listB.body.rules.some((r: { orgId: string }) => r.orgId !== ids.b1)).toBe(false);
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'stolen' }],
      ['DELETE', undefined],
    ] as const) {
      expectError(
        await call(method, `/pam/rules/${rule.id}`, tok.orgAdminB, body),
        404,
        'PAM rule not found',
      );
      expectError(
        await call(method, `/pam/rules/${rule.id}`, tok.partnerNone, body),
        404,
        'PAM rule not found',
      );
    }
    expect(storedRule(rule.id)).toMatchObject({ name: 'private' });
  });

  it('Invalid PAM id', async () => {
    expectError(await call('GET', '/pam/rules/not-a-uuid', tok.orgAdmin), 400, 'id: Invalid PAM id');
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

describe('permissions and MFA', () => {
  it('writes need pam:manage_policy', async () => {
    const rule = await createOk({ matchSigner: 'Acme' });
    expectError(
      await create({ name: 'x', verdict: 'auto_approve', matchSigner: 'A' }, tok.orgTech),
      403,
      'Insufficient permissions',
      'PERMISSION_DENIED',
    );
    expectError(
      await call('PATCH', `/pam/rules/${rule.id}`, tok.orgTech, { name: 'x' }),
      403,
      'Insufficient permissions',
    );
    expectError(await call('DELETE', `/pam/rules/${rule.id}`, tok.orgTech), 403, 'Insufficient permissions');
    expectError(
      await create({ name: 'x', verdict: 'auto_approve', matchSigner: 'A' }, { key: keyRead }),
      403,
      'API key does not have required permissions',
    );
  });

  it('console users need an MFA session for writes, not for reads; API keys pass on their scopes', async () => {
    const noMfa = tok.noMfa;
    expectError(
      await create({ name: 'x', verdict: 'auto_approve', matchSigner: 'A' }, noMfa),
      403,
      /Multi-factor/,
      'MFA_REQUIRED',
    );
    expect((await call('GET', '/pam/rules', noMfa)).status).toBe(200);
    const byKey = await createOk({ name: 'by key', matchSigner: 'K' }, { key: keyManage });
    expect(storedRule(byKey.id)).toMatchObject({ org_id: ids.a1 });
    const [entry] = await auditEntries('pam.rule.create', byKey.id);
    expect(entry).toMatchObject({ actor_type: 'api_key' });
    expect((await call('DELETE', `/pam/rules/${byKey.id}`, { key: keyManage })).status).toBe(200);
  });

  it('no credential: 401', async () => {
    expect((await api.get('/pam/rules')).status).toBe(401);
  });
});

describe('site-restricted policy manager', () => {
  let orgWide: string;
  let ownSite: string;
  let otherSite: string;

  beforeAll(async () => {
    orgWide = (await createOk({ name: 'org-wide', matchUser: 'x' })).id;
    ownSite = (await createOk({ name: 'own site', matchUser: 'y', siteId: ids.siteA1 })).id;
    otherSite = (await createOk({ name: 'other site', matchUser: 'z', siteId: siteA1b })).id;
  });

  it('sees organization-wide rules and the rules of their sites only', async () => {
    const res = await call('GET', '/pam/rules', restricted);
    const seen = res.body.rules.map((r: { id: string }) => r.id);
    expect(seen).toContain(orgWide);
    expect(seen).toContain(ownSite);
    expect(seen).not.toContain(otherSite);
    expect(
      res.body.rules.every((r: { siteId: string | null }) => r.siteId === null || r.siteId === ids.siteA1),
    ).toBe(true);
    expect((await call('GET', `/pam/rules/${orgWide}`, restricted)).status).toBe(200);
    expectError(await call('GET', `/pam/rules/${otherSite}`, restricted), 404, 'PAM rule not found');
  });

  it('writes rules of their sites; anything reaching other sites is 403', async () => {
    const mine = await createOk({ name: 'mine', matchUser: 'm', siteId: ids.siteA1 }, restricted);
    expect(mine.siteId).toBe(ids.siteA1);
    expect(
      (await call('PATCH', `/pam/rules/${ownSite}`, restricted, { name: 'own site renamed' })).status,
    ).toBe(200);
    expectError(
      await create({ name: 'x', verdict: 'auto_approve', matchUser: 'm' }, restricted),
      403,
      'Access to this site denied',
    );
    expectError(
      await create({ name: 'x', verdict: 'auto_approve', matchUser: 'm', siteId: siteA1b }, restricted),
      403,
      'Access to this site denied',
    );
    expectError(
      await call('PATCH', `/pam/rules/${orgWide}`, restricted, { name: 'x' }),
      403,
      'Access to this site denied',
    );
    expectError(
      await call('PATCH', `/pam/rules/${otherSite}`, restricted, { name: 'x' }),
      403,
      'Access to this site denied',
    );
    expectError(
      await call('PATCH', `/pam/rules/${mine.id}`, restricted, { siteId: null }),
      403,
      'Access to this site denied',
    );
    expectError(await call('DELETE', `/pam/rules/${orgWide}`, restricted), 403, 'Access to this site denied');
    expect(storedRule(orgWide)).toMatchObject({ name: 'org-wide' });
    expect((await call('DELETE', `/pam/rules/${mine.id}`, restricted)).status).toBe(200);
  });
});
