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
  insertOrg,
  insertOrgUser,
  insertPamRule,
  insertPartner,
  PASSWORD,
  ROLES,
  signedToken,
} from '../support/seed';
import type { TestServer } from '../support/server';
import { SoftAuthenticator } from '../support/webauthn';

// Security review of the elevation-request core (spec 2 Privileged access; DESIGN §5): the actuator kill switch
// on automatic approvals, step-up proofs spent by every attempt that carries them, self-approval through admin
// account prefixes, and grants that must not reach a device after a revoke or an expiry.

let server: TestServer;
let partnerId: string;
let orgId: string;
/** Holds its agent socket: commands are delivered at once. */
let agent: TestAgent;
/** Never connects: its commands wait in the queue until a heartbeat claims them. */
let offline: TestAgent;
let socket: AgentSocket;
let tech: string;
let tech2: string;
let techAuth: SoftAuthenticator;

const HASH = 'e'.repeat(64);
const db = () => server.context.db;
const row = (id: string) =>
  db().prepare('SELECT * FROM elevation_requests WHERE id = ?').get(id) as Record<string, any>;
const commandsOf = (requestId: string) =>
  db()
    .prepare(
      "SELECT type, status FROM device_commands WHERE json_extract(payload, '$.elevationRequestId') = ? ORDER BY rowid",
    )
    .all(requestId) as Array<{ type: string; status: string }>;

async function report(body: Record<string, unknown> = {}, who = agent) {
  const res = await who.api.post(
    `${who.path}/elevation-requests`,
    {
      subject_username: 'CORP\\alice',
      target_executable_path: 'C:\\Program Files\\Vendor\\setup.exe',
      target_executable_hash: HASH,
      target_executable_signer: 'Vendor Ltd',
      ...body,
    },
    who.creds.authToken,
  );
  expect(res.status).toBe(201);
  return res.body as { id: string; status: string; expiresAt: string | null };
}
const critical = async () =>
  (
    await report({
      flow_type: 'ai_tool_action',
      tool_name: 'manage_local_users',
      risk_tier: 4,
      target_executable_path: null,
      command_line: 'net localgroup administrators alice /add',
    })
  ).id;

const respond = (token: string, id: string, body: Record<string, unknown>) =>
  server.api.post(`/pam/elevation-requests/${id}/respond`, body, token);
const challenge = async (token: string, id: string) => {
  const res = await server.api.post(`/pam/elevation-requests/${id}/assertion-challenge`, {}, token);
  expect(res.status).toBe(200);
  return res.body.options as { challenge: string; allowCredentials: Array<{ id: string }> };
};
const actuate = (id: string, deviceId: string) =>
  server.api.post(`/devices/${deviceId}/actuate-elevation`, { elevationRequestId: id }, tech);

async function approved(who = agent): Promise<string> {
  const { id } = await report({}, who);
  expect((await respond(tech, id, { decision: 'approve', durationMinutes: 15 })).status).toBe(200);
  return id;
}

const insertRule = (fields: Record<string, unknown>) => insertPamRule(server, orgId, fields);

