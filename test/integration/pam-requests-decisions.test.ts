import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { insertApiKey, insertOrgUser, lastAudit, PASSWORD, ROLES, signedToken } from '../support/seed';
import { auditSettled } from '../support/server';
import {
  server,
  orgId,
  agentB,
  otherAgent,
  tech,
  tech2,
  siteTech,
  outsider,
  HASH,
  db,
  row,
  report,
  respond,
  usePamRequestsWorld,
} from '../support/pam-requests-world';

// PAM requests decided in the console, and the request detail.

usePamRequestsWorld();

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
