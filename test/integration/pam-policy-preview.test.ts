import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedKeyCallers, type KeyCallerIds, type KeyCallerTokens } from '../support/key-callers';
import { insertOrgRole, insertOrgUser, insertSite, mfaToken, PASSWORD } from '../support/seed';
import type { ApiClient } from '../support/server';
import { startServer, type ApiResponse, type TestServer } from '../support/server';

// POST /pam/rules/preview (spec 2): the same matcher as ingest over elevation requests written straight into
// SQLite, counted per window, flow type, site, time window (read at each request's requested_at) and caller
// scope; the sample is newest first and the scan stops at 50,000 rows with `truncated`.

let server: TestServer;
let api: ApiClient;
let ids: KeyCallerIds;
let tok: KeyCallerTokens;
let siteA1b: string;
let restricted: string;
let noDevicesWrite: string;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

// ---- fixtures written straight into SQLite ------------------------------------------------------------------------

function insertDevice(orgId: string, siteId: string | null): string {
  const id = randomUUID();
  const at = new Date().toISOString();
  server.context.db
    .prepare(
      `INSERT INTO devices (id, org_id, site_id, agent_id, agent_token_hash, hostname, os_type, os_version,
        architecture, agent_version, enrolled_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 'windows', '11', 'x64', '1.0.0', ?, ?, ?)`,
    )
    .run(id, orgId, siteId, `agent-${id}`, `hash-${id}`, `host-${id.slice(0, 8)}`, at, at, at);
  return id;
}

interface RequestFixture {
  orgId: string;
  deviceId: string;
  siteId: string | null;
  requestedAt: string;
  status?: string;
  flowType?: 'uac_intercept' | 'tech_jit_admin' | 'ai_tool_action';
  signer?: string | null;
  path?: string | null;
  user?: string | null;
  toolName?: string | null;
  riskTier?: number | null;
}

const insertRequestStatement = () =>
  server.context.db.prepare(
    `INSERT INTO elevation_requests (id, org_id, device_id, site_id, flow_type, status, risk_level, subject_username,
      subject_ad_groups, target_executable_path, target_executable_signer, requested_at, tool_name, risk_tier,
      updated_at)
     VALUES (@id, @org_id, @device_id, @site_id, @flow_type, @status, 'medium', @user, '["Helpdesk"]', @path,
      @signer, @requested_at, @tool_name, @risk_tier, @requested_at)`,
  );

function insertRequest(r: RequestFixture, statement = insertRequestStatement()): string {
  const id = randomUUID();
  statement.run({
    id,
    org_id: r.orgId,
    device_id: r.deviceId,
    site_id: r.siteId,
    flow_type: r.flowType ?? 'uac_intercept',
    status: r.status ?? 'pending',
    user: r.user ?? 'CORP\\alice',
    path: r.path === undefined ? 'C:\\Program Files\\Acme\\setup.exe' : r.path,
    signer: r.signer === undefined ? 'Acme Corp' : r.signer,
    requested_at: r.requestedAt,
    tool_name: r.toolName ?? null,
    risk_tier: r.riskTier ?? null,
  });
  return id;
}

// ---- the data set -------------------------------------------------------------------------------------------------

const req: Record<string, string> = {};

beforeAll(async () => {
  // The fixtures are history: the pending-request expiry sweep must leave them as written.
  server = await startServer({ env: { PAM_PENDING_TTL_MINUTES: '1000000' } });
  ({ ids, tok } = await seedKeyCallers(server));
  api = server.api;
  siteA1b = insertSite(server, ids.a1, 'Alpha Branch');
  const db = server.context.db;
  const role = (name: string, grants: Array<[string, string]>) => insertOrgRole(server, ids.a1, name, grants);
  const manager = role('Site policy', [
    ['devices', 'view'],
    ['devices', 'update'],
    ['pam', 'manage_policy'],
  ]);
  const userId = await insertOrgUser(server, ids.a1, manager, 'site@a1.test');
  db.prepare('UPDATE organization_users SET site_ids = ? WHERE user_id = ?').run(
    JSON.stringify([ids.siteA1]),
    userId,
  );
  restricted = await mfaToken(server, 'site@a1.test', PASSWORD);
  const policyOnly = role('Policy only', [
    ['devices', 'view'],
    ['pam', 'manage_policy'],
  ]);
  await insertOrgUser(server, ids.a1, policyOnly, 'policy@a1.test');
  noDevicesWrite = await mfaToken(server, 'policy@a1.test', PASSWORD);

  const hq = insertDevice(ids.a1, ids.siteA1);
  const branch = insertDevice(ids.a1, siteA1b);
  const bravo = insertDevice(ids.b1, ids.siteB1);
  const a1 = { orgId: ids.a1, deviceId: hq, siteId: ids.siteA1 };
  req.r1 = insertRequest({ ...a1, requestedAt: ago(1 * DAY), status: 'auto_approved' });
  req.r2 = insertRequest({ orgId: ids.a1, deviceId: branch, siteId: siteA1b, requestedAt: ago(2 * DAY) });
  req.r3 = insertRequest({ ...a1, requestedAt: ago(10 * DAY), status: 'denied' });
  req.r4 = insertRequest({ ...a1, requestedAt: ago(40 * DAY), status: 'approved' });
  req.r5 = insertRequest({
    ...a1,
    requestedAt: ago(1 * DAY + HOUR),
    signer: null,
    path: 'C:\\Users\\bob\\Downloads\\tool.exe',
  });
  req.r6 = insertRequest({
    ...a1,
    requestedAt: ago(3 * HOUR),
    flowType: 'ai_tool_action',
    signer: null,
    path: null,
    toolName: 'run_powershell',
    riskTier: 3,
  });
  req.r7 = insertRequest({
    ...a1,
    requestedAt: ago(5 * DAY),
    status: 'auto_approved',
    flowType: 'ai_tool_action',
    signer: null,
    path: null,
    toolName: 'read_file',
    riskTier: 0,
  });
  // Same signer in another organization: never counted.
  req.b1 = insertRequest({ orgId: ids.b1, deviceId: bravo, siteId: ids.siteB1, requestedAt: ago(DAY) });
});

