import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mintEnrollmentKey, startAgentServer, TestAgent } from '../support/agent-client';
import { insertOrg, insertOrgUser, insertPartner, PASSWORD, ROLES, signedToken } from '../support/seed';
import { auditSettled, enrollTotp, totp, type TestServer } from '../support/server';
import { SoftAuthenticator } from '../support/webauthn';

// The approval step-up (DESIGN §5) with a software platform authenticator: approver device registration, the
// single-use assertion challenge bound to request and caller, proof verification without silent downgrade,
// re-authentication for critical requests, the partner policy, self-approval and what the decision records.

let server: TestServer;
let partnerId: string;
let orgId: string;
let agent: TestAgent;
let tech: string;
let tech2: string;
let techAuth: SoftAuthenticator;
let tech2Auth: SoftAuthenticator;

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
const critical = () =>
  report({
    flow_type: 'ai_tool_action',
    tool_name: 'manage_local_users',
    risk_tier: 4,
    target_executable_path: null,
    command_line: 'net localgroup administrators alice /add',
  });

const respond = (token: string, id: string, body: Record<string, unknown>) =>
  server.api.post(`/pam/elevation-requests/${id}/respond`, body, token);
const challenge = async (token: string, id: string) => {
  const res = await server.api.post(`/pam/elevation-requests/${id}/assertion-challenge`, {}, token);
  expect(res.status).toBe(200);
  return res.body.options as { challenge: string; allowCredentials: Array<{ id: string }>; timeout: number };
};

async function registerDevice(token: string, authenticator: SoftAuthenticator, name: string) {
  const options = await server.api.post('/pam/approver-devices/registration-options', {}, token);
  expect(options.status).toBe(200);
  return server.api.post(
    '/pam/approver-devices',
    { name, response: authenticator.register(options.body.options), reauthPassword: PASSWORD },
    token,
  );
}

function setPolicy(approvalStepUp: object | null): void {
  const settings = approvalStepUp ? { security: { approvalStepUp } } : {};
  db().prepare('UPDATE partners SET settings = ? WHERE id = ?').run(JSON.stringify(settings), partnerId);
}

beforeAll(async () => {
  server = await startAgentServer();
  partnerId = insertPartner(server).partnerId;
  orgId = insertOrg(server, partnerId, 'Contoso');
  agent = await TestAgent.enroll(server, mintEnrollmentKey(server, orgId).key, { hostname: 'WS-ALICE' });
  await insertOrgUser(server, orgId, ROLES.orgTechnician, 'tech@contoso.test');
  await insertOrgUser(server, orgId, ROLES.orgTechnician, 'tech2@contoso.test');
  tech = await signedToken(server, 'tech@contoso.test');
  tech2 = await signedToken(server, 'tech2@contoso.test');
  techAuth = new SoftAuthenticator({ origin: server.url });
  tech2Auth = new SoftAuthenticator({ origin: server.url });
  expect((await registerDevice(tech, techAuth, 'Tech laptop')).status).toBe(201);
  expect((await registerDevice(tech2, tech2Auth, 'Tech2 laptop')).status).toBe(201);
});
afterAll(async () => {
  await server.dispose();
});
beforeEach(() => {
  db().prepare('DELETE FROM rate_limits').run();
  setPolicy(null);
});

describe('approver devices', () => {
  it('registers a platform authenticator, lists it and excludes it from the next registration', async () => {
    const list = await server.api.get('/pam/approver-devices', tech);
    expect(list.body.devices).toEqual([
      {
        id: expect.any(String),
        name: 'Tech laptop',
        createdAt: expect.any(String),
        lastUsedAt: null,
        deviceType: 'singleDevice',
        backedUp: false,
      },
    ]);
    const options = await server.api.post('/pam/approver-devices/registration-options', {}, tech);
    expect(options.body.options.authenticatorSelection).toMatchObject({
      authenticatorAttachment: 'platform',
      userVerification: 'required',
    });
    expect(options.body.options.excludeCredentials).toHaveLength(1);
  });

  it('needs an MFA session to register, refuses an authenticator without user verification and a reused challenge', async () => {
    const plain = await signedToken(server, 'tech@contoso.test', false);
    expect((await server.api.post('/pam/approver-devices/registration-options', {}, plain)).status).toBe(403);
    const noUv = new SoftAuthenticator({ origin: server.url, userVerified: false });
    const refused = await registerDevice(tech, noUv, 'No UV');
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('REGISTRATION_FAILED');
    const options = await server.api.post('/pam/approver-devices/registration-options', {}, tech);
    const response = new SoftAuthenticator({ origin: server.url }).register(options.body.options);
    // The password again: without it (or with a wrong one) nothing is registered and the challenge stays.
    const bare = await server.api.post('/pam/approver-devices', { name: 'Once', response }, tech);
    expect(bare.status).toBe(401);
    expect(bare.body.code).toBe('reauth_required');
    const wrong = await server.api.post(
      '/pam/approver-devices',
      { name: 'Once', response, reauthPassword: 'nope' },
      tech,
    );
    expect(wrong.body.code).toBe('reauth_failed');
    const first = { name: 'Once', response, reauthPassword: PASSWORD };
    expect((await server.api.post('/pam/approver-devices', first, tech)).status).toBe(201);
    const again = await server.api.post('/pam/approver-devices', { ...first, name: 'Twice' }, tech);
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('CHALLENGE_EXPIRED');
    const devices = (await server.api.get('/pam/approver-devices', tech)).body.devices as Array<{
      id: string;
      name: string;
    }>;
    const once = devices.find((d) => d.name === 'Once')!;
    expect(
      (await server.api.request('DELETE', `/pam/approver-devices/${once.id}`, { token: tech2 })).status,
    ).toBe(404);
    expect(
      (await server.api.request('DELETE', `/pam/approver-devices/${once.id}`, { token: tech })).status,
    ).toBe(200);
  });

  it('offers no credentials to a technician without approver devices', async () => {
    const id = await report();
    const admin = await signedToken(server, 'admin@gatehouse.test');
    expect((await challenge(admin, id)).allowCredentials).toEqual([]);
    const options = await challenge(tech, id);
    expect(options.allowCredentials).toHaveLength(1);
    expect(options.timeout).toBe(120_000);
  });
});

