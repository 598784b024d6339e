import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sweepElevationExpiry } from '../../server/modules/pam/enforcement';
import {
  eventually,
  mintEnrollmentKey,
  startAgentServer,
  TestAgent,
  type AgentSocket,
} from '../support/agent-client';
import {
  insertApiKey,
  insertOrg,
  insertOrgUser,
  insertPamRule,
  insertPartner,
  insertSite,
  lastAudit,
  PASSWORD,
  ROLES,
  signedToken,
} from '../support/seed';
import type { ConsoleServerMessage } from '../../server/contract';
import { consoleSocketFor, type ConsoleSocket } from '../support/console-client';
import { ADMIN, auditSettled, type TestServer } from '../support/server';

// Elevation requests end to end over real HTTP, SQLite and agent sockets (spec 2 state table and errors;
// DESIGN §5 without the step-up, which has its own suite): ingest and the decision chain, respond, refused
// approves, actuation, revoke, expiry, the inbox slots, scope and the limits.

let server: TestServer;
let partnerId: string;
let orgId: string;
let siteA: string;
let siteB: string;
let otherOrg: string;
let agent: TestAgent;
let agentB: TestAgent;
let otherAgent: TestAgent;
let socket: AgentSocket;
let tech: string;
let tech2: string;
let siteTech: string;
let outsider: string;

const HASH = 'a'.repeat(64);
const db = () => server.context.db;
const row = (id: string) =>
  db().prepare('SELECT * FROM elevation_requests WHERE id = ?').get(id) as Record<string, any>;

async function report(body: Record<string, unknown> = {}, who = agent) {
  return who.api.post(
    `${who.path}/elevation-requests`,
    {
      subject_username: 'CORP\\alice',
      target_executable_path: 'C:\\Users\\alice\\Downloads\\ZoomInstaller.exe',
      target_executable_hash: HASH,
      target_executable_signer: 'Zoom Video Communications, Inc.',
      parent_image: 'C:\\Windows\\explorer.exe',
      command_line: '"ZoomInstaller.exe" /silent',
      pid: 4242,
      observed_at: new Date().toISOString(),
      ...body,
    },
    who.creds.authToken,
  );
}

/** The agent socket's command of this type for this elevation request. */
const commandFor = (type: string, requestId: string) =>
  socket.next(
    (m) =>
      m.type === 'command' && m.commandType === type && (m as any).payload.elevationRequestId === requestId,
  ) as Promise<any>;

const respond = (token: string, id: string, body: Record<string, unknown>) =>
  server.api.post(`/pam/elevation-requests/${id}/respond`, body, token);

const insertRule = (fields: Record<string, unknown>) => insertPamRule(server, orgId, fields);

beforeAll(async () => {
  server = await startAgentServer();
  partnerId = insertPartner(server).partnerId;
  orgId = insertOrg(server, partnerId, 'Contoso');
  otherOrg = insertOrg(server, insertPartner(server, { name: 'Other MSP' }).partnerId, 'Initech');
  siteA = insertSite(server, orgId, 'Head office');
  siteB = insertSite(server, orgId, 'Warehouse');
  agent = await TestAgent.enroll(server, mintEnrollmentKey(server, orgId, { siteId: siteA }).key, {
    hostname: 'WS-ALICE',
  });
  agentB = await TestAgent.enroll(server, mintEnrollmentKey(server, orgId, { siteId: siteB }).key, {
    hostname: 'WS-BOB',
  });
  otherAgent = await TestAgent.enroll(server, mintEnrollmentKey(server, otherOrg).key, {
    hostname: 'INITECH-1',
  });
  socket = await agent.connect();
  await insertOrgUser(server, orgId, ROLES.orgTechnician, 'tech@contoso.test');
  await insertOrgUser(server, orgId, ROLES.orgTechnician, 'tech2@contoso.test');
  await insertOrgUser(server, orgId, ROLES.orgTechnician, 'sitetech@contoso.test');
  db()
    .prepare(
      'UPDATE organization_users SET site_ids = ? WHERE user_id = (SELECT id FROM users WHERE email = ?)',
    )
    .run(JSON.stringify([siteB]), 'sitetech@contoso.test');
  await insertOrgUser(server, otherOrg, ROLES.orgTechnician, 'tech@initech.test');
  tech = await signedToken(server, 'tech@contoso.test');
  tech2 = await signedToken(server, 'tech2@contoso.test');
  siteTech = await signedToken(server, 'sitetech@contoso.test');
  outsider = await signedToken(server, 'tech@initech.test');
});
afterAll(async () => {
  await socket.close();
  await server.dispose();
});
beforeEach(() => {
  db().prepare('DELETE FROM rate_limits').run();
  db().prepare('DELETE FROM pam_rules').run();
  db().prepare('DELETE FROM pam_config').run();
  db().prepare("UPDATE partners SET settings = '{}'").run();
});