afterAll(async () => {
  await server.dispose();
});

const preview = (body: Record<string, unknown>, token: string = tok.orgAdmin) =>
  api.request('POST', '/pam/rules/preview', { token, body });

function expectError(res: ApiResponse, status: number, error: string | RegExp, code?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (typeof error === 'string') expect(res.body.error).toBe(error);
  else expect(res.body.error).toMatch(error);
  if (code) expect(res.body.code).toBe(code);
}

const sampleIds = (res: ApiResponse) => res.body.sample.map((s: { id: string }) => s.id);

describe('counts', () => {
  it('signer over the default 30 days: counts, breakdown, sample newest first', async () => {
    const res = await preview({ matchSigner: 'ACME CORP' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      totalMatched: 3,
      totalScanned: 6,
      windowDays: 30,
      truncated: false,
      statusBreakdown: { auto_approved: 1, pending: 1, denied: 1 },
      sample: [
        { id: req.r1, requestedAt: expect.any(String), flowType: 'uac_intercept', status: 'auto_approved' },
        { id: req.r2, requestedAt: expect.any(String), flowType: 'uac_intercept', status: 'pending' },
        { id: req.r3, requestedAt: expect.any(String), flowType: 'uac_intercept', status: 'denied' },
      ],
    });
  });

  it('windowDays narrows and widens the scan', async () => {
    const week = await preview({ matchSigner: 'Acme Corp', windowDays: 7 });
    expect(week.body).toMatchObject({ totalMatched: 2, totalScanned: 5, windowDays: 7 });
    const quarter = await preview({ matchSigner: 'Acme Corp', windowDays: 90 });
    expect(quarter.body).toMatchObject({ totalMatched: 4, totalScanned: 7 });
    expect(quarter.body.statusBreakdown).toEqual({ auto_approved: 1, pending: 1, denied: 1, approved: 1 });
  });

  it('flowType limits the scan; tool criteria match tool actions only', async () => {
    const res = await preview({ matchRiskTier: 3, flowType: 'ai_tool_action' });
    expect(res.body).toMatchObject({ totalMatched: 1, totalScanned: 2 });
    expect(sampleIds(res)).toEqual([req.r6]);
    const tool = await preview({ matchToolName: 'read_file' });
    expect(sampleIds(tool)).toEqual([req.r7]);
    expect(tool.body.totalScanned).toBe(6);
  });

  it('negation never matches a missing value, and executable rules skip tool actions', async () => {
    const res = await preview({ matchSigner: 'Acme Corp', matchNegate: ['signer'] });
    // r5 is unsigned: a negated signer does not match it either.
    expect(res.body.totalMatched).toBe(0);
    const path = await preview({ matchPathGlob: 'C:\\Program Files\\**', matchNegate: ['pathGlob'] });
    expect(sampleIds(path)).toEqual([req.r5]);
  });

  it('a site in the criteria scans that site only', async () => {
    const res = await preview({ matchSigner: 'Acme Corp', siteId: siteA1b });
    expect(res.body).toMatchObject({ totalMatched: 1, totalScanned: 1 });
    expect(sampleIds(res)).toEqual([req.r2]);
  });

  it('time windows are read at each request’s requested_at', async () => {
    const day = new Date(Date.now() - 2 * DAY);
    const at = (hour: number) => {
      const d = new Date(day);
      d.setUTCHours(hour, 0, 0, 0);
      return d.toISOString();
    };
    const device = insertDevice(ids.a1, ids.siteA1);
    const night = insertRequest({
      orgId: ids.a1,
      deviceId: device,
      siteId: ids.siteA1,
      requestedAt: at(3),
      signer: 'Night Corp',
    });
    insertRequest({
      orgId: ids.a1,
      deviceId: device,
      siteId: ids.siteA1,
      requestedAt: at(15),
      signer: 'Night Corp',
    });
    const res = await preview({ matchSigner: 'Night Corp', timeWindow: { start: '22:00', end: '06:00' } });
    expect(sampleIds(res)).toEqual([night]);
    // 03:00 UTC is 12:00 in Tokyo: the same window read there matches the other one.
    const tokyo = await preview({
      matchSigner: 'Night Corp',
      timeWindow: { start: '22:00', end: '06:00', timezone: 'Asia/Tokyo' },
    });
    expect(tokyo.body.totalMatched).toBe(1);
    expect(sampleIds(tokyo)).not.toEqual([night]);
  });

  it('signer groups are resolved in the organization', async () => {
    const group = await api.request('POST', '/pam/signer-groups', {
      token: tok.orgAdmin,
      body: { name: 'Preview vendors', signers: ['acme corp', 'Night Corp'] },
    });
    expect(group.status).toBe(201);
    const res = await preview({ matchSignerGroupId: group.body.signerGroup.id, windowDays: 7 });
    expect(res.body.totalMatched).toBe(4); // r1, r2 and the two Night Corp requests
  });
});

