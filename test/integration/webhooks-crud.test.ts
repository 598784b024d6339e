import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditSettled } from '../support/server';
import { lastAudit } from '../support/seed';
import { createWebhook, deliveryWhere, startWebhookWorld, type WebhookWorld } from '../support/webhook-world';

// /webhooks as spec 2 writes it: create (status active, hasSecret, never the secret), get with deliveryStats,
// list with status and orgId filters (and, beyond the spec, each webhook's recentOutcomes), patch (pause and resume), delete with its deliveries, the spec's error
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

  it('lists each webhook with recentOutcomes: its latest 24 delivery statuses, newest last', async () => {
    const { api, context } = world.server;
    const pause = (id: string) =>
      api.request('PATCH', `/webhooks/${id}`, { token: world.admin, body: { status: 'paused' } });
    // Paused, so the dispatcher leaves the rows written here as they are.
    const busy = await createWebhook(world, { name: 'Busy', events: ['device.online'] });
    const quiet = await createWebhook(world, { name: 'Quiet', events: ['device.online'] });
    const few = await createWebhook(world, { name: 'Few', events: ['device.online'] });
    await Promise.all([busy, quiet, few].map((h) => pause(h.id)));
    const insert = context.db.prepare(
      `INSERT INTO webhook_deliveries (id, webhook_id, org_id, status, event, event_id, payload, attempt,
         next_attempt_at, created_at)
       VALUES (?, ?, ?, ?, 'webhook.test', ?, '{}', 1, ?, ?)`,
    );
    const cycle = ['delivered', 'failed', 'retrying', 'delivered', 'pending'] as const;
    const write = (webhookId: string, statuses: readonly string[]) =>
      statuses.forEach((status, i) => {
        const due = status === 'pending' || status === 'retrying' ? Date.now() + 3_600_000 : null;
        // Two share each millisecond: the insertion order still decides which is newer.
        const at = new Date(Date.UTC(2026, 0, 1, 0, 0, 0, Math.floor(i / 2))).toISOString();
        insert.run(`${webhookId}-${i}`, webhookId, world.orgId, status, `e-${i}`, due, at);
      });
    const busyStatuses = Array.from({ length: 30 }, (_, i) => cycle[i % cycle.length] as string);
    write(busy.id, busyStatuses);
    write(few.id, ['failed', 'delivered']);

    const list = await api.get(`/webhooks?orgId=${world.orgId}&limit=100`, world.admin);
    expect(list.status).toBe(200);
    const outcomesOf = (id: string) =>
      (list.body.data as Array<{ id: string; recentOutcomes: string[] }>).find((w) => w.id === id)
        ?.recentOutcomes;
    expect(outcomesOf(busy.id)).toEqual(busyStatuses.slice(-24));
    expect(outcomesOf(quiet.id)).toEqual([]);
    expect(outcomesOf(few.id)).toEqual(['failed', 'delivered']);
    // Every listed webhook carries it; the single read keeps the spec's shape with deliveryStats instead.
    for (const w of list.body.data as Array<Record<string, unknown>>)
      expect(w.recentOutcomes).toEqual(expect.any(Array));
    expect((await api.get(`/webhooks/${few.id}`, world.admin)).body.recentOutcomes).toBeUndefined();
  });
});
