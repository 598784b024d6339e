import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server';

// The demo's example webhook (issue 12 item 6: `serve --demo` creates one paused example webhook): seeded once
// in the fleet's organization, paused so the demo sends nothing, and visible to the demo partner's technicians.

const servers: TestServer[] = [];

afterAll(async () => {
  // dispose() is idempotent: it closes the server (once) and removes its data directory.
  for (const server of servers) await server.dispose();
});

describe('demo webhook', () => {
  it('serve --demo seeds one paused example webhook, once', async () => {
    const first = await startServer({ env: { SEED_DEMO: 'true', ENABLE_2FA: 'false' } });
    servers.push(first);
    const demo = first.demo!;
    const login = await first.api.login('riley.chen@northwind.demo', demo.password!);
    const list = await first.api.get('/webhooks', login.body.accessToken);
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    const [hook] = list.body.data;
    expect(hook).toMatchObject({ orgId: demo.enrollmentKey.orgId, status: 'paused', hasSecret: true });
    expect(hook.url).toMatch(/^https:\/\//);
    const detail = await first.api.get(`/webhooks/${hook.id}`, login.body.accessToken);
    expect(detail.body.deliveryStats.total).toBe(0);
    await first.close();

    // A second start on the same data directory keeps the one example.
    const second = await startServer({
      dataDir: first.dataDir,
      env: { SEED_DEMO: 'true', ENABLE_2FA: 'false' },
    });
    servers.push(second);
    const count = second.context.db.prepare('SELECT COUNT(*) AS n FROM webhooks').get() as { n: number };
    expect(count.n).toBe(1);
  });
});
