import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sweepElevationExpiry } from '../../server/modules/pam/enforcement';
import { eventually } from '../support/agent-client';
import type { ConsoleServerMessage } from '../../server/contract';
import { consoleSocketFor, type ConsoleSocket } from '../support/console-client';
import {
  server,
  orgId,
  agent,
  agentB,
  otherAgent,
  socket,
  tech,
  siteTech,
  outsider,
  HASH,
  db,
  row,
  report,
  commandFor,
  respond,
  insertRule,
  usePamRequestsWorld,
} from '../support/pam-requests-world';

// Approved PAM requests carried out: actuation on the agent, revoke and expiry, and the console pushes.

usePamRequestsWorld();

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
