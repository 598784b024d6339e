import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mintEnrollmentKey, TestAgent } from '../support/agent-client';
import { insertOrgUser, PASSWORD, ROLES } from '../support/seed';
import { consoleSocketFor } from '../support/console-client';
import { eventIdOf, signatureValid, type ReceivedRequest } from '../support/webhook-receiver';
import { createWebhook, deliveryWhere, startWebhookWorld, type WebhookWorld } from '../support/webhook-world';

// What a receiver sees (spec 2 Webhooks, delivery request): the JSON body {id, type, timestamp, orgId, data}, the
// standard headers then the webhook's own, and a signature it can verify over `<signature timestamp>.<raw body>`.
// Events of the catalog reach the webhooks that subscribe to them (an elevation approval among them); a paused
// webhook receives nothing until resumed; a redirect is a failure; consoles watch deliveries live.

let world: WebhookWorld;

beforeAll(async () => {
  world = await startWebhookWorld();
});
afterAll(async () => {
  await world?.dispose();
});
beforeEach(() => {
  world.receiver.reply = () => ({ status: 200, body: 'ok' });
});

const requestsFor = (deliveryId: string) =>
  world.receiver.requests.filter((r) => r.headers['x-service-delivery-id'] === deliveryId);

describe('webhook delivery', () => {
  it('signs each delivery so a receiver can verify it, with the standard headers before the custom ones', async () => {
    const secret = randomBytes(24).toString('hex');
    world.receiver.reply = () => ({ status: 200, headers: { 'X-Receiver': 'test' }, body: 'ok' });
    const hook = await createWebhook(world, {
      secret,
      events: ['device.online'],
      headers: [{ key: 'X-Tenant', value: 'hooks-org' }],
    });
    const sent = await world.server.api.post(
      `/webhooks/${hook.id}/test`,
      { payload: { hello: 'world' } },
      world.admin,
    );
    const delivery = await deliveryWhere(world, hook.id, (d) => d.status === 'delivered');
    expect(delivery).toMatchObject({
      id: sent.body.delivery.id,
      attempt: 1,
      responseStatus: 200,
      responseBody: 'ok',
    });
    expect(delivery.responseTimeMs).toEqual(expect.any(Number));
    expect(delivery.deliveredAt).toEqual(expect.any(String));

    const [request] = requestsFor(delivery.id as string) as [ReceivedRequest];
    expect(request.path).toBe('/hook');
    expect(signatureValid(request, secret)).toBe(true);
    expect(signatureValid(request, 'another-secret')).toBe(false);
    expect(signatureValid({ ...request, body: request.body.replace('world', 'w0rld') }, secret)).toBe(false);
    const body = JSON.parse(request.body) as Record<string, unknown>;
    expect(body).toEqual({
      id: delivery.eventId,
      type: 'webhook.test',
      timestamp: expect.any(String),
      orgId: world.orgId,
      data: { hello: 'world' },
    });
    expect(request.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Service-Webhooks/1.0',
      'x-service-delivery-id': delivery.id,
      'x-service-event-id': delivery.eventId,
      'x-service-event-type': 'webhook.test',
      'x-tenant': 'hooks-org',
    });
    expect(request.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    const order = request.headerOrder;
    expect(order.indexOf('x-tenant')).toBeGreaterThan(order.indexOf('x-service-signature-timestamp'));
    expect(order.indexOf('x-service-signature-timestamp')).toBeGreaterThan(order.indexOf('content-type'));
    expect(Number(request.headers['x-service-timestamp'])).toBeGreaterThan(Date.now() - 60_000);

    // The log keeps what was sent, signature included, exactly as the receiver got it, and what came back.
    const sentHeaders = delivery.requestHeaders as Record<string, string>;
    expect(sentHeaders['X-Service-Signature']).toBe(request.headers['x-service-signature']);
    for (const [name, value] of Object.entries(sentHeaders))
      expect(request.headers[name.toLowerCase()], name).toBe(value);
    expect(Object.keys(sentHeaders).map((n) => n.toLowerCase())).toEqual(
      expect.arrayContaining(order.filter((n) => n !== 'host' && n !== 'connection')),
    );
    expect(delivery.responseHeaders).toMatchObject({ 'x-receiver': 'test', date: expect.any(String) });

    const unsigned = await createWebhook(world, { events: ['device.online'] });
    await world.server.api.post(`/webhooks/${unsigned.id}/test`, {}, world.admin);
    const plain = await deliveryWhere(world, unsigned.id, (d) => d.status === 'delivered');
    const [plainRequest] = requestsFor(plain.id as string) as [ReceivedRequest];
    expect(plainRequest.headers['x-service-signature']).toBeUndefined();
    expect(plainRequest.headers['x-service-signature-timestamp']).toBeUndefined();
  });

  it('routes events of the catalog to the webhooks that subscribe to them: an elevation approval among them', async () => {
    const secret = 'approval-secret';
    const approvals = await createWebhook(world, {
      secret,
      events: ['elevation.approved', 'device.enrolled'],
    });
    const offline = await createWebhook(world, { events: ['device.offline'] });

    const agent = await TestAgent.enroll(world.server, mintEnrollmentKey(world.server, world.orgId).key);
    const enrolled = await deliveryWhere(world, approvals.id, (d) => d.event === 'device.enrolled');
    expect(enrolled.payload.data).toMatchObject({ deviceId: agent.creds.deviceId, orgId: world.orgId });

    const raised = await agent.api.request('POST', `${agent.path}/elevation-requests`, {
      token: agent.creds.authToken,
      body: {
        subject_username: 'alice',
        target_executable_path: 'C:\\Tools\\setup.exe',
        target_executable_hash: randomBytes(32).toString('hex'),
        target_executable_signer: 'Contoso Software',
        flow_type: 'uac_intercept',
      },
    });
    expect(raised.status).toBe(201);
    const approve = await world.server.api.post(
      `/pam/elevation-requests/${raised.body.id}/respond`,
      { decision: 'approve', durationMinutes: 30 },
      world.admin,
    );
    expect(approve.status).toBe(200);

    const approved = await deliveryWhere(
      world,
      approvals.id,
      (d) => d.event === 'elevation.approved' && d.status === 'delivered',
    );
    expect(approved.payload.data).toMatchObject({
      id: raised.body.id,
      status: 'approved',
      orgId: world.orgId,
    });
    const request = world.receiver.requests.find((r) => eventIdOf(r) === approved.eventId)!;
    expect(signatureValid(request, secret)).toBe(true);
    expect(JSON.parse(request.body)).toMatchObject({ type: 'elevation.approved', id: approved.eventId });

    // The webhook that subscribes to neither event got nothing.
    const other = await world.server.api.get(`/webhooks/${offline.id}/deliveries`, world.admin);
    expect(other.body.data).toEqual([]);
  });

  it('delivers a sign-in as user.login and session.login, each to the webhooks that asked for it', async () => {
    const users = await createWebhook(world, { events: ['user.login'] });
    const sessions = await createWebhook(world, { events: ['session.login'] });
    const userId = await insertOrgUser(world.server, world.orgId, ROLES.orgTechnician, 'signin@hooks.test');
    expect((await world.server.api.login('signin@hooks.test', PASSWORD)).status).toBe(200);
    const asUser = await deliveryWhere(world, users.id, (d) => d.status === 'delivered');
    const asSession = await deliveryWhere(world, sessions.id, (d) => d.status === 'delivered');
    expect(asUser.payload).toMatchObject({ type: 'user.login', orgId: world.orgId, data: { userId } });
    expect(asSession.payload).toMatchObject({ type: 'session.login', orgId: world.orgId, data: { userId } });
  });

  it('a paused webhook receives nothing until resumed', async () => {
    const { api } = world.server;
    const hook = await createWebhook(world, { events: ['device.online'] });
    await api.request('PATCH', `/webhooks/${hook.id}`, { token: world.admin, body: { status: 'paused' } });
    const test = await api.post(`/webhooks/${hook.id}/test`, {}, world.admin);
    expect(test.status).toBe(202);
    // Several dispatcher passes (every 50 ms here) go by: the delivery waits.
    await new Promise((r) => setTimeout(r, 400));
    expect(requestsFor(test.body.delivery.id as string)).toEqual([]);
    const [waiting] = (await api.get(`/webhooks/${hook.id}/deliveries`, world.admin)).body.data;
    expect(waiting).toMatchObject({ status: 'pending', attempt: 0 });

    // Events are not even queued for a paused webhook.
    await TestAgent.enroll(world.server, mintEnrollmentKey(world.server, world.orgId).key);
    expect((await api.get(`/webhooks/${hook.id}/deliveries`, world.admin)).body.pagination.total).toBe(1);

    await api.request('PATCH', `/webhooks/${hook.id}`, { token: world.admin, body: { status: 'active' } });
    await deliveryWhere(world, hook.id, (d) => d.id === test.body.delivery.id && d.status === 'delivered');
    expect(requestsFor(test.body.delivery.id as string)).toHaveLength(1);
  });

  it('a redirect is a failure, never followed; the response body is kept to 1000 characters, its headers to 4 KB', async () => {
    const padding = Object.fromEntries(
      Array.from({ length: 60 }, (_, i) => [`x-pad-${String(i).padStart(2, '0')}`, 'y'.repeat(100)]),
    );
    const hook = await createWebhook(world, {
      events: ['device.online'],
      retryPolicy: { maxRetries: 0, initialDelayMs: 10, backoffMultiplier: 2, maxDelayMs: 10 },
    });
    world.receiver.reply = (r) =>
      r.path === '/hook'
        ? {
            status: 302,
            headers: { location: `${world.receiver.url}/elsewhere`, ...padding },
            body: 'x'.repeat(5000),
          }
        : { status: 200 };
    const test = await world.server.api.post(`/webhooks/${hook.id}/test`, {}, world.admin);
    const failed = await deliveryWhere(world, hook.id, (d) => d.status === 'failed');
    expect(failed.responseStatus).toBe(302);
    expect(failed.errorMessage).toMatch(/redirect/i);
    expect(failed.responseBody).toHaveLength(1000);
    // About 7 KB of headers: the log keeps the first ones within 4 KB of JSON.
    const kept = failed.responseHeaders as Record<string, string>;
    expect(kept.location).toBe(`${world.receiver.url}/elsewhere`);
    expect(JSON.stringify(kept).length).toBeLessThanOrEqual(4096);
    expect(Object.keys(kept).filter((n) => n.startsWith('x-pad-')).length).toBeLessThan(60);
    expect(failed.requestHeaders).toMatchObject({ 'X-Service-Delivery-Id': failed.id });
    expect(requestsFor(test.body.delivery.id as string).map((r) => r.path)).toEqual(['/hook']);
    expect(world.receiver.requests.some((r) => r.path === '/elsewhere')).toBe(false);
  });

  it('pushes webhook.delivery.created and .updated to consoles that may read the webhook', async () => {
    const socket = await consoleSocketFor(world.server.url, world.admin);
    try {
      const hook = await createWebhook(world, { events: ['device.online'] });
      const test = await world.server.api.post(`/webhooks/${hook.id}/test`, {}, world.admin);
      const id = test.body.delivery.id as string;
      const created = await socket.next(
        (m) =>
          m.type === 'event' &&
          m.event === 'webhook.delivery.created' &&
          (m.data as { id?: string }).id === id,
      );
      expect(created).toMatchObject({ orgId: world.orgId, data: { status: 'pending', webhookId: hook.id } });
      const updated = await socket.next(
        (m) =>
          m.type === 'event' &&
          m.event === 'webhook.delivery.updated' &&
          (m.data as { id?: string }).id === id,
      );
      expect(updated).toMatchObject({ orgId: world.orgId, data: { status: 'delivered', attempt: 1 } });
    } finally {
      socket.socket.close();
    }
  });
});
