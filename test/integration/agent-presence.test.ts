import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { eventually, mintEnrollmentKey, startAgentServer, TestAgent } from '../support/agent-client';
import { insertOrg, insertPartner, insertPartnerUser, plainToken } from '../support/seed';
import type { TestServer } from '../support/server';

// Presence follows the agent socket (issue 16): when an agent stops, its socket closes and the device reads
// offline within seconds, with the push that turns the console's row, even though its last HTTP heartbeat is
// recent. The server runs with the default 60-second heartbeat, so the three-interval staleness sweep (three
// minutes) cannot be what turns it; a reconnect within the grace does not flap the device.

let server: TestServer;
let partnerId: string;
let key: string;

beforeAll(async () => {
  server = await startAgentServer();
  partnerId = insertPartner(server).partnerId;
  key = mintEnrollmentKey(server, insertOrg(server, partnerId, 'Contoso'), { maxUsage: 100 }).key;
});
afterAll(async () => {
  await server.dispose();
});

const status = (deviceId: string) =>
  (server.context.db.prepare('SELECT status FROM devices WHERE id = ?').get(deviceId) as { status: string })
    .status;

/** A partner technician's console socket, collecting the device presence pushes it receives. */
async function console(
  email: string,
): Promise<{ events: string[]; socket: WebSocket; of: (id: string) => string[] }> {
  const roleId = (
    server.context.db
      .prepare("SELECT id FROM roles WHERE partner_id = ? AND name = 'Partner Admin'")
      .get(partnerId) as { id: string }
  ).id;
  await insertPartnerUser(server, partnerId, roleId, email, { orgAccess: 'all' });
  const token = await plainToken(server, email);
  const ticket = (await server.api.post('/ws/ticket', {}, token)).body.ticket as string;
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/v1/ws?ticket=${ticket}`);
  const received: Array<{ event: string; deviceId: string }> = [];
  socket.on('message', (raw) => {
    const message = JSON.parse(String(raw));
    if (message.type === 'event' && message.event === 'device.presence_changed')
      for (const change of message.data.changes)
        received.push({ event: `device.${change.status}`, deviceId: change.deviceId });
  });
  await new Promise((resolve) => socket.on('open', resolve));
  return {
    events: received.map((r) => r.event),
    socket,
    of: (id) => received.filter((r) => r.deviceId === id).map((r) => r.event),
  };
}

describe('presence after a socket closes', () => {
  it('turns a stopped agent offline within seconds, heartbeat or not, and pushes it to the console', async () => {
    expect(server.context.config.agentHeartbeatSeconds).toBe(60);
    const live = await console('presence@msp.test');
    const agent = await TestAgent.enroll(server, key);
    const { deviceId } = agent.creds;
    const socket = await agent.connect();
    expect((await agent.heartbeat()).status).toBe(200);
    expect(status(deviceId)).toBe('online');

    await socket.close();
    // Generous bound: the grace is a few seconds; the staleness sweep alone would take three minutes.
    await eventually(() => status(deviceId) === 'offline', 5000, 50);
    await eventually(() => live.of(deviceId).includes('device.offline'), 2000);

    // The agent comes back: one heartbeat (or a socket) and it reads online again.
    expect((await agent.heartbeat()).status).toBe(200);
    expect(status(deviceId)).toBe('online');
    await eventually(() => live.of(deviceId).includes('device.online'), 2000);
    live.socket.close();
  });

  it('a reconnect within the grace keeps the device online without an offline/online pair', async () => {
    const live = await console('blip@msp.test');
    const agent = await TestAgent.enroll(server, key);
    const { deviceId } = agent.creds;
    const first = await agent.connect();
    await first.close();
    const second = await agent.connect();
    // Past the grace: the reconnect cancelled the pending offline.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(status(deviceId)).toBe('online');
    expect(live.of(deviceId)).toEqual([]);
    await second.close();
    await eventually(() => status(deviceId) === 'offline', 5000, 50);
    live.socket.close();
  });

  it('an agent that heartbeats over HTTP after its socket closed stays online (the sweep decides later)', async () => {
    const agent = await TestAgent.enroll(server, key);
    const { deviceId } = agent.creds;
    const socket = await agent.connect();
    await socket.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await agent.heartbeat()).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(status(deviceId)).toBe('online');
  });
});