describe('proof', () => {
  it('approves at level 2 with a verified assertion and records the device', async () => {
    const id = await report();
    const proof = techAuth.assert(await challenge(tech, id));
    const res = await respond(tech, id, { decision: 'approve', proof });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'approved',
      assuranceLevel: 2,
      assuranceMethod: 'platform_authenticator',
      assuranceFlagged: false,
    });
    const stored = row(id);
    expect(stored).toMatchObject({
      assurance_level: 2,
      assurance_method: 'platform_authenticator',
      assurance_device_id: expect.any(String),
    });
    await auditSettled(server);
    const audit = db()
      .prepare(
        "SELECT details FROM audit_logs WHERE action = 'pam.elevation_request.approve' AND resource_id = ?",
      )
      .get(id) as { details: string };
    expect(JSON.parse(audit.details)).toMatchObject({
      assuranceLevel: 2,
      assuranceMethod: 'platform_authenticator',
      assuranceDeviceId: stored.assurance_device_id,
    });
  });

  it('refuses with 401 a proof made for another request, and never falls back to a session approval', async () => {
    const a = await report();
    const b = await report();
    const forA = techAuth.assert(await challenge(tech, a));
    await challenge(tech, b);
    const res = await respond(tech, b, { decision: 'approve', proof: forA });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('assertion_failed');
    expect(row(b).status).toBe('pending');
  });

  it('refuses with 401 a proof signed by another user’s authenticator', async () => {
    const id = await report();
    const options = await challenge(tech, id);
    const foreign = tech2Auth.assert({ challenge: options.challenge }, { credentialIndex: 0 });
    const res = await respond(tech, id, { decision: 'approve', proof: foreign });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('assertion_failed');
  });

  it('refuses with 401 a replayed challenge', async () => {
    setPolicy({ mode: 'enforce', floors: { medium: 3 } });
    const id = await report();
    const proof = techAuth.assert(await challenge(tech, id));
    const first = await respond(tech, id, { decision: 'approve', proof });
    expect(first.status).toBe(403); // level 2 below the floor of 3: the proof was spent on this attempt
    const replay = await respond(tech, id, { decision: 'approve', proof });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('assertion_failed');
  });

  it('refuses with 401 an expired challenge and an assertion from another origin', async () => {
    const id = await report();
    const proof = techAuth.assert(await challenge(tech, id));
    db()
      .prepare("UPDATE webauthn_challenges SET expires_at = ? WHERE purpose = 'approve'")
      .run(new Date(Date.now() - 1000).toISOString());
    expect((await respond(tech, id, { decision: 'approve', proof })).status).toBe(401);
    const elsewhere = techAuth.assert(await challenge(tech, id), { origin: 'https://evil.example' });
    const res = await respond(tech, id, { decision: 'approve', proof: elsewhere });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('assertion_failed');
    expect(row(id).status).toBe('pending');
  });
});

