import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditSettled } from '../support/server';
import { lastAudit } from '../support/seed';
import { createWebhook, deliveryWhere, startWebhookWorld, type WebhookWorld } from '../support/webhook-world';

// /webhooks as spec 2 writes it: create (status active, hasSecret, never the secret), get with deliveryStats,
// list with status and orgId filters, patch (pause and resume), delete with its deliveries, the spec's error
// messages and the audit entries of each write.

let world: WebhookWorld;

beforeAll(async () => {
  world = await startWebhookWorld();
});
afterAll(async () => {
  await world?.dispose();
});

describe('webhook CRUD', () => {
  it('creates a webhook: active, hasSecret, the secret sealed at rest and never returned', async () => {
    const created = await createWebhook(world, {
      name: 'PSA',
      secret: 'whsec-visible-nowhere',
      events: ['device.offline', 'elevation.approved', 'device.offline'],
      headers: [{ key: 'X-Tenant', value: 'hooks' }],
    });
    expect(created).toMatchObject({
      name: 'PSA',
      orgId: world.orgId,
      status: 'active',
      hasSecret: true,
      events: ['device.offline', 'elevation.approved'],
      headers: [{ key: 'X-Tenant', value: 'hooks' }],
      successCount: 0,
      failureCount: 0,
      lastDeliveryAt: null,
    });
    expect(JSON.stringify(created)).not.toContain('whsec-visible-nowhere');
    const stored = world.server.context.db
      .prepare('SELECT secret_sealed FROM webhooks WHERE id = ?')
      .get(created.id) as { secret_sealed: string };
    expect(stored.secret_sealed).toMatch(/^v1\./);
    expect(stored.secret_sealed).not.toContain('whsec');
    expect(world.server.context.secretBox.open(stored.secret_sealed)).toBe('whsec-visible-nowhere');

    await auditSettled(world.server);
    const audit = lastAudit(world.server, 'webhook.create', created.id);
    expect(audit?.org_id).toBe(world.orgId);
    expect(audit?.details).not.toContain('whsec');
  });

  it('answers the spec messages: Organization context required, Invalid webhook URL, unknown events', async () => {
    const { api } = world.server;
    const noOrg = await api.request('POST', '/webhooks', {
      token: world.admin,
      body: { name: 'x', url: `${world.receiver.url}/hook`, events: ['device.online'] },
    });
    expect(noOrg.status).toBe(403);
    expect(noOrg.body.error).toBe('Organization context required');

    for (const url of [
      'http://example.com/hook',
      'ftp://example.com/',
      'not a url',
      'https://user:pw@example.com/',
    ]) {
      const res = await api.request('POST', '/webhooks', {
        token: world.admin,
        body: { name: 'x', url, events: ['device.online'], orgId: world.orgId },
      });
      expect(res.status, url).toBe(400);
      expect(res.body.error, url).toBe('Invalid webhook URL');
    }

    const badEvent = await api.request('POST', '/webhooks', {
      token: world.admin,
      body: { name: 'x', url: `${world.receiver.url}/hook`, events: ['device.exploded'], orgId: world.orgId },
    });
    expect(badEvent.status).toBe(400);

    const forged = await api.request('POST', '/webhooks', {
      token: world.admin,
      body: {
        name: 'x',
        url: `${world.receiver.url}/hook`,
        events: ['device.online'],
        orgId: world.orgId,
        headers: [{ key: 'X-Service-Signature', value: 'sha256=forged' }],
      },
    });
    expect(forged.status).toBe(400);
  });

  it('gets a webhook with deliveryStats, lists with filters, pauses and resumes', async () => {
    const { api } = world.server;
    const hook = await createWebhook(world, { name: 'Stats', events: ['device.online'] });
    const test = await api.post(`/webhooks/${hook.id}/test`, {}, world.admin);
    expect(test.status).toBe(202);
    expect(test.body).toMatchObject({
      message: expect.any(String),
      delivery: { webhookId: hook.id, status: 'pending', event: 'webhook.test', attempt: 0 },
    });
    await deliveryWhere(world, hook.id, (d) => d.status === 'delivered');

    const detail = await api.get(`/webhooks/${hook.id}`, world.admin);
    expect(detail.status).toBe(200);
    expect(detail.body.deliveryStats).toMatchObject({
      total: 1,
      delivered: 1,
      pending: 0,
      failed: 0,
      retrying: 0,
    });
    expect(detail.body.deliveryStats.lastDeliveredAt).toEqual(expect.any(String));
    expect(detail.body).toMatchObject({ successCount: 1, failureCount: 0, hasSecret: false });
    expect(detail.body.lastDeliveryAt).toEqual(expect.any(String));
    expect(detail.body.lastSuccessAt).toEqual(expect.any(String));

    const paused = await api.request('PATCH', `/webhooks/${hook.id}`, {
      token: world.admin,
      body: { status: 'paused' },
    });
    expect(paused.status).toBe(200);
    expect(paused.body.status).toBe('paused');
    const onlyPaused = await api.get(`/webhooks?status=paused&orgId=${world.orgId}`, world.admin);
    expect(onlyPaused.body.data.map((w: { id: string }) => w.id)).toEqual([hook.id]);
    expect(onlyPaused.body.pagination).toEqual({ page: 1, limit: 50, total: 1 });
    const resumed = await api.request('PATCH', `/webhooks/${hook.id}`, {
      token: world.admin,
      body: { status: 'active' },
    });
    expect(resumed.body.status).toBe('active');
    await auditSettled(world.server);
    expect(lastAudit(world.server, 'webhook.pause', hook.id)).toBeTruthy();
    expect(lastAudit(world.server, 'webhook.resume', hook.id)).toBeTruthy();

    const renamed = await api.request('PATCH', `/webhooks/${hook.id}`, {
      token: world.admin,
      body: { name: 'Renamed', secret: 'now-signed' },
    });
    expect(renamed.body).toMatchObject({ name: 'Renamed', hasSecret: true });
    await auditSettled(world.server);
    expect(JSON.parse(lastAudit(world.server, 'webhook.update', hook.id)!.details).changes).toEqual([
      'name',
      'secret',
    ]);
    const empty = await api.request('PATCH', `/webhooks/${hook.id}`, { token: world.admin, body: {} });
    expect(empty.status).toBe(400);
    const badUrl = await api.request('PATCH', `/webhooks/${hook.id}`, {
      token: world.admin,
      body: { url: 'http://plain.example.com/' },
    });
    expect(badUrl.body.error).toBe('Invalid webhook URL');
  });

  it('deletes a webhook and its deliveries', async () => {
    const { api, context } = world.server;
    const hook = await createWebhook(world, { name: 'Doomed', events: ['device.online'] });
    await api.post(`/webhooks/${hook.id}/test`, {}, world.admin);
    await deliveryWhere(world, hook.id, (d) => d.status === 'delivered');
    const removed = await api.request('DELETE', `/webhooks/${hook.id}`, { token: world.admin });
    expect(removed.status).toBe(204);
    expect((await api.get(`/webhooks/${hook.id}`, world.admin)).status).toBe(404);
    expect((await api.get(`/webhooks/${hook.id}/deliveries`, world.admin)).status).toBe(404);
    const left = context.db
      .prepare('SELECT COUNT(*) AS n FROM webhook_deliveries WHERE webhook_id = ?')
      .get(hook.id) as { n: number };
    expect(left.n).toBe(0);
    await auditSettled(world.server);
    expect(lastAudit(world.server, 'webhook.delete', hook.id)).toBeTruthy();
  });

  it('pages deliveries newest first with a status filter (default 50, max 100)', async () => {
    const { api } = world.server;
    const hook = await createWebhook(world, { name: 'Paged', events: ['device.online'] });
    await api.request('PATCH', `/webhooks/${hook.id}`, { token: world.admin, body: { status: 'paused' } });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api.post(`/webhooks/${hook.id}/test`, { payload: { n: i } }, world.admin);
      ids.push(res.body.delivery.id as string);
    }
    const page = await api.get(`/webhooks/${hook.id}/deliveries?limit=2&status=pending`, world.admin);
    expect(page.body.pagination).toEqual({ page: 1, limit: 2, total: 3 });
    expect(page.body.data.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[1]]);
    expect(page.body.data[0].payload).toMatchObject({
      type: 'webhook.test',
      orgId: world.orgId,
      data: { n: 2 },
    });
    const big = await api.get(`/webhooks/${hook.id}/deliveries?limit=1000`, world.admin);
    expect(big.body.pagination.limit).toBe(100);
    const none = await api.get(`/webhooks/${hook.id}/deliveries?status=failed`, world.admin);
    expect(none.body.data).toEqual([]);
    const bad = await api.get(`/webhooks/${hook.id}/deliveries?status=lost`, world.admin);
    expect(bad.status).toBe(400);
  });
});
