// The console's webhook tests need what fixtures.startServer gives (a real server in this process on a fresh
// data directory, serving the built console, with the demo tenant) plus a local HTTPS receiver the server trusts.
// The server runs inside the Playwright process, where NODE_EXTRA_CA_CERTS can no longer take effect, so the
// receiver's throwaway CA is handed to the webhooks `ca` option, as the integration tests do
// (test/support/webhook-world.ts); WEBHOOK_ALLOW_PRIVATE_TARGETS lets webhooks reach the loopback receiver.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer } from '../../server/index';
import { createTestCa, startReceiver, type Receiver, type TestCa } from '../support/webhook-receiver';
import type { TestServer } from './fixtures';

export interface WebhookConsoleWorld {
  ts: TestServer;
  ca: TestCa;
  receiver: Receiver;
  dispose(): Promise<void>;
}

export async function startWebhookConsole(env: Record<string, string> = {}): Promise<WebhookConsoleWorld> {
  const ca = createTestCa();
  const receiver = await startReceiver(ca);
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-e2e-webhooks-'));
  const server = await createServer({
    dataDir,
    port: 0,
    host: '127.0.0.1',
    staticDir: resolve('out/renderer'),
    env: { ...process.env, LOG_LEVEL: 'warn', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', ...env },
    // A short poll so a retry scheduled by the clock is picked up promptly; new work wakes the dispatcher anyway.
    webhooks: { ca: ca.caPem, pollIntervalMs: 100 },
  });
  const ts: TestServer = {
    server,
    url: `http://localhost:${server.port}`,
    dataDir,
    stop: async () => {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return {
    ts,
    ca,
    receiver,
    async dispose() {
      await ts.stop();
      await receiver.close();
      ca.dispose();
    },
  };
}
