import { randomUUID } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BulkRespondResponse, SimilarRequests } from '../../server/contract';
import { PASSWORD, signedToken } from '../support/seed';
import { auditSettled } from '../support/server';
import { SoftAuthenticator } from '../support/webauthn';
import {
  server,
  partnerId,
  agent,
  agentB,
  otherAgent,
  tech,
  tech2,
  siteTech,
  outsider,
  db,
  row,
  report,
  respond,
  usePamRequestsWorld,
} from '../support/pam-requests-world';

// Deciding several requests at once (issue 16 item 2): bulk deny with one reason and "decide similar" (the other
// pending requests for the same executable hash and signer). Each request is still its own decision: its own
// compare-and-swap, step-up (re-authentication, assertion, partner floor), audit entry and push after commit; a
// request decided meanwhile is skipped and reported, never a 5xx.

usePamRequestsWorld();

let tech2Auth: SoftAuthenticator;

beforeAll(async () => {
  // tech2 has an approver device (a software platform authenticator); tech has none.
  tech2Auth = new SoftAuthenticator({ origin: server.url });
  const options = await server.api.post('/pam/approver-devices/registration-options', {}, tech2);
  const registered = await server.api.post(
    '/pam/approver-devices',
    { name: 'Tech2 laptop', response: tech2Auth.register(options.body.options), reauthPassword: PASSWORD },
    tech2,
  );
  expect(registered.status).toBe(201);
});

beforeEach(() => {
  // Each test reports several requests from one agent: its per-device report budget must not refuse them.
  db().prepare('DELETE FROM rate_limits').run();
});

/** A pending request for the file `hash` signed by `signer`. */
async function pending(
  hash: string,
  opts: { signer?: string | null; risk?: string; minutesAgo?: number; who?: typeof agent } = {},
): Promise<string> {
  const res = await report(
    {
      target_executable_path: 'C:\\Tools\\setup.exe',
      target_executable_hash: hash,
      target_executable_signer: opts.signer === undefined ? 'Vendor Ltd' : opts.signer,
    },
    opts.who ?? agent,
  );
  expect(res.status).toBe(201);
  const id = res.body.id as string;
  db()
    .prepare(
      'UPDATE elevation_requests SET requested_at = ?, risk_level = COALESCE(?, risk_level) WHERE id = ?',
    )
    .run(new Date(Date.now() - (opts.minutesAgo ?? 0) * 60_000).toISOString(), opts.risk ?? null, id);
  return id;
}

const newHash = () => randomUUID().replace(/-/g, '').repeat(2);

const similar = async (token: string, id: string) => {
  const res = await server.api.get(`/pam/elevation-requests/${id}/similar`, token);
  return res as { status: number; body: SimilarRequests };
};

const bulk = async (token: string, body: Record<string, unknown>) =>
  (await server.api.post('/pam/elevation-requests/bulk-respond', body, token)) as {
    status: number;
    body: BulkRespondResponse & { error?: string };
  };

const audits = (action: string, ids: string[]) =>
  db()
    .prepare(
      `SELECT resource_id, result, details FROM audit_logs WHERE action = ? AND resource_id IN (SELECT value FROM json_each(?))`,
    )
    .all(action, JSON.stringify(ids)) as Array<{ resource_id: string; result: string; details: string }>;

function setPolicy(approvalStepUp: object | null): void {
  const settings = approvalStepUp ? { security: { approvalStepUp } } : {};
  db().prepare('UPDATE partners SET settings = ? WHERE id = ?').run(JSON.stringify(settings), partnerId);
}