describe('ingest and the decision chain', () => {
  it('records a request nobody decides as pending and opens an inbox slot for each eligible technician', async () => {
    const res = await report();
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), status: 'pending', expiresAt: null });
    const stored = row(res.body.id);
    expect(stored).toMatchObject({
      status: 'pending',
      flow_type: 'uac_intercept',
      risk_level: 'medium',
      site_id: siteA,
    });
    const slots = db()
      .prepare(
        'SELECT u.email FROM elevation_approvals a JOIN users u ON u.id = a.approver_user_id WHERE elevation_request_id = ? ORDER BY u.email',
      )
      .all(res.body.id) as Array<{ email: string }>;
    // The platform admin and both unrestricted technicians; not the technician limited to the other site, not Initech's.
    expect(slots.map((s) => s.email)).toEqual([ADMIN.email, 'tech2@contoso.test', 'tech@contoso.test']);
    const events = db()
      .prepare('SELECT event_type, status FROM elevation_events WHERE elevation_request_id = ?')
      .all(res.body.id);
    expect(events).toEqual([{ event_type: 'elevation.requested', status: 'pending' }]);
  });

  it('auto-approves on a matching rule and sends the grant to the agent at once', async () => {
    const ruleId = insertRule({
      name: 'Zoom',
      verdict: 'auto_approve',
      match_signer: 'Zoom Video Communications, Inc.',
      approval_duration_minutes: 30,
    });
    const res = await report();
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('auto_approved');
    expect(Date.parse(res.body.expiresAt) - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(row(res.body.id)).toMatchObject({
      decision_source: 'pam_rule',
      pam_rule_id: ruleId,
      pam_rule_name: 'Zoom',
      enforcement_status: 'dispatched',
    });
    const command = await commandFor('actuate_elevation', res.body.id);
    expect(command.payload).toMatchObject({
      elevationRequestId: res.body.id,
      expiresAt: res.body.expiresAt,
      subjectUsername: 'CORP\\alice',
    });
    expect(JSON.stringify(command.payload)).not.toMatch(/password|credential/i);
    socket.send({
      type: 'command_result',
      commandId: command.id,
      status: 'completed',
      result: { enforcementStatus: 'active' },
    });
    await eventually(() => row(res.body.id).enforcement_status === 'active');
  });

  it('denies on an auto_deny rule and on the organization default, and ignores on an ignore rule', async () => {
    insertRule({ verdict: 'auto_deny', match_path_glob: '**\\putty*.exe' });
    const denied = await report({ target_executable_path: 'C:\\Users\\alice\\Downloads\\putty.exe' });
    expect(denied.body.status).toBe('denied');
    expect(row(denied.body.id).decision_source).toBe('pam_rule');

    db()
      .prepare(
        "INSERT INTO pam_config (org_id, default_unmatched_verdict, updated_at) VALUES (?, 'auto_deny', ?)",
      )
      .run(orgId, new Date().toISOString());
    const byDefault = await report({ target_executable_path: 'C:\\Tools\\other.exe' });
    expect(byDefault.body.status).toBe('denied');
    expect(row(byDefault.body.id)).toMatchObject({
      decision_source: null,
      decision_reason: 'Denied by the organization default',
    });

    insertRule({ verdict: 'ignore', match_hash: 'b'.repeat(64), priority: 1 });
    const before = (db().prepare('SELECT COUNT(*) AS n FROM elevation_requests').get() as { n: number }).n;
    const ignored = await report({ target_executable_hash: 'B'.repeat(64) });
    expect(ignored.status).toBe(200);
    expect(ignored.body).toEqual({ id: null, status: 'ignored' });
    expect((db().prepare('SELECT COUNT(*) AS n FROM elevation_requests').get() as { n: number }).n).toBe(
      before,
    );
  });

  it('decides with a rule created through /pam/rules, by priority', async () => {
    const admin = await signedToken(server, ADMIN.email);
    const create = (body: Record<string, unknown>) =>
      server.api.post('/pam/rules', { orgId, ...body }, admin);
    const broad = await create({
      name: 'Vendor tools need approval',
      verdict: 'require_approval',
      matchPathGlob: 'C:\\Users\\*\\Downloads\\*.exe',
      priority: 50,
    });
    expect(broad.status).toBe(201);
    const narrow = await create({
      name: 'Zoom by hash',
      verdict: 'auto_approve',
      matchHash: HASH,
      priority: 10,
      approvalDurationMinutes: 5,
    });
    expect(narrow.status).toBe(201);
    const res = await report();
    expect(res.body.status).toBe('auto_approved');
    expect(row(res.body.id)).toMatchObject({
      pam_rule_id: narrow.body.id,
      pam_rule_name: 'Zoom by hash',
      duration_minutes: 5,
    });
    const other = await report({ target_executable_hash: 'd'.repeat(64) });
    expect(other.body.status).toBe('pending');
    expect(row(other.body.id)).toMatchObject({ pam_rule_id: broad.body.id, decision_source: null });
  });

  it('records pending when a rule cannot be evaluated, whatever the default says', async () => {
    db()
      .prepare(
        "INSERT INTO pam_config (org_id, default_unmatched_verdict, updated_at) VALUES (?, 'auto_deny', ?)",
      )
      .run(orgId, new Date().toISOString());
    insertRule({
      verdict: 'auto_approve',
      match_signer: 'Zoom Video Communications, Inc.',
      time_window: JSON.stringify({ start: '00:00', end: '23:59', timezone: 'Mars/Olympus_Mons' }),
    });
    const res = await report();
    expect(res.body.status).toBe('pending');
  });

  it('refuses bodies over 32 KB with 413 and more than about 10 reports a second with 429', async () => {
    const big = await report({
      command_line: 'x'.repeat(8000),
      subject_ad_groups: Array.from({ length: 200 }, (_, i) => `CORP\\group-${i}-${'y'.repeat(150)}`),
    });
    expect(big.status).toBe(413);
    const answers = await Promise.all(Array.from({ length: 40 }, () => report()));
    // A fixed one-second window: 40 reports in flight at once span at most a few windows of 10.
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(10);
    expect(answers.find((a) => a.status === 429)!.headers.get('retry-after')).toBeTruthy();
  });

  it('validates the report: bad hash, missing tool name for AI actions, bad agent token', async () => {
    expect((await report({ target_executable_hash: 'xyz' })).status).toBe(400);
    expect((await report({ flow_type: 'ai_tool_action', tool_name: null })).status).toBe(400);
    const stolen = await agent.api.post(
      `${agent.path}/elevation-requests`,
      { target_executable_path: 'C:\\x.exe' },
      'nope',
    );
    expect(stolen.status).toBe(401);
  });

  it('raises an AI tool tier the build does not allow for the tool to its highest tier', async () => {
    const res = await report({
      flow_type: 'ai_tool_action',
      tool_name: 'manage_local_users',
      risk_tier: 0,
      target_executable_path: null,
    });
    expect(row(res.body.id)).toMatchObject({
      risk_tier: 4,
      risk_level: 'critical',
      tool_name: 'manage_local_users',
    });
  });
});

