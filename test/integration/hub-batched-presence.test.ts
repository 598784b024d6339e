import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { applyPresence } from '../../server/modules/agents';
import { eventually, mintEnrollmentKey, TestAgent } from '../support/agent-client';
import { createWebhook, deliveryWhere, startWebhookWorld, type WebhookWorld } from '../support/webhook-world';

// Presence at fleet scale (issue 18): many devices going offline together are one transaction and one
// `device.presence_changed` push per organization, not one push per device; webhooks still get one
// device.online / device.offline delivery per device; agents' own audit entries (event-log uploads) are not
// pushed to consoles, while people's actions still are.

let world: WebhookWorld;

beforeAll(async () => {
  world = await startWebhookWorld();
});
afterAll(async () => {
  await world?.dispose();
});

interface Pushed {
  event: string;
  data: { changes?: Array<{ deviceId: string; status: string }>; action?: string };
  orgId: string | null;
}

async function openConsole(): Promise<{ pushed: Pushed[]; close: () => void }> {
  const ticket = (await world.server.api.post('/ws/ticket', {}, world.admin)).body.ticket as string;
  const socket = new WebSocket(`${world.server.url.replace('http', 'ws')}/api/v1/ws?ticket=${ticket}`);
  const pushed: Pushed[] = [];
  socket.on('message', (raw) => {
    const message = JSON.parse(String(raw));
    if (message.type === 'event') pushed.push(message as Pushed);
  });
  await new Promise((resolve) => socket.on('open', resolve));
  return { pushed, close: () => socket.close() };
}

describe('batched presence', () => {
  it('many devices going offline together are one push, and one webhook delivery each', async () => {
    const hook = await createWebhook(world, { events: ['device.offline'] });
    const key = mintEnrollmentKey(world.server, world.orgId, { maxUsage: 20 }).key;
    const agents = await Promise.all(Array.from({ length: 20 }, () => TestAgent.enroll(world.server, key)));
    const ids = agents.map((a) => a.creds.deviceId);
    const live = await openConsole();

    const changed = applyPresence(
      world.server.context,
      ids.map((deviceId) => ({ deviceId, online: false })),
    );
    expect(changed.map((d) => d.id).sort()).toEqual([...ids].sort());

    await eventually(() => live.pushed.some((p) => p.event === 'device.presence_changed'));
    const batches = live.pushed.filter((p) => p.event === 'device.presence_changed');
    expect(batches).toHaveLength(1);
    expect(batches[0]!.orgId).toBe(world.orgId);
    expect(batches[0]!.data.changes!.map((c) => c.deviceId).sort()).toEqual([...ids].sort());
    expect(batches[0]!.data.changes!.every((c) => c.status === 'offline')).toBe(true);

    for (const deviceId of ids.slice(0, 3))
      await deliveryWhere(
        world,
        hook.id,
        (d) => d.event === 'device.offline' && d.payload.data.deviceId === deviceId,
      );

    // Already offline: nothing changes, nothing is announced.
    expect(applyPresence(world.server.context, [{ deviceId: ids[0]!, online: false }])).toEqual([]);
    live.close();
  });

  it("does not push agents' event-log uploads to consoles, but still pushes people's actions", async () => {
    const key = mintEnrollmentKey(world.server, world.orgId).key;
    const agent = await TestAgent.enroll(world.server, key);
    const live = await openConsole();
    const upload = await agent.eventlogs([
      {
        timestamp: new Date().toISOString(),
        level: 'info',
        category: 'system',
        source: 'Service Control Manager',
        eventId: '7036',
        message: 'The service entered the running state.',
      },
    ]);
    expect(upload.status).toBe(200);
    // A person's action afterwards: its push arriving proves the upload's entry was written before it.
    const created = await world.server.api.request('POST', '/enrollment-keys', {
      token: world.admin,
      body: { orgId: world.orgId, name: 'after the upload' },
    });
    expect(created.status).toBe(201);
    await eventually(() =>
      live.pushed.some((p) => p.event === 'audit.created' && p.data.action === 'enrollment_key.create'),
    );
    expect(live.pushed.filter((p) => p.data.action?.startsWith('agent.'))).toEqual([]);
    live.close();
  });
});
