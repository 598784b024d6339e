import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from '../../server/index';
import type { WebhookOptions } from '../../server/modules/webhooks';
import { eventually } from './agent-client';
import { insertOrg, insertPartner } from './seed';
import { ADMIN, ApiClient, type ApiResponse, type TestServer } from './server';
import { createTestCa, startReceiver, type Receiver, type TestCa } from './webhook-receiver';

// A server with webhooks switched on against a local HTTPS receiver: WEBHOOK_ALLOW_PRIVATE_TARGETS (the receiver
// is on loopback), the receiver's throwaway CA trusted through the webhooks `ca` option (the server runs inside
// the test process, where NODE_EXTRA_CA_CERTS can no longer be set), MFA off (not under test here), and a
// partner with one organization.

export interface WebhookWorld {
  server: TestServer;
  ca: TestCa;
  receiver: Receiver;
  /** The bootstrap system administrator's access token. */
  admin: string;
  partnerId: string;
  orgId: string;
  dispose(): Promise<void>;
}

export async function startWebhookServer(
  ca: TestCa,
  options: { env?: Record<string, string>; webhooks?: WebhookOptions } = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-webhooks-'));
  const server = await createServer({
    dataDir,
    port: 0,
    host: '127.0.0.1',
    staticDir: null,
    env: {
      LOG_LEVEL: 'silent',
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      ENABLE_2FA: 'false',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      ...options.env,
    },
    webhooks: { ca: ca.caPem, pollIntervalMs: 50, ...options.webhooks },
  });
  return {
    ...server,
    dataDir,
    api: new ApiClient(server.url),
    async dispose() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function startWebhookWorld(
  options: { env?: Record<string, string>; webhooks?: WebhookOptions } = {},
): Promise<WebhookWorld> {
  const ca = createTestCa();
  const receiver = await startReceiver(ca);
  const server = await startWebhookServer(ca, options);
  const login = await server.api.login();
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  const { partnerId } = insertPartner(server, { name: 'Hooks MSP' });
  const orgId = insertOrg(server, partnerId, 'Hooks Org');
  return {
    server,
    ca,
    receiver,
    admin: login.body.accessToken as string,
    partnerId,
    orgId,
    async dispose() {
      await server.dispose();
      await receiver.close();
      ca.dispose();
    },
  };
}

/** Creates a webhook through the API as the system administrator; fails the test on anything but 201. */
export async function createWebhook(
  world: WebhookWorld,
  body: Record<string, unknown>,
): Promise<Record<string, unknown> & { id: string }> {
  const res = await world.server.api.request('POST', '/webhooks', {
    token: world.admin,
    body: { name: 'Receiver', url: `${world.receiver.url}/hook`, orgId: world.orgId, ...body },
  });
  if (res.status !== 201) throw new Error(`create webhook: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Record<string, unknown> & { id: string };
}

/** The deliveries of a webhook, newest first (one page of up to 100). */
export async function deliveriesOf(
  world: WebhookWorld,
  webhookId: string,
  query = '',
): Promise<Array<Record<string, any>>> {
  const res: ApiResponse = await world.server.api.get(
    `/webhooks/${webhookId}/deliveries?limit=100${query}`,
    world.admin,
  );
  if (res.status !== 200) throw new Error(`deliveries: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as Array<Record<string, any>>;
}

/** Waits until one delivery of the webhook satisfies `predicate`; returns it. */
export async function deliveryWhere(
  world: WebhookWorld,
  webhookId: string,
  predicate: (delivery: Record<string, any>) => boolean,
  timeoutMs = 10_000,
): Promise<Record<string, any>> {
  return eventually(
    async () => (await deliveriesOf(world, webhookId)).find(predicate) ?? null,
    timeoutMs,
    25,
  ) as Promise<Record<string, any>>;
}
