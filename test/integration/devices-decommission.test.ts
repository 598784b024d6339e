import { describe, expect, it } from 'vitest';
import type {} from '../../server/events/bus';
import { mintEnrollmentKey, TestAgent } from '../support/agent-client';
import { lastAudit } from '../support/seed';
import { auditSettled } from '../support/server';
import {
  server,
  ids,
  deviceRow,
  call,
  get,
  expectError,
  collect,
  useDevicesWorld,
} from '../support/devices-world';

// DELETE /devices/:id (decommission): the connected agent is told to uninstall, waiting commands are cancelled,
// an offline agent claims its uninstall later; audited and announced.

useDevicesWorld();

describe('DELETE /devices/:id (decommission)', () => {
  it('decommissions, tells the connected agent to uninstall, audits, announces, and refuses a second time', async () => {
    const { key } = mintEnrollmentKey(server, ids.a1, { siteId: ids.s2 });
    const agent = await TestAgent.enroll(server, key, { hostname: 'retire-me' });
    const id = agent.creds.deviceId;
    const socket = await agent.connect();
    await socket.next((m) => m.type === 'connected');
    const events = collect('device.decommissioned');

    const res = await call('orgAdmin', 'DELETE', `/devices/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id,
      status: 'decommissioned',
      decommissionedAt: expect.any(String),
      hostname: 'retire-me',
      connected: true,
    });
    const uninstall = await socket.nextCommand('self_uninstall');
    expect(uninstall.payload).toEqual({ removeConfig: true });
    expect(deviceRow(id)).toMatchObject({
      status: 'decommissioned',
      decommissioned_at: res.body.decommissionedAt,
    });
    const commands = (await get('orgAdmin', `/devices/${id}/commands`)).body.data;
    expect(commands).toEqual([
      expect.objectContaining({ id: uninstall.id, type: 'self_uninstall', status: 'sent' }),
    ]);
    await auditSettled(server);
    const entry = lastAudit(server, 'device.delete', id)!;
    expect(entry.org_id).toBe(ids.a1);
    expect(JSON.parse(entry.details)).toEqual({ commandId: uninstall.id, previousStatus: 'online' });
    expect(events.map((e) => [e.event, e.orgId, e.data])).toEqual([
      [
        'device.decommissioned',
        ids.a1,
        { deviceId: id, hostname: 'retire-me', orgId: ids.a1, siteId: ids.s2, status: 'decommissioned' },
      ],
    ]);

    expectError(await call('orgAdmin', 'DELETE', `/devices/${id}`), 409, 'Device is already decommissioned');
    expectError(
      await call('orgAdmin', 'PATCH', `/devices/${id}`, { displayName: 'x' }),
      409,
      'Device is decommissioned',
    );
    expectError(
      await call('orgAdmin', 'POST', `/devices/${id}/commands`, {
        type: 'self_uninstall',
        payload: { removeConfig: true },
      }),
      409,
      'Device is decommissioned',
    );
    expect((await get('orgAdmin', '/devices?search=retire-me')).body.data).toEqual([]);
    expect((await get('orgAdmin', '/devices?search=retire-me&status=decommissioned')).body.data).toHaveLength(
      1,
    );
    // The detail stays readable as history.
    expect((await get('orgAdmin', `/devices/${id}`)).body.status).toBe('decommissioned');

    // The socket of a removed device closes once the uninstall is out; the agent reports over HTTP and its
    // credential dies with it.
    expect((await socket.closed).code).toBe(4001);
    expect((await agent.result(uninstall.id, { status: 'completed' })).status).toBe(200);
    expect((await agent.heartbeat()).status).toBe(401);
  });

  it('cancels commands still waiting and leaves the uninstall for an offline agent to claim', async () => {
    const { key } = mintEnrollmentKey(server, ids.a1);
    const agent = await TestAgent.enroll(server, key);
    const id = agent.creds.deviceId;
    const waiting = await call('orgTech', 'POST', `/devices/${id}/commands`, {
      type: 'dev_update',
      payload: { downloadUrl: 'https://example.test/a', checksum: 'd'.repeat(64) },
    });
    expect(waiting.body.status).toBe('pending');
    const res = await call('keyA1', 'DELETE', `/devices/${id}`);
    expect(res.status).toBe(200);
    const beat = await agent.heartbeat();
    expect(beat.body.commands).toEqual([
      { id: expect.any(String), type: 'self_uninstall', payload: { removeConfig: true } },
    ]);
    const commands = (await get('orgTech', `/devices/${id}/commands`)).body.data as Array<{
      id: string;
      status: string;
    }>;
    expect(commands.find((c) => c.id === waiting.body.id)?.status).toBe('cancelled');
    await auditSettled(server);
    const entry = server.context.db
      .prepare("SELECT actor_type FROM audit_logs WHERE action = 'device.delete' AND resource_id = ?")
      .get(id) as { actor_type: string };
    expect(entry.actor_type).toBe('api_key');
  });
});