describe('similar requests', () => {
  it('lists the other pending requests with the same hash and signer in scope, critical first, each with its step-up', async () => {
    const hash = newHash();
    const source = await pending(hash);
    const older = await pending(hash, { minutesAgo: 8 });
    const critical = await pending(hash, { risk: 'critical', minutesAgo: 1 });
    const onBob = await pending(hash, { who: agentB, minutesAgo: 4 });
    await pending(hash, { signer: 'Someone Else' });
    await pending(hash, { signer: null });
    await pending(newHash());
    const foreign = await pending(hash, { who: otherAgent });
    const decided = await pending(hash);
    expect((await respond(tech2, decided, { decision: 'deny', reason: 'no' })).status).toBe(200);

    const res = await similar(tech, source);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(3);
    expect(res.body.items.map((i) => i.request.id)).toEqual([critical, older, onBob]);
    expect(res.body.items[0]!.stepUp).toMatchObject({ riskLevel: 'critical', reauthRequired: true });
    expect(res.body.items[1]!.stepUp).toMatchObject({ riskLevel: 'medium', reauthRequired: false });
    expect(res.body.items[0]!.request).toMatchObject({ orgName: 'Contoso', siteName: 'Head office' });

    // A site-restricted technician sees only its site's look-alikes, and not the source outside its site.
    expect((await similar(siteTech, onBob)).body.items.map((i) => i.request.id)).toEqual([]);
    expect((await similar(siteTech, source)).status).toBe(404);
    // Another tenant's identical file is never similar across tenants, and its caller cannot read ours.
    expect((await similar(outsider, foreign)).body.items).toEqual([]);
    expect((await similar(outsider, source)).status).toBe(404);
  });

  it('has none for a request without a hash (a path says nothing about the file)', async () => {
    const res = await report({ target_executable_hash: null });
    expect((await similar(tech, res.body.id)).body).toEqual({ success: true, items: [], total: 0 });
  });
});

describe('bulk deny', () => {
  it('denies each with the one reason, audits and pushes each, and skips one decided meanwhile', async () => {
    const hash = newHash();
    const a = await pending(hash);
    const b = await pending(hash, { risk: 'critical' });
    const c = await pending(hash, { who: agentB });
    const meanwhile = await pending(hash);
    expect((await respond(tech2, meanwhile, { decision: 'approve' })).status).toBe(200);
    const pushed: string[] = [];
    const off = server.context.bus.on('elevation.denied', ({ data }) => void pushed.push(data.id));
    const res = await bulk(tech, {
      decision: 'deny',
      reason: 'Not approved software',
      items: [{ id: a }, { id: b }, { id: meanwhile }, { id: c }],
    });
    off();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, decided: 3, skipped: 1, failed: 0 });
    expect(res.body.results).toEqual([
      expect.objectContaining({ id: a, outcome: 'decided', status: 'denied' }),
      expect.objectContaining({ id: b, outcome: 'decided', status: 'denied' }),
      {
        id: meanwhile,
        outcome: 'skipped',
        error: 'Elevation request is no longer pending',
        code: 'NOT_PENDING',
      },
      expect.objectContaining({ id: c, outcome: 'decided', status: 'denied' }),
    ]);
    for (const id of [a, b, c])
      expect(row(id)).toMatchObject({
        status: 'denied',
        denied_by_name: 'tech',
        decision_reason: 'Not approved software',
      });
    expect(row(meanwhile).status).toBe('approved');
    expect(pushed.sort()).toEqual([a, b, c].sort());
    await auditSettled(server);
    expect(
      audits('pam.elevation_request.deny', [a, b, c, meanwhile])
        .map((x) => x.resource_id)
        .sort(),
    ).toEqual([a, b, c].sort());
  });

  it('refuses a deny without a reason, an empty, repeated or oversized list, and a session without MFA', async () => {
    const id = await pending(newHash());
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ decision: 'deny', items: [{ id }] }, 'reason is required to deny'],
      [{ decision: 'deny', reason: 'x', items: [] }, 'items must list at least one request'],
      [{ decision: 'deny', reason: 'x', items: [{ id }, { id }] }, 'items must not repeat an id'],
      [
        { decision: 'deny', reason: 'x', items: Array.from({ length: 101 }, () => ({ id: randomUUID() })) },
        'items must list at most 100 requests',
      ],
      [{ decision: 'deny', reason: 'x', items: [{ id: 'nope' }] }, 'Invalid PAM id'],
      [{ decision: 'maybe', reason: 'x', items: [{ id }] }, "decision must be 'approve' or 'deny'"],
    ];
    for (const [body, message] of cases) {
      const res = await bulk(tech, body);
      expect(res.status, message).toBe(400);
      expect(res.body.error, message).toContain(message);
    }
    const noMfa = await signedToken(server, 'tech@contoso.test', false);
    expect((await bulk(noMfa, { decision: 'deny', reason: 'x', items: [{ id }] })).status).toBe(403);
    expect(row(id).status).toBe('pending');
  });

  it('decides only what the caller may: out of scope is skipped as not found, outside its site is refused', async () => {
    const hash = newHash();
    const inA = await pending(hash);
    const inB = await pending(hash, { who: agentB });
    const foreign = await pending(hash, { who: otherAgent });
    const res = await bulk(siteTech, {
      decision: 'deny',
      reason: 'cleanup',
      items: [{ id: inA }, { id: inB }, { id: foreign }, { id: randomUUID() }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ decided: 1, skipped: 2, failed: 1 });
    expect(res.body.results[0]).toMatchObject({ id: inA, outcome: 'failed', status: 403 });
    expect(res.body.results[2]).toMatchObject({
      id: foreign,
      outcome: 'skipped',
      error: 'Elevation request not found',
    });
    expect(row(inA).status).toBe('pending');
    expect(row(foreign).status).toBe('pending');
    expect(row(inB).status).toBe('denied');
  });
});