describe('re-authentication for critical requests', () => {
  it('asks for re-authentication, refuses a wrong password and records level 3 with proof and password', async () => {
    const id = await critical();
    expect(row(id).risk_level).toBe('critical');
    const missing = await respond(tech, id, {
      decision: 'approve',
      proof: techAuth.assert(await challenge(tech, id)),
    });
    expect(missing.status).toBe(401);
    expect(missing.body.code).toBe('reauth_required');
    const wrong = await respond(tech, id, { decision: 'approve', reauthPassword: 'not-it' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('reauth_failed');
    const proof = techAuth.assert(await challenge(tech, id));
    const ok = await respond(tech, id, { decision: 'approve', proof, reauthPassword: PASSWORD });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      assuranceLevel: 3,
      assuranceMethod: 'platform_authenticator_reauth',
      assuranceFlagged: false,
    });
  });

  it('takes an MFA code from an account without a password, and never blocks a deny', async () => {
    const email = 'sso-tech@contoso.test';
    await insertOrgUser(server, orgId, ROLES.orgTechnician, email);
    const { secret } = await enrollTotp(server, email, PASSWORD);
    db().prepare('UPDATE users SET password_hash = NULL WHERE email = ?').run(email);
    const token = await signedToken(server, email);
    const id = await critical();
    const detail = await server.api.get(`/pam/elevation-requests/${id}`, token);
    expect(detail.body.stepUp).toMatchObject({
      reauthRequired: true,
      reauthMethod: 'mfa_code',
      riskLevel: 'critical',
    });
    expect((await respond(token, id, { decision: 'approve', reauthPassword: PASSWORD })).body.code).toBe(
      'reauth_required',
    );
    const code = await totp(secret, Math.floor(Date.now() / 1000) + 30);
    const ok = await respond(token, id, { decision: 'approve', reauthMfaCode: code });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      assuranceLevel: 1,
      assuranceMethod: 'session_reauth',
      assuranceFlagged: true,
    });
    const other = await critical();
    expect((await respond(tech, other, { decision: 'deny' })).status).toBe(200);
  });
});

describe('partner policy and self-approval', () => {
  it('under enforce refuses an under-assured approve with 403 and the required level, but not a deny', async () => {
    setPolicy({ mode: 'enforce' });
    const id = await report();
    const res = await respond(tech, id, { decision: 'approve' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'step_up_required', requiredLevel: 2 });
    const unsigned = await report({ target_executable_signer: null });
    expect(row(unsigned).risk_level).toBe('high');
    expect((await respond(tech, unsigned, { decision: 'deny' })).status).toBe(200);
    const proved = await respond(tech, id, {
      decision: 'approve',
      proof: techAuth.assert(await challenge(tech, id)),
    });
    expect(proved.status).toBe(200);
  });

  it('under grace lets an under-assured approve pass flagged; with the policy off nothing is flagged', async () => {
    const flagged = await report();
    expect((await respond(tech, flagged, { decision: 'approve' })).body.assuranceFlagged).toBe(true);
    setPolicy({ mode: 'off' });
    const plain = await report();
    expect((await respond(tech, plain, { decision: 'approve' })).body.assuranceFlagged).toBe(false);
    setPolicy({ mode: 'grace', floors: { low: 1, medium: 1, high: 1, critical: 3 } });
    const lowered = await report();
    expect((await respond(tech, lowered, { decision: 'approve' })).body.assuranceFlagged).toBe(false);
  });

  it('accepts the policy through the partner settings API and validates it', async () => {
    const admin = await signedToken(server, 'admin@gatehouse.test');
    const bad = await server.api.request('PATCH', `/orgs/partners/${partnerId}`, {
      token: admin,
      body: { settings: { security: { approvalStepUp: { mode: 'strict' } } } },
    });
    expect(bad.status).toBe(400);
    const ok = await server.api.request('PATCH', `/orgs/partners/${partnerId}`, {
      token: admin,
      body: { settings: { security: { approvalStepUp: { mode: 'enforce', floors: { low: 2 } } } } },
    });
    expect(ok.status).toBe(200);
    const id = await report({
      flow_type: 'ai_tool_action',
      tool_name: 'read_file',
      risk_tier: 0,
      target_executable_path: null,
    });
    const res = await respond(tech, id, { decision: 'approve' });
    expect(res.body).toMatchObject({ code: 'step_up_required', requiredLevel: 2 });
  });

  it('never lets a technician approve their own request', async () => {
    const id = await report({ subject_username: 'CORP\\tech-admin', flow_type: 'tech_jit_admin' });
    expect(row(id).risk_level).toBe('high');
    const detail = await server.api.get(`/pam/elevation-requests/${id}`, tech);
    expect(detail.body.stepUp.selfApproval).toBe(true);
    const res = await respond(tech, id, {
      decision: 'approve',
      proof: techAuth.assert(await challenge(tech, id)),
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('self_approval_forbidden');
    // The subject gets no inbox slot, and a colleague can approve.
    const slot = db()
      .prepare(
        "SELECT 1 FROM elevation_approvals a JOIN users u ON u.id = a.approver_user_id WHERE a.elevation_request_id = ? AND u.email = 'tech@contoso.test'",
      )
      .get(id);
    expect(slot).toBeUndefined();
    expect(
      (await respond(tech2, id, { decision: 'approve', proof: tech2Auth.assert(await challenge(tech2, id)) }))
        .status,
    ).toBe(200);
  });
});
