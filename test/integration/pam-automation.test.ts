import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mintEnrollmentKey, startAgentServer, TestAgent } from '../support/agent-client';
import { insertApiKey, insertOrg, insertPartner } from '../support/seed';
import { auditSettled, type TestServer } from '../support/server';

// Automation decisions (DESIGN §5): an API key decides elevation requests (respond, revoke, actuate) only with
// the explicit `pam:approve` scope, which `*` does not include. Its decision is recorded as automated (level 0,
// method `automation`, the key as audit actor) and sits below every step-up floor: refused under `enforce`,
// flagged under `grace`, plain under `off`. A deny is never blocked; a critical request is never approved by a key.

let server: TestServer;
let partnerId: string;
let orgId: string;
let agent: TestAgent;
/** `*` only: read and provisioning automation. */
let wildcard: string;
/** Everything a decision route asks of a person, but no pam:approve. */
let executor: string;
/** The approver key. */
let approver: { id: string; key: string };

const db = () => server.context.db;
const row = (id: string) =>
  db().prepare('SELECT * FROM elevation_requests WHERE id = ?').get(id) as Record<string, any>;

async function report(body: Record<string, unknown> = {}): Promise<string> {
  const res = await agent.api.post(
    `${agent.path}/elevation-requests`,
    {
      subject_username: 'CORP\\alice',
      target_executable_path: 'C:\\Program Files\\Vendor\\setup.exe',
      target_executable_hash: 'c'.repeat(64),
      target_executable_signer: 'Vendor Ltd',
      ...body,
    },
    agent.creds.authToken,
  );
  expect(res.status).toBe(201);
  return res.body.id as string;
}
/** An AI tool action at tier 0: low risk, floor 1 by default. */
const lowRisk = () =>
  report({ flow_type: 'ai_tool_action', tool_name: 'read_file', risk_tier: 0, target_executable_path: null });
const critical = () =>
  report({
    flow_type: 'ai_tool_action',
    tool_name: 'manage_local_users',
    risk_tier: 4,
    target_executable_path: null,
    command_line: 'net localgroup administrators alice /add',
  });

const withKey = (key: string, path: string, body: Record<string, unknown>) =>
  server.api.request('POST', path, { body, headers: { 'X-API-Key': key } });
const respond = (key: string, id: string, body: Record<string, unknown>) =>
  withKey(key, `/pam/elevation-requests/${id}/respond`, body);

function setPolicy(approvalStepUp: object | null): void {
  const settings = approvalStepUp ? { security: { approvalStepUp } } : {};
  db().prepare('UPDATE partners SET settings = ? WHERE id = ?').run(JSON.stringify(settings), partnerId);
}

function expectScopeRefusal(res: { status: number; body: any }): void {
  expect(res.status).toBe(403);
  expect(res.body).toMatchObject({
    error: 'API key does not have required permissions',
    code: 'API_KEY_SCOPE_REQUIRED',
    required: 'pam:approve',
  });
  expect(res.body.detail).toContain('* does not include it');
}

beforeAll(async () => {
  server = await startAgentServer();
  partnerId = insertPartner(server).partnerId;
  orgId = insertOrg(server, partnerId, 'Contoso');
  agent = await TestAgent.enroll(server, mintEnrollmentKey(server, orgId).key, { hostname: 'WS-ALICE' });
  wildcard = insertApiKey(server, orgId, ['*']).key;
  executor = insertApiKey(server, orgId, ['devices:read', 'devices:execute']).key;
  approver = insertApiKey(server, orgId, ['pam:approve', 'devices:read', 'devices:execute']);
});
afterAll(async () => {
  await server.dispose();
});
beforeEach(() => {
  db().prepare('DELETE FROM rate_limits').run();
  setPolicy(null);
});

describe('the pam:approve scope', () => {
  it('is not implied by *: a wildcard key can read requests but not decide them', async () => {
    const id = await report();
    const read = await server.api.request('GET', `/pam/elevation-requests/${id}`, {
      headers: { 'X-API-Key': wildcard },
    });
    expect(read.status).toBe(200);
    for (const decision of ['approve', 'deny']) expectScopeRefusal(await respond(wildcard, id, { decision }));
    expect(row(id).status).toBe('pending');
  });

  it('is needed to respond, revoke and actuate, whatever else the key holds', async () => {
    const id = await report();
    expectScopeRefusal(await respond(executor, id, { decision: 'approve' }));
    setPolicy({ mode: 'off' });
    expect((await respond(approver.key, id, { decision: 'approve' })).status).toBe(200);
    const actuatePath = `/devices/${agent.creds.deviceId}/actuate-elevation`;
    for (const key of [wildcard, executor]) {
      expectScopeRefusal(await withKey(key, actuatePath, { elevationRequestId: id }));
      expectScopeRefusal(
        await withKey(key, `/pam/elevation-requests/${id}/revoke`, { reason: 'no longer needed' }),
      );
    }
    expect(row(id).status).toBe('approved');
  });

  it('lets an approver key actuate and revoke, named in the audit log', async () => {
    setPolicy({ mode: 'off' });
    const id = await report();
    expect((await respond(approver.key, id, { decision: 'approve' })).status).toBe(200);
    const actuated = await withKey(approver.key, `/devices/${agent.creds.deviceId}/actuate-elevation`, {
      elevationRequestId: id,
    });
    expect(actuated.status).toBe(201);
    const revoked = await withKey(approver.key, `/pam/elevation-requests/${id}/revoke`, { reason: 'done' });
    expect(revoked.status).toBe(200);
    expect(row(id)).toMatchObject({ status: 'revoked', revoked_by_user_id: approver.id });
    await auditSettled(server);
    for (const action of ['pam.elevation_request.actuate', 'pam.elevation_request.revoke']) {
      expect(auditOf(action, id)).toMatchObject({ actor_type: 'api_key', actor_id: approver.id });
      expect(JSON.parse(auditOf(action, id).details)).toMatchObject({
        automated: true,
        apiKeyName: 'integration',
      });
    }
  });
});