describe('decide similar: approve', () => {
  it('checks each request’s own step-up: a critical one needs the password again, the others pass without it', async () => {
    const hash = newHash();
    const source = await pending(hash);
    const critical = await pending(hash, { risk: 'critical' });
    const other = await pending(hash, { who: agentB });
    const look = (await similar(tech, source)).body.items.map((i) => i.request.id);
    expect(look).toEqual([critical, other]);

    const first = await bulk(tech, {
      decision: 'approve',
      durationMinutes: 30,
      items: [source, ...look].map((id) => ({ id })),
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ decided: 2, skipped: 0, failed: 1 });
    expect(first.body.results[1]).toMatchObject({
      id: critical,
      outcome: 'failed',
      status: 401,
      code: 'reauth_required',
    });
    expect(row(source)).toMatchObject({ status: 'approved', duration_minutes: 30, approved_by_name: 'tech' });
    expect(row(critical).status).toBe('pending');

    const second = await bulk(tech, {
      decision: 'approve',
      reauthPassword: PASSWORD,
      items: [{ id: critical }],
    });
    expect(second.body.results[0]).toMatchObject({
      id: critical,
      outcome: 'decided',
      status: 'approved',
      assuranceMethod: 'session_reauth',
    });
    await auditSettled(server);
    expect(
      audits('pam.elevation_request.approve', [source, critical, other])
        .map((x) => x.resource_id)
        .sort(),
    ).toEqual([source, critical, other].sort());
  });

  it('stops at a wrong password instead of spending more guesses on the rest', async () => {
    const hash = newHash();
    const ids = [await pending(hash, { risk: 'critical' }), await pending(hash, { risk: 'critical' })];
    const res = await bulk(tech, {
      decision: 'approve',
      reauthPassword: 'wrong',
      items: ids.map((id) => ({ id })),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ decided: 0, failed: 2 });
    expect(res.body.results.every((r) => r.outcome === 'failed' && r.code === 'reauth_failed')).toBe(true);
    // One wrong guess counted against the account, not one per request.
    const guesses = db()
      .prepare("SELECT count FROM rate_limits WHERE bucket = 'secret:password:account_address'")
      .all() as Array<{ count: number }>;
    expect(guesses).toEqual([{ count: 1 }]);
    expect(ids.map((id) => row(id).status)).toEqual(['pending', 'pending']);
  });

  it('takes an assertion per request under an enforced floor: each bound to its own request, one missing is refused', async () => {
    setPolicy({ mode: 'enforce', floors: { low: 1, medium: 2, high: 2, critical: 3 } });
    const hash = newHash();
    const [a, b, c] = [await pending(hash), await pending(hash), await pending(hash)];
    const challenge = async (id: string) =>
      (await server.api.post(`/pam/elevation-requests/${id}/assertion-challenge`, {}, tech2)).body.options;
    const proofA = tech2Auth.assert(await challenge(a));
    // b's proof answers a challenge issued for c: bound to another request, it must not pass for b.
    const proofForC = tech2Auth.assert(await challenge(c));
    const res = await bulk(tech2, {
      decision: 'approve',
      items: [
        { id: a, proof: proofA },
        { id: b, proof: proofForC },
        { id: c }, // no proof: level 1 under a floor of 2
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toMatchObject({
      id: a,
      outcome: 'decided',
      status: 'approved',
      assuranceLevel: 2,
    });
    expect(res.body.results[1]).toMatchObject({
      id: b,
      outcome: 'failed',
      status: 401,
      code: 'assertion_failed',
    });
    expect(res.body.results[2]).toMatchObject({
      id: c,
      outcome: 'failed',
      status: 403,
      code: 'step_up_required',
      requiredLevel: 2,
    });
    expect([a, b, c].map((id) => row(id).status)).toEqual(['approved', 'pending', 'pending']);
    expect(row(a)).toMatchObject({ assurance_level: 2, assurance_method: 'platform_authenticator' });
    setPolicy(null);
  });
});