describe('scope', () => {
  it('another organization’s requests are never counted; partner and system name the organization', async () => {
    const b = await preview({ matchSigner: 'Acme Corp' }, tok.orgAdminB);
    expect(b.body).toMatchObject({ totalMatched: 1, totalScanned: 1 });
    expect(sampleIds(b)).toEqual([req.b1]);
    expectError(
      await preview({ matchSigner: 'Acme Corp' }, tok.system),
      400,
      'orgId is required for system scope',
    );
    expect(
      (await preview({ matchSigner: 'Acme Corp', orgId: ids.a1 }, tok.partnerAll)).body.totalMatched,
    ).toBe(3);
    expectError(
      await preview({ matchSigner: 'Acme Corp', orgId: ids.b1 }, tok.partnerAll),
      404,
      'Organization not found',
    );
  });

  it('a site-restricted manager previews over their sites only', async () => {
    const res = await preview({ matchSigner: 'Acme Corp' }, restricted);
    expect(sampleIds(res)).toEqual([req.r1, req.r3]);
    expectError(
      await preview({ matchSigner: 'Acme Corp', siteId: siteA1b }, restricted),
      403,
      'Access to this site denied',
    );
  });

  it('needs pam:manage_policy and devices:write, not MFA', async () => {
    expectError(await preview({ matchSigner: 'Acme Corp' }, tok.orgTech), 403, 'Insufficient permissions');
    expectError(await preview({ matchSigner: 'Acme Corp' }, noDevicesWrite), 403, 'Insufficient permissions');
    expect((await preview({ matchSigner: 'Acme Corp' }, tok.noMfa)).status).toBe(200);
  });
});

describe('validation', () => {
  it('the create rules minus name and verdict', async () => {
    expectError(await preview({}), 400, /^A rule needs at least one identifying criterion/);
    expectError(
      await preview({ timeWindow: { start: '09:00', end: '10:00' } }),
      400,
      /^A rule needs at least one/,
    );
    expectError(await preview({ matchSigner: 'A', matchRiskTier: 1 }), 400, /never both$/);
    const tier = await preview({ matchToolName: 'read_file', matchRiskTier: 2 });
    expect(tier.body).toMatchObject({ code: 'pam_rule_risk_tier_unreachable', validTiers: [0] });
    expectError(await preview({ matchSigner: 'A', windowDays: 0 }), 400, 'windowDays: must be 1-90');
    expectError(await preview({ matchSigner: 'A', windowDays: 91 }), 400, 'windowDays: must be 1-90');
    expectError(await preview({ matchSigner: 'A', flowType: 'other' }), 400, /^flowType: /);
    // The editor may post its whole form.
    expect(
      (await preview({ matchSigner: 'A', name: 'draft', verdict: 'auto_approve', priority: 3 })).status,
    ).toBe(200);
  });
});

describe('cap', () => {
  it('stops at 50,000 scanned rows, newest first, with truncated and a 20-row sample', async () => {
    const device = insertDevice(ids.a2, null);
    const statement = insertRequestStatement();
    const base = Date.now() - HOUR;
    const newest: string[] = [];
    server.context.db.transaction(() => {
      for (let i = 0; i < 50_001; i++) {
        const id = insertRequest(
          {
            orgId: ids.a2,
            deviceId: device,
            siteId: null,
            requestedAt: new Date(base - i * 1000).toISOString(),
            signer: 'Bulk Corp',
          },
          statement,
        );
        if (i < 20) newest.push(id);
      }
    })();
    // The insert held the event loop for seconds: let the server retire idle keep-alive sockets before reusing one.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const res = await preview({ orgId: ids.a2, matchSigner: 'Bulk Corp' }, tok.system);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      totalMatched: 50_000,
      totalScanned: 50_000,
      truncated: true,
      statusBreakdown: { pending: 50_000 },
    });
    expect(sampleIds(res)).toEqual(newest);
  });
});