function auditOf(action: string, resourceId: string) {
  return db()
    .prepare(
      'SELECT actor_type, actor_id, actor_email, details FROM audit_logs WHERE action = ? AND resource_id = ? ORDER BY seq DESC',
    )
    .get(action, resourceId) as {
    actor_type: string;
    actor_id: string;
    actor_email: string | null;
    details: string;
  };
}

describe('an automated approve under the partner step-up policy', () => {
  it('passes flagged under grace (the default) and is recorded as automated', async () => {
    const id = await report();
    const res = await respond(approver.key, id, { decision: 'approve', reason: 'ticket #4711' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'approved',
      assuranceLevel: 0,
      assuranceMethod: 'automation',
      assuranceFlagged: true,
    });
    expect(row(id)).toMatchObject({
      assurance_level: 0,
      assurance_method: 'automation',
      assurance_device_id: null,
      assurance_flagged: 1,
      decided_by_user_id: approver.id,
      approved_by_name: 'integration',
    });
    const event = db()
      .prepare(
        "SELECT * FROM elevation_events WHERE elevation_request_id = ? AND event_type = 'elevation.approved'",
      )
      .get(id) as Record<string, any>;
    expect(event).toMatchObject({ actor_type: 'api_key', actor_id: approver.id, actor_name: 'integration' });
    expect(JSON.parse(event.details)).toMatchObject({ assuranceLevel: 0, assuranceMethod: 'automation' });
    await auditSettled(server);
    const audit = auditOf('pam.elevation_request.approve', id);
    expect(audit).toMatchObject({ actor_type: 'api_key', actor_id: approver.id, actor_email: null });
    expect(JSON.parse(audit.details)).toMatchObject({
      assuranceLevel: 0,
      assuranceMethod: 'automation',
      assuranceFlagged: true,
      automated: true,
      apiKeyName: 'integration',
    });
    const listed = await server.api.request('GET', `/pam/elevation-requests/${id}`, {
      headers: { 'X-API-Key': approver.key },
    });
    expect(listed.body.request).toMatchObject({ assuranceLevel: 0, assuranceMethod: 'automation' });
  });

  it('passes unflagged when step-up is off', async () => {
    setPolicy({ mode: 'off' });
    const res = await respond(approver.key, await report(), { decision: 'approve' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      assuranceLevel: 0,
      assuranceMethod: 'automation',
      assuranceFlagged: false,
    });
  });

  it('is refused under enforce at every tier, even with the lowest floor', async () => {
    setPolicy({ mode: 'enforce', floors: { low: 1, medium: 1, high: 1, critical: 3 } });
    for (const id of [await lowRisk(), await report()]) {
      const res = await respond(approver.key, id, { decision: 'approve' });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'step_up_required', requiredLevel: 1, level: 0 });
      expect(row(id).status).toBe('pending');
    }
    setPolicy({ mode: 'enforce' });
    const medium = await respond(approver.key, await report(), { decision: 'approve' });
    expect(medium.body).toMatchObject({ code: 'step_up_required', requiredLevel: 2, level: 0 });
  });

  it('never blocks a deny, under enforce too', async () => {
    setPolicy({ mode: 'enforce' });
    const id = await report();
    const res = await respond(approver.key, id, { decision: 'deny', reason: 'outside the change window' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'denied', assuranceLevel: 0, assuranceMethod: 'automation' });
    expect(row(id)).toMatchObject({ status: 'denied', denied_by_name: 'integration', assurance_level: 0 });
  });

  it('never approves a critical request, whatever the mode; denying one works', async () => {
    for (const mode of ['off', 'grace', 'enforce']) {
      setPolicy({ mode });
      const id = await critical();
      const res = await respond(approver.key, id, { decision: 'approve', reauthPassword: 'anything' });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'step_up_required', requiredLevel: 3, level: 0 });
      expect(row(id).status).toBe('pending');
    }
    const id = await critical();
    expect((await respond(approver.key, id, { decision: 'deny' })).status).toBe(200);
    expect(row(id).status).toBe('denied');
  });
});