describe('decisions', () => {
  it('approves a pending request once: concurrent approvals from two technicians yield exactly one decision', async () => {
    const { body } = await report();
    const answers = await Promise.all([
      respond(tech, body.id, { decision: 'approve', durationMinutes: 60 }),
      respond(tech2, body.id, { decision: 'approve', durationMinutes: 60 }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const winner = answers.find((a) => a.status === 200)!;
    expect(winner.body).toMatchObject({
      success: true,
      id: body.id,
      status: 'approved',
      enforcementStatus: 'pending_dispatch',
      assuranceLevel: 1,
      assuranceMethod: 'session',
      assuranceFlagged: true,
    });
    expect(answers.find((a) => a.status === 409)!.body.error).toBe('Elevation request is no longer pending');
    const stored = row(body.id);
    expect(stored).toMatchObject({ status: 'approved', decision_source: 'human', duration_minutes: 60 });
    const slots = db()
      .prepare('SELECT status FROM elevation_approvals WHERE elevation_request_id = ? ORDER BY status')
      .all(body.id) as Array<{ status: string }>;
    expect(slots.map((s) => s.status)).toEqual(['approved', 'expired', 'expired']);
    await auditSettled(server);
    expect(lastAudit(server, 'pam.elevation_request.approve', body.id)).toBeTruthy();
  });

  it('denies with a reason', async () => {
    const { body } = await report();
    const res = await respond(tech, body.id, { decision: 'deny', reason: 'Not needed' });
    expect(res.body).toMatchObject({ status: 'denied', enforcementStatus: null });
    expect(row(body.id)).toMatchObject({
      denied_by_name: 'tech',
      decision_reason: 'Not needed',
      refusal_reason: null,
    });
  });

  it('refuses an approve for a specific executable without a file hash: stored denied, refused, with the reason', async () => {
    const { body } = await report({ target_executable_hash: null });
    const pushed: string[] = [];
    const off = server.context.bus.on('elevation.denied', ({ data }) => void pushed.push(data.id));
    const res = await respond(tech, body.id, { decision: 'approve' });
    off();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'denied',
      enforcementStatus: 'refused',
      reason: expect.stringContaining('no file hash'),
    });
    expect(row(body.id)).toMatchObject({
      status: 'denied',
      enforcement_status: 'refused',
      approved_by_name: 'tech',
      refusal_reason: expect.any(String),
    });
    expect(pushed).toEqual([body.id]);
    const slot = db()
      .prepare(
        "SELECT a.status, a.refusal_reason, a.decided_at FROM elevation_approvals a JOIN users u ON u.id = a.approver_user_id WHERE elevation_request_id = ? AND u.email = 'tech@contoso.test'",
      )
      .get(body.id) as Record<string, any>;
    expect(slot).toMatchObject({
      status: 'denied',
      refusal_reason: expect.any(String),
      decided_at: expect.any(String),
    });
    await auditSettled(server);
    const audit = db()
      .prepare(
        "SELECT result FROM audit_logs WHERE action = 'pam.elevation_request.approve' AND resource_id = ?",
      )
      .get(body.id) as { result: string };
    expect(audit.result).toBe('denied');
  });

  it('answers 409 for a request that is no longer pending, 404 outside the scope and 400 for a bad id or body', async () => {
    const { body } = await report();
    await respond(tech, body.id, { decision: 'deny' });
    expect((await respond(tech, body.id, { decision: 'approve' })).status).toBe(409);
    expect((await respond(outsider, body.id, { decision: 'approve' })).status).toBe(404);
    expect((await server.api.get(`/pam/elevation-requests/${body.id}`, outsider)).status).toBe(404);
    const bad = await respond(tech, 'not-a-uuid', { decision: 'approve' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('Invalid PAM id');
    expect((await respond(tech, body.id, { decision: 'maybe' })).status).toBe(400);
    expect((await respond(tech, randomUUID(), { decision: 'approve' })).status).toBe(404);
  });

  it('needs an MFA session and pam:approve to decide', async () => {
    const { body } = await report();
    const noMfa = await signedToken(server, 'tech@contoso.test', false);
    const res = await respond(noMfa, body.id, { decision: 'approve' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('MFA_REQUIRED');
    await insertOrgUser(server, orgId, ROLES.orgReadOnly, `ro-${randomUUID().slice(0, 6)}@contoso.test`).then(
      async (id) => {
        const email = (db().prepare('SELECT email FROM users WHERE id = ?').get(id) as { email: string })
          .email;
        const ro = await signedToken(server, email);
        expect((await respond(ro, body.id, { decision: 'approve' })).status).toBe(403);
      },
    );
  });

  it('lets a site-restricted technician see and decide only requests of their sites', async () => {
    const mine = await report({}, agentB);
    const theirs = await report();
    const list = await server.api.get('/pam/elevation-requests?status=pending&limit=100', siteTech);
    const ids = (list.body.requests as Array<{ id: string }>).map((r) => r.id);
    expect(ids).toContain(mine.body.id);
    expect(ids).not.toContain(theirs.body.id);
    const denied = await respond(siteTech, theirs.body.id, { decision: 'approve' });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('Access to this site denied');
    expect((await server.api.get(`/pam/elevation-requests/${theirs.body.id}`, siteTech)).status).toBe(404);
    expect((await respond(siteTech, mine.body.id, { decision: 'approve' })).status).toBe(200);
  });

  it('never lists another organization’s requests', async () => {
    const foreign = await report({}, otherAgent);
    const list = await server.api.get('/pam/elevation-requests?limit=100', tech);
    expect((list.body.requests as Array<{ orgId: string }>).every((r) => r.orgId === orgId)).toBe(true);
    expect((list.body.requests as Array<{ id: string }>).map((r) => r.id)).not.toContain(foreign.body.id);
  });

  it('refuses a decision once the linked AI tool execution stopped waiting', async () => {
    const { body } = await report({
      flow_type: 'ai_tool_action',
      tool_name: 'restart_service',
      risk_tier: 2,
      action_timeout_seconds: 1,
      target_executable_path: null,
    });
    db()
      .prepare('UPDATE elevation_requests SET action_expires_at = ? WHERE id = ?')
      .run(new Date(Date.now() - 1000).toISOString(), body.id);
    const res = await respond(tech, body.id, { decision: 'approve' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('AI_EXECUTION_TIMED_OUT');
    expect(row(body.id).status).toBe('expired');
  });

  it('approves through the mobile inbox with the decided approval in the answer', async () => {
    const { body } = await report();
    const res = await server.api.post(`/mobile/approvals/${body.id}/approve`, {}, tech);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'approved',
      approval: { status: 'approved', decidedAt: expect.any(String), refusalReason: null },
    });
    const refused = await report({ target_executable_hash: null });
    const r2 = await server.api.post(`/mobile/approvals/${refused.body.id}/approve`, {}, tech);
    expect(r2.body).toMatchObject({
      status: 'denied',
      enforcementStatus: 'refused',
      reason: expect.any(String),
      approval: { status: 'denied', refusalReason: expect.any(String) },
    });
  });

  it('lets an API key with pam:approve decide (no MFA, session assurance)', async () => {
    const key = insertApiKey(server, orgId, ['pam:approve', 'devices:read']);
    const { body } = await report();
    const res = await server.api.request('POST', `/pam/elevation-requests/${body.id}/respond`, {
      body: { decision: 'deny' },
      headers: { 'X-API-Key': key.key },
    });
    expect(res.status).toBe(200);
    expect(row(body.id).denied_by_name).toBe('integration');
  });
});

describe('actuation, revoke and expiry', () => {
  async function approved(): Promise<string> {
    const { body } = await report();
    expect((await respond(tech, body.id, { decision: 'approve', durationMinutes: 15 })).status).toBe(200);
    return body.id;
  }
  const actuate = (id: string, deviceId = agent.creds.deviceId, token = tech) =>
    server.api.post(`/devices/${deviceId}/actuate-elevation`, { elevationRequestId: id }, token);

  it('actuates an approved request once, with the command queued in the same transaction', async () => {
    const id = await approved();
    const res = await actuate(id);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true, commandId: expect.any(String), elevationRequestId: id });
    expect(row(id)).toMatchObject({
      status: 'actuating',
      enforcement_status: 'dispatched',
      actuation_command_id: res.body.commandId,
    });
    const command = await commandFor('actuate_elevation', id);
    expect(command.id).toBe(res.body.commandId);
    socket.send({
      type: 'command_result',
      commandId: command.id,
      status: 'completed',
      result: { enforcementStatus: 'active' },
    });
    await eventually(() => row(id).enforcement_status === 'active');
    const again = await actuate(id);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('wrong_status');
  });

  it('answers RACE_LOST when another actuation claimed the request first, and wrong_status for a pending one', async () => {
    const id = await approved();
    db()
      .prepare('UPDATE elevation_requests SET actuation_command_id = ? WHERE id = ?')
      .run('claimed-elsewhere', id);
    const lost = await actuate(id);
    expect(lost.status).toBe(409);
    expect(lost.body.code).toBe('RACE_LOST');
    const pending = await report();
    expect((await actuate(pending.body.id)).body.code).toBe('wrong_status');
    expect((await actuate(id, agentB.creds.deviceId)).status).toBe(404);
  });

  it('refuses actuation while the organization’s actuator is switched off', async () => {
    const id = await approved();
    db()
      .prepare('INSERT INTO pam_config (org_id, actuator_enabled, updated_at) VALUES (?, 0, ?)')
      .run(orgId, new Date().toISOString());
    const res = await actuate(id);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('PAM_ACTUATOR_DISABLED');
  });

  it('revokes an active elevation and the agent cleans up', async () => {
    const id = await approved();
    const act = await actuate(id);
    const grant = await commandFor('actuate_elevation', id);
    expect(grant.id).toBe(act.body.commandId);
    const res = await server.api.post(
      `/pam/elevation-requests/${id}/revoke`,
      { reason: 'Done with it' },
      tech,
    );
    expect(res.body).toEqual({ success: true, id, status: 'revoked', enforcementStatus: 'cleanup_pending' });
    const cleanup = await commandFor('revoke_elevation', id);
    expect((cleanup as any).payload).toEqual({ elevationRequestId: id, reason: 'revoked' });
    socket.send({
      type: 'command_result',
      commandId: (cleanup as any).id,
      status: 'completed',
      result: { enforcementStatus: 'cleaned_up' },
    });
    await eventually(() => row(id).enforcement_status === 'cleaned_up');
    // A late confirmation of the grant does not bring it back.
    socket.send({ type: 'command_result', commandId: grant.id, status: 'completed' });
    await new Promise((r) => setTimeout(r, 100));
    expect(row(id)).toMatchObject({
      status: 'revoked',
      enforcement_status: 'cleaned_up',
      revoke_reason: 'Done with it',
    });
    expect(
      (await server.api.post(`/pam/elevation-requests/${id}/revoke`, { reason: 'again' }, tech)).status,
    ).toBe(409);
    expect((await server.api.post(`/pam/elevation-requests/${id}/revoke`, {}, tech)).status).toBe(400);
  });

  it('revokes an approved request never sent and an auto-approved one, each with a cleanup to the agent', async () => {
    const id = await approved();
    const res = await server.api.post(
      `/pam/elevation-requests/${id}/revoke`,
      { reason: 'Changed my mind' },
      tech,
    );
    expect(res.body).toMatchObject({ status: 'revoked', enforcementStatus: 'cleanup_pending' });
    expect((await commandFor('revoke_elevation', id)).payload).toEqual({
      elevationRequestId: id,
      reason: 'revoked',
    });

    insertRule({ verdict: 'auto_approve', match_hash: HASH });
    const auto = await report();
    expect(auto.body.status).toBe('auto_approved');
    const revoked = await server.api.post(
      `/pam/elevation-requests/${auto.body.id}/revoke`,
      { reason: 'Not today' },
      tech,
    );
    expect(revoked.body).toMatchObject({ status: 'revoked', enforcementStatus: 'cleanup_pending' });
    expect(row(auto.body.id)).toMatchObject({
      status: 'revoked',
      revoked_by_name: 'tech',
      revoke_reason: 'Not today',
    });
    const events = db()
      .prepare('SELECT event_type FROM elevation_events WHERE elevation_request_id = ? ORDER BY seq')
      .all(auto.body.id) as Array<{ event_type: string }>;
    expect(events.map((e) => e.event_type)).toEqual([
      'elevation.requested',
      'elevation.auto_approved',
      'elevation.revoked',
    ]);
  });

  it('answers 404 for an unknown agent or device and for a request of another device', async () => {
    const unknownAgent = await agent.api.post(
      `/agents/agt_unknown/elevation-requests`,
      { target_executable_path: 'C:\\x.exe' },
      agent.creds.authToken,
    );
    expect(unknownAgent.status).toBe(404);
    const id = await approved();
    expect((await actuate(id, randomUUID())).status).toBe(404);
    const foreign = await report({}, otherAgent);
    expect((await actuate(foreign.body.id)).status).toBe(404);
  });

  it('expires ended windows (cleaning up what was sent), stale pending requests and unconfirmed actuations', async () => {
    const sent = await approved();
    await actuate(sent);
    const never = await approved();
    const pending = await report();
    const unconfirmed = await approved();
    await actuate(unconfirmed);
    const past = new Date(Date.now() - 1000).toISOString();
    db().prepare('UPDATE elevation_requests SET expires_at = ? WHERE id IN (?, ?)').run(past, sent, never);
    db()
      .prepare('UPDATE elevation_requests SET requested_at = ? WHERE id = ?')
      .run(new Date(Date.now() - 16 * 60_000).toISOString(), pending.body.id);
    db().prepare('UPDATE elevation_requests SET actuation_deadline = ? WHERE id = ?').run(past, unconfirmed);
    const expired: string[] = [];
    const off = server.context.bus.on('elevation.expired', ({ data }) => void expired.push(data.id));
    sweepElevationExpiry(server.context);
    off();
    expect(row(sent)).toMatchObject({
      status: 'expired',
      enforcement_status: 'cleanup_pending',
      cleanup_command_id: expect.any(String),
    });
    expect(row(never)).toMatchObject({
      status: 'expired',
      enforcement_status: 'pending_dispatch',
      cleanup_command_id: null,
    });
    expect(row(pending.body.id).status).toBe('expired');
    expect(row(unconfirmed)).toMatchObject({ status: 'actuating', enforcement_status: 'failed' });
    expect(expired.sort()).toEqual([sent, never, pending.body.id].sort());
    const active = await server.api.get('/pam/active', tech);
    expect((active.body.active as Array<{ id: string }>).map((a) => a.id)).not.toContain(sent);
  });

  it('lists active elevations with a future end', async () => {
    const id = await approved();
    const res = await server.api.get('/pam/active', tech);
    expect(res.body.active.find((a: { id: string }) => a.id === id)).toMatchObject({
      status: 'approved',
      deviceHostname: 'WS-ALICE',
      siteName: 'Head office',
    });
    expect((await server.api.get('/pam/active', outsider)).body.active).toEqual([]);
  });
});

describe('console pushes', () => {
  it('pushes elevation events only to consoles that could see the device', async () => {
    const consoles = {
      tech: await consoleSocketFor(server.url, tech),
      siteTech: await consoleSocketFor(server.url, siteTech),
      outsider: await consoleSocketFor(server.url, outsider),
    };
    const inA = await report();
    const inB = await report({}, agentB);
    const isRequested = (id: string) => (m: ConsoleServerMessage) =>
      m.type === 'event' && m.event === 'elevation.requested' && (m.data as { id: string }).id === id;
    const pushed = await consoles.tech.next(isRequested(inA.body.id));
    expect(pushed).toMatchObject({ orgId, data: { status: 'pending', deviceHostname: 'WS-ALICE' } });
    await consoles.tech.next(isRequested(inB.body.id));
    await consoles.siteTech.next(isRequested(inB.body.id));
    await respond(tech, inA.body.id, { decision: 'deny' });
    await consoles.tech.next((m) => m.type === 'event' && m.event === 'elevation.denied');
    const elevationEvents = (c: ConsoleSocket) =>
      c.messages
        .filter((m) => m.type === 'event' && m.event.startsWith('elevation.'))
        .map((m) => (m as { data: { id: string } }).data.id);
    expect(elevationEvents(consoles.siteTech)).not.toContain(inA.body.id);
    expect(elevationEvents(consoles.outsider)).toEqual([]);
    for (const c of Object.values(consoles)) c.socket.close();
  });
});

describe('request detail', () => {
  it('shows the timeline, the same executable’s history and what approving needs', async () => {
    const first = await report();
    await respond(tech, first.body.id, { decision: 'deny', reason: 'first time' });
    const second = await report();
    const res = await server.api.get(`/pam/elevation-requests/${second.body.id}`, tech);
    expect(res.status).toBe(200);
    expect(res.body.request).toMatchObject({
      id: second.body.id,
      deviceHostname: 'WS-ALICE',
      targetExecutableHash: HASH,
    });
    expect(res.body.history.map((h: { id: string }) => h.id)).toContain(first.body.id);
    expect(res.body.timeline.map((e: { eventType: string }) => e.eventType)).toEqual(['elevation.requested']);
    expect(res.body.approval).toMatchObject({ status: 'pending' });
    expect(res.body.stepUp).toEqual({
      riskLevel: 'medium',
      mode: 'grace',
      requiredLevel: 2,
      reauthRequired: false,
      reauthMethod: 'password',
      hasApproverDevice: false,
      selfApproval: false,
    });
    expect(PASSWORD).toBeTruthy();
  });
});