beforeAll(async () => {
  server = await startAgentServer();
  partnerId = insertPartner(server).partnerId;
  orgId = insertOrg(server, partnerId, 'Contoso');
  agent = await TestAgent.enroll(server, mintEnrollmentKey(server, orgId).key, { hostname: 'WS-ALICE' });
  offline = await TestAgent.enroll(server, mintEnrollmentKey(server, orgId).key, { hostname: 'WS-AWAY' });
  socket = await agent.connect();
  await insertOrgUser(server, orgId, ROLES.orgTechnician, 'tech@contoso.test');
  await insertOrgUser(server, orgId, ROLES.orgTechnician, 'tech2@contoso.test');
  tech = await signedToken(server, 'tech@contoso.test');
  tech2 = await signedToken(server, 'tech2@contoso.test');
  techAuth = new SoftAuthenticator({ origin: server.url });
  const options = await server.api.post('/pam/approver-devices/registration-options', {}, tech);
  const registered = await server.api.post(
    '/pam/approver-devices',
    { name: 'Tech laptop', response: techAuth.register(options.body.options), reauthPassword: PASSWORD },
    tech,
  );
  expect(registered.status).toBe(201);
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

describe('actuator kill switch', () => {
  it('refuses an automatic approval at ingest while the actuator is off: nothing is sent to the device', async () => {
    db()
      .prepare('INSERT INTO pam_config (org_id, actuator_enabled, updated_at) VALUES (?, 0, ?)')
      .run(orgId, new Date().toISOString());
    const ruleId = insertRule({ name: 'Vendor', verdict: 'auto_approve', match_hash: HASH });
    const denied: string[] = [];
    const off = server.context.bus.on('elevation.denied', ({ data }) => void denied.push(data.id));
    const res = await report();
    off();
    expect(res).toEqual({ id: expect.any(String), status: 'denied', expiresAt: null });
    expect(row(res.id)).toMatchObject({
      status: 'denied',
      enforcement_status: 'refused',
      refusal_reason: 'PAM actuator disabled for this organization',
      decision_source: 'pam_rule',
      pam_rule_id: ruleId,
      actuation_command_id: null,
      expires_at: null,
    });
    expect(commandsOf(res.id)).toEqual([]);
    expect(denied).toEqual([res.id]);
    const events = db()
      .prepare('SELECT event_type, details FROM elevation_events WHERE elevation_request_id = ? ORDER BY seq')
      .all(res.id) as Array<{ event_type: string; details: string }>;
    expect(events.map((e) => e.event_type)).toEqual(['elevation.requested', 'elevation.denied']);
    expect(JSON.parse(events[1]!.details)).toMatchObject({
      enforcementStatus: 'refused',
      refusalReason: 'PAM actuator disabled for this organization',
    });
    const active = await server.api.get('/pam/active', tech);
    expect((active.body.active as Array<{ id: string }>).map((a) => a.id)).not.toContain(res.id);
  });

  it('still auto-approves and dispatches once the actuator is back on', async () => {
    db()
      .prepare('INSERT INTO pam_config (org_id, actuator_enabled, updated_at) VALUES (?, 1, ?)')
      .run(orgId, new Date().toISOString());
    insertRule({ verdict: 'auto_approve', match_hash: HASH });
    const res = await report();
    expect(res.status).toBe('auto_approved');
    expect(row(res.id).enforcement_status).toBe('dispatched');
    expect(commandsOf(res.id).map((c) => c.type)).toEqual(['actuate_elevation']);
  });
});

describe('a step-up proof is spent by every attempt that carries it', () => {
  it('refuses a proof replayed after a failed re-authentication', async () => {
    const id = await critical();
    const proof = techAuth.assert(await challenge(tech, id));
    const wrong = await respond(tech, id, { decision: 'approve', proof, reauthPassword: 'not-it' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('reauth_failed');
    const replay = await respond(tech, id, { decision: 'approve', proof, reauthPassword: PASSWORD });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('assertion_failed');
    expect(row(id).status).toBe('pending');
    // A fresh challenge and proof with the password succeed.
    const fresh = techAuth.assert(await challenge(tech, id));
    const ok = await respond(tech, id, { decision: 'approve', proof: fresh, reauthPassword: PASSWORD });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ assuranceLevel: 3, assuranceMethod: 'platform_authenticator_reauth' });
  });

  it('refuses a proof replayed after a reauth_required answer', async () => {
    const id = await critical();
    const proof = techAuth.assert(await challenge(tech, id));
    const missing = await respond(tech, id, { decision: 'approve', proof });
    expect(missing.status).toBe(401);
    expect(missing.body.code).toBe('reauth_required');
    const replay = await respond(tech, id, { decision: 'approve', proof, reauthPassword: PASSWORD });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('assertion_failed');
    expect(row(id).status).toBe('pending');
  });
});

describe('self-approval', () => {
  it.each(['CORP\\adm-tech', 'CORP\\admin_tech', 'adm.tech@corp.example'])(
    'treats the admin account %s as the technician’s own',
    async (subject) => {
      const { id } = await report({ subject_username: subject, flow_type: 'tech_jit_admin' });
      const detail = await server.api.get(`/pam/elevation-requests/${id}`, tech);
      expect(detail.body.stepUp.selfApproval).toBe(true);
      const res = await respond(tech, id, {
        decision: 'approve',
        proof: techAuth.assert(await challenge(tech, id)),
      });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('self_approval_forbidden');
      const slot = db()
        .prepare(
          "SELECT 1 FROM elevation_approvals a JOIN users u ON u.id = a.approver_user_id WHERE a.elevation_request_id = ? AND u.email = 'tech@contoso.test'",
        )
        .get(id);
      expect(slot).toBeUndefined();
      expect(row(id).status).toBe('pending');
      expect((await respond(tech2, id, { decision: 'deny', reason: 'colleague' })).status).toBe(200);
    },
  );
});

describe('no grant reaches a device after a revoke or an expiry', () => {
  it('cancels an actuation the offline device has not received when the elevation is revoked', async () => {
    const id = await approved(offline);
    expect((await actuate(id, offline.creds.deviceId)).status).toBe(201);
    expect(commandsOf(id)).toEqual([{ type: 'actuate_elevation', status: 'pending' }]);
    const revoked = await server.api.post(
      `/pam/elevation-requests/${id}/revoke`,
      { reason: 'Not now' },
      tech,
    );
    expect(revoked.body).toMatchObject({ status: 'revoked', enforcementStatus: 'cleanup_pending' });
    const beat = await offline.heartbeat();
    expect(beat.status).toBe(200);
    const delivered = (beat.body.commands as Array<{ type: string; payload: { elevationRequestId: string } }>)
      .filter((c) => c.payload.elevationRequestId === id)
      .map((c) => c.type);
    expect(delivered).toEqual(['revoke_elevation']);
    expect(commandsOf(id)).toEqual([
      { type: 'actuate_elevation', status: 'cancelled' },
      { type: 'revoke_elevation', status: 'sent' },
    ]);
  });

  it('cancels an undelivered actuation when the window ends, and still sends the cleanup', async () => {
    const id = await approved(offline);
    await actuate(id, offline.creds.deviceId);
    db()
      .prepare('UPDATE elevation_requests SET expires_at = ? WHERE id = ?')
      .run(new Date(Date.now() - 1000).toISOString(), id);
    sweepElevationExpiry(server.context);
    expect(row(id)).toMatchObject({ status: 'expired', enforcement_status: 'cleanup_pending' });
    const beat = await offline.heartbeat();
    const delivered = (beat.body.commands as Array<{ type: string; payload: { elevationRequestId: string } }>)
      .filter((c) => c.payload.elevationRequestId === id)
      .map((c) => c.type);
    expect(delivered).toEqual(['revoke_elevation']);
  });

  it('cleans up at expiry an actuation the agent received but never confirmed in time', async () => {
    const id = await approved();
    const act = await actuate(id, agent.creds.deviceId);
    expect(act.status).toBe(201);
    // Delivered over the socket; the agent stays silent past the actuation deadline.
    await socket.next((m) => m.type === 'command' && m.id === act.body.commandId);
    const past = new Date(Date.now() - 1000).toISOString();
    db().prepare('UPDATE elevation_requests SET actuation_deadline = ? WHERE id = ?').run(past, id);
    sweepElevationExpiry(server.context);
    expect(row(id)).toMatchObject({ status: 'actuating', enforcement_status: 'failed' });
    db().prepare('UPDATE elevation_requests SET expires_at = ? WHERE id = ?').run(past, id);
    sweepElevationExpiry(server.context);
    // The grant may exist on the device (the command was delivered, the agent never said it failed).
    expect(row(id)).toMatchObject({
      status: 'expired',
      enforcement_status: 'cleanup_pending',
      cleanup_command_id: expect.any(String),
    });
    const cleanup = (await socket.next(
      (m) =>
        m.type === 'command' &&
        m.commandType === 'revoke_elevation' &&
        (m as any).payload.elevationRequestId === id,
    )) as any;
    expect(cleanup.payload).toEqual({ elevationRequestId: id, reason: 'expired' });
    // The late confirmation of the grant changes nothing; the cleanup's result closes it.
    socket.send({ type: 'command_result', commandId: act.body.commandId, status: 'completed' });
    socket.send({
      type: 'command_result',
      commandId: cleanup.id,
      status: 'completed',
      result: { enforcementStatus: 'cleaned_up' },
    });
    await eventually(() => row(id).enforcement_status === 'cleaned_up');
    expect(row(id).status).toBe('expired');
  });

  it('sends no cleanup at expiry when the agent itself reported the actuation failed', async () => {
    const id = await approved();
    const act = await actuate(id, agent.creds.deviceId);
    await socket.next((m) => m.type === 'command' && m.id === act.body.commandId);
    socket.send({
      type: 'command_result',
      commandId: act.body.commandId,
      status: 'failed',
      error: 'no such user',
    });
    await eventually(() => row(id).enforcement_status === 'failed');
    db()
      .prepare('UPDATE elevation_requests SET expires_at = ? WHERE id = ?')
      .run(new Date(Date.now() - 1000).toISOString(), id);
    sweepElevationExpiry(server.context);
    expect(row(id)).toMatchObject({
      status: 'expired',
      enforcement_status: 'failed',
      cleanup_command_id: null,
    });
  });
});

describe('what the review left for later, now closed', () => {
  it('refuses a rule’s auto-approve of a specific executable reported without its hash', async () => {
    insertRule({ name: 'Vendor signer', verdict: 'auto_approve', match_signer: 'Vendor Ltd' });
    const res = await report({ target_executable_hash: null });
    expect(res.status).toBe('denied');
    expect(row(res.id)).toMatchObject({
      enforcement_status: 'refused',
      refusal_reason: expect.stringContaining('no file hash'),
    });
    expect(commandsOf(res.id)).toEqual([]);
  });

  it('never blocks a deny, even with a wrong password attached', async () => {
    const id = await critical();
    const res = await respond(tech, id, { decision: 'deny', reauthPassword: 'not-it', reason: 'No' });
    expect(res.status).toBe(200);
    expect(row(id).status).toBe('denied');
  });

  it('treats a request past the pending window as expired before the sweep runs', async () => {
    const { id } = await report();
    db()
      .prepare('UPDATE elevation_requests SET requested_at = ? WHERE id = ?')
      .run(new Date(Date.now() - 16 * 60_000).toISOString(), id);
    const res = await respond(tech, id, { decision: 'approve' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('NOT_PENDING');
    expect(row(id).status).toBe('expired');
  });

  it('refuses to actuate an approval whose window ended before the sweep runs', async () => {
    const id = await approved();
    db()
      .prepare('UPDATE elevation_requests SET expires_at = ? WHERE id = ?')
      .run(new Date(Date.now() - 1000).toISOString(), id);
    const res = await actuate(id, agent.creds.deviceId);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'wrong_status', status: 'expired' });
    expect(commandsOf(id)).toEqual([]);
  });

  it('records an AI tool this build does not know as critical, whatever tier the agent reports', async () => {
    const { id } = await report({
      flow_type: 'ai_tool_action',
      tool_name: 'format_disk',
      risk_tier: 0,
      target_executable_path: null,
      command_line: 'format c:',
    });
    expect(row(id)).toMatchObject({ risk_tier: 4, risk_level: 'critical' });
  });

  it('cancels grants still queued for offline devices when the kill switch is turned off', async () => {
    const id = await approved(offline);
    expect((await actuate(id, offline.creds.deviceId)).status).toBe(201);
    expect(commandsOf(id)).toEqual([{ type: 'actuate_elevation', status: 'pending' }]);
    const admin = await signedToken(server, 'admin@gatehouse.test');
    const put = await server.api.request('PUT', '/pam/config', {
      token: admin,
      body: { orgId, defaultUnmatchedVerdict: 'require_approval', actuatorEnabled: false },
    });
    expect(put.status).toBe(200);
    expect(commandsOf(id)).toEqual([{ type: 'actuate_elevation', status: 'cancelled' }]);
    const heartbeat = await offline.heartbeat();
    expect(heartbeat.body.commands).toEqual([]);
  });
});
