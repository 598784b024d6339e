import { describe, expect, it } from 'vitest';
import type {} from '../../server/events/bus';
import { eventually, mintEnrollmentKey, TestAgent } from '../support/agent-client';
import { lastAudit } from '../support/seed';
import { auditSettled } from '../support/server';
import {
  server,
  ids,
  insertDevice,
  deviceRow,
  call,
  get,
  expectError,
  useDevicesWorld,
} from '../support/devices-world';

// Device commands (POST /devices/:id/commands): which types are queued, and how a queued command reaches the
// agent (its next heartbeat, or at once over its socket).

useDevicesWorld();

// ---- commands and decommission ---------------------------------------------------------------------------------

describe('commands', () => {
  it('queues self_uninstall and dev_update (which switches auto-update off); other types are refused', async () => {
    const id = insertDevice(ids.a1, { siteId: ids.s1 });
    const post = (body: unknown) => call('orgTech', 'POST', `/devices/${id}/commands`, body);
    const uninstall = await post({ type: 'self_uninstall', payload: { removeConfig: true } });
    expect(uninstall.status).toBe(201);
    expect(uninstall.body).toEqual({
      id: expect.any(String),
      deviceId: id,
      type: 'self_uninstall',
      payload: { removeConfig: true },
      status: 'pending',
      createdBy: expect.any(String),
      createdAt: expect.any(String),
      sentAt: null,
      completedAt: null,
      result: null,
      error: null,
    });
    const checksum = 'AB'.repeat(32);
    const update = await post({
      type: 'dev_update',
      payload: { downloadUrl: 'https://example.test/agent', checksum },
    });
    expect(update.status).toBe(201);
    expect(update.body.payload).toEqual({
      downloadUrl: 'https://example.test/agent',
      checksum: checksum.toLowerCase(),
    });
    expect(deviceRow(id).auto_update).toBe(0);
    await auditSettled(server);
    expect(JSON.parse(lastAudit(server, 'device.command', id)!.details)).toMatchObject({
      commandId: update.body.id,
      type: 'dev_update',
    });

    for (const [body, message] of [
      [{ type: 'event_logs_list', payload: {} }, 'type: type must be one of self_uninstall, dev_update'],
      [{ type: 'actuate_elevation', payload: {} }, 'type: type must be one of self_uninstall, dev_update'],
      [{ payload: {} }, 'type: type must be one of self_uninstall, dev_update'],
      [
        { type: 'dev_update', payload: { downloadUrl: 'https://x.test/a', checksum: 'abc' } },
        'payload.checksum: payload.checksum must be a SHA-256 digest (64 hex characters)',
      ],
      [
        { type: 'dev_update', payload: { downloadUrl: 'ftp://x.test/a', checksum } },
        'payload.downloadUrl: payload.downloadUrl must be an http(s) URL',
      ],
      [{ type: 'dev_update' }, 'payload: payload must be an object {downloadUrl, checksum}'],
      [
        { type: 'self_uninstall', payload: { removeConfig: 'yes' } },
        'payload.removeConfig: payload.removeConfig must be true or false',
      ],
    ] as const) {
      expectError(await post(body), 400, message, 'VALIDATION_ERROR');
    }

    const listed = await get('orgTech', `/devices/${id}/commands?limit=1`);
    expect(listed.body.data.map((c: { id: string }) => c.id)).toEqual([update.body.id]);
    expect(listed.body.pagination).toEqual({ page: 1, limit: 1, total: 2 });
    const page2 = await get('orgTech', `/devices/${id}/commands?limit=1&page=2`);
    expect(page2.body.data.map((c: { id: string }) => c.id)).toEqual([uninstall.body.id]);
  });

  it('hands a queued command to the agent on its next heartbeat, or at once over its socket', async () => {
    const { key } = mintEnrollmentKey(server, ids.a1, { siteId: ids.s1 });
    const agent = await TestAgent.enroll(server, key);
    const id = agent.creds.deviceId;
    const queued = await call('orgTech', 'POST', `/devices/${id}/commands`, {
      type: 'self_uninstall',
      payload: { removeConfig: false },
    });
    expect(queued.body.status).toBe('pending');
    const beat = await agent.heartbeat();
    expect(beat.body.commands).toEqual([
      { id: queued.body.id, type: 'self_uninstall', payload: { removeConfig: false } },
    ]);
    expect((await agent.heartbeat()).body.commands).toEqual([]);
    const claimed = await get('orgTech', `/devices/${id}/commands`);
    expect(claimed.body.data[0]).toMatchObject({
      id: queued.body.id,
      status: 'sent',
      sentAt: expect.any(String),
    });

    const socket = await agent.connect();
    await socket.next((m) => m.type === 'connected');
    expect((await get('orgTech', `/devices/${id}`)).body.connected).toBe(true);
    const checksum = 'c'.repeat(64);
    const pushed = await call('orgTech', 'POST', `/devices/${id}/commands`, {
      type: 'dev_update',
      payload: { downloadUrl: 'https://example.test/agent-2', checksum },
    });
    expect(pushed.status).toBe(201);
    expect(pushed.body.status).toBe('sent');
    const message = await socket.nextCommand('dev_update');
    expect(message).toEqual({
      type: 'command',
      id: pushed.body.id,
      commandType: 'dev_update',
      payload: { downloadUrl: 'https://example.test/agent-2', checksum },
    });
    socket.send({
      type: 'command_result',
      commandId: pushed.body.id,
      status: 'completed',
      result: { version: '2.0.0' },
    });
    await eventually(
      async () => (await get('orgTech', `/devices/${id}/commands`)).body.data[0].status === 'completed',
    );
    const done = (await get('orgTech', `/devices/${id}/commands`)).body.data[0];
    expect(done).toMatchObject({ id: pushed.body.id, status: 'completed', result: { version: '2.0.0' } });
    await socket.close();
  });
});
