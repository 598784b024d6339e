import { describe, expect, it } from 'vitest';
import { eventually } from '../support/agent-client';
import { signedToken } from '../support/seed';
import { ADMIN } from '../support/server';
import {
  server,
  orgId,
  siteA,
  agent,
  socket,
  HASH,
  db,
  row,
  report,
  commandFor,
  insertRule,
  usePamRequestsWorld,
} from '../support/pam-requests-world';

// PAM requests from the agent: ingest and the decision chain that settles them.

usePamRequestsWorld();

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
