import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BulkRespondResponse } from '../../server/contract';
import { insertOrgUser, PASSWORD, ROLES, signedToken } from '../support/seed';
import { auditSettled, enrollTotp, totp } from '../support/server';
import { SoftAuthenticator } from '../support/webauthn';
import {
  server,
  orgId,
  agent,
  tech2,
  db,
  row,
  report,
  respond,
  usePamRequestsWorld,
} from '../support/pam-requests-world';

// One re-authentication for a set of decisions (issue 16 item 2): an approver whose only re-authentication is an
// MFA code (no password: a single sign-on account) approves several critical requests at once. The code is
// checked once for the whole set, so it is spent once; each decision records the shared ceremony it used in its
// event and audit entry; the code is never good again; a wrong one decides nothing, counts one guess, and spends
// the approver-device challenges sent with it.

usePamRequestsWorld();

let codeOnly: string;
let secret: string;

beforeAll(async () => {
  const email = 'sso-approver@contoso.test';
  await insertOrgUser(server, orgId, ROLES.orgTechnician, email);
  secret = (await enrollTotp(server, email, PASSWORD)).secret;
  db().prepare('UPDATE users SET password_hash = NULL WHERE email = ?').run(email);
  codeOnly = await signedToken(server, email);
});

async function criticalRequest(): Promise<string> {
  const res = await report({ target_executable_hash: randomUUID().replace(/-/g, '').repeat(2) }, agent);
  expect(res.status).toBe(201);
  const id = res.body.id as string;
  db().prepare("UPDATE elevation_requests SET risk_level = 'critical' WHERE id = ?").run(id);
  return id;
}

const bulk = async (token: string, body: Record<string, unknown>) =>
  (await server.api.post('/pam/elevation-requests/bulk-respond', body, token)) as {
    status: number;
    body: BulkRespondResponse;
  };

/** A code of the next TOTP step: the enrollment spent the current one. */
const nextCode = (stepsAhead: number) => totp(secret, Math.floor(Date.now() / 1000) + 30 * stepsAhead);

describe('a set of critical approvals with one MFA code', () => {
  it('approves every request of the set, each decision audited with the one ceremony it used', async () => {
    const ids = [await criticalRequest(), await criticalRequest(), await criticalRequest()];
    const code = await nextCode(1);
    const res = await bulk(codeOnly, {
      decision: 'approve',
      reauthMfaCode: code,
      items: ids.map((id) => ({ id })),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ decided: 3, skipped: 0, failed: 0 });
    for (const result of res.body.results)
      expect(result).toMatchObject({
        outcome: 'decided',
        status: 'approved',
        assuranceMethod: 'session_reauth',
      });
    for (const id of ids) expect(row(id)).toMatchObject({ status: 'approved', assurance_level: 1 });

    // Each request has its own audit entry and event, all naming the same ceremony and the size of its set.
    await auditSettled(server);
    const audits = db()
      .prepare(
        `SELECT resource_id, details FROM audit_logs
          WHERE action = 'pam.elevation_request.approve' AND resource_id IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(ids)) as Array<{ resource_id: string; details: string }>;
    expect(audits.map((a) => a.resource_id).sort()).toEqual([...ids].sort());
    const ceremonies = new Set(
      audits.map((a) => {
        const details = JSON.parse(a.details) as Record<string, unknown>;
        expect(details).toMatchObject({ assuranceMethod: 'session_reauth', reauthCoveredRequests: 3 });
        return details.reauthCeremonyId;
      }),
    );
    expect(ceremonies.size).toBe(1);
    const events = db()
      .prepare(
        `SELECT details FROM elevation_events
          WHERE event_type = 'elevation.approved' AND elevation_request_id IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(ids)) as Array<{ details: string }>;
    expect(events).toHaveLength(3);
    for (const e of events)
      expect(JSON.parse(e.details)).toMatchObject({ reauthCeremonyId: [...ceremonies][0] });

    // The code was spent once: presented again, for the next set or a single decision, it is refused.
    const next = await criticalRequest();
    const replay = await bulk(codeOnly, {
      decision: 'approve',
      reauthMfaCode: code,
      items: [{ id: next }],
    });
    expect(replay.body.results[0]).toMatchObject({ outcome: 'failed', status: 401, code: 'reauth_failed' });
    const single = await respond(codeOnly, next, { decision: 'approve', reauthMfaCode: code });
    expect(single.body.code).toBe('reauth_failed');
    expect(row(next).status).toBe('pending');
  });

  it('without a code approves none of the critical requests, and a wrong code decides nothing and counts once', async () => {
    const ids = [await criticalRequest(), await criticalRequest()];
    const none = await bulk(codeOnly, { decision: 'approve', items: ids.map((id) => ({ id })) });
    expect(none.body.results.map((r) => r.outcome === 'failed' && r.code)).toEqual([
      'reauth_required',
      'reauth_required',
    ]);
    const wrong = await bulk(codeOnly, {
      decision: 'approve',
      reauthMfaCode: '000000',
      items: ids.map((id) => ({ id })),
    });
    expect(wrong.body).toMatchObject({ decided: 0, failed: 2 });
    expect(wrong.body.results.every((r) => r.outcome === 'failed' && r.code === 'reauth_failed')).toBe(true);
    const guesses = db()
      .prepare("SELECT count FROM rate_limits WHERE bucket = 'secret:mfa_code:account_address'")
      .all() as Array<{ count: number }>;
    expect(guesses).toEqual([{ count: 1 }]);
    expect(ids.map((id) => row(id).status)).toEqual(['pending', 'pending']);
  });

  it('spends the approver-device challenges of a set whose re-authentication failed', async () => {
    const authenticator = new SoftAuthenticator({ origin: server.url });
    const options = await server.api.post('/pam/approver-devices/registration-options', {}, tech2);
    const registered = await server.api.post(
      '/pam/approver-devices',
      {
        name: 'Tech2 laptop',
        response: authenticator.register(options.body.options),
        reauthPassword: PASSWORD,
      },
      tech2,
    );
    expect(registered.status).toBe(201);
    const id = await criticalRequest();
    const challenge = await server.api.post(`/pam/elevation-requests/${id}/assertion-challenge`, {}, tech2);
    const proof = authenticator.assert(challenge.body.options);
    const wrong = await bulk(tech2, {
      decision: 'approve',
      reauthPassword: 'not-the-password',
      items: [{ id, proof }],
    });
    expect(wrong.body.results[0]).toMatchObject({ outcome: 'failed', code: 'reauth_failed' });
    // The same proof with the right password: its challenge is gone, so it cannot be tried again.
    const retry = await respond(tech2, id, { decision: 'approve', proof, reauthPassword: PASSWORD });
    expect(retry.status).toBe(401);
    expect(retry.body.code).toBe('assertion_failed');
    expect(row(id).status).toBe('pending');
  });
});
