import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { enrollmentBody, eventually } from '../support/agent-client';
import { ADMIN, ApiClient, type ApiResponse } from '../support/server';
import {
  killServerProcess,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '../support/server-process';
import {
  createTestCa,
  eventIdOf,
  startReceiver,
  type ReceivedRequest,
  type Receiver,
} from '../support/webhook-receiver';

// Webhook deliveries survive a crash (issue 12; DESIGN §6). The server runs as its own process and trusts the
// receiver's throwaway CA through NODE_EXTRA_CA_CERTS. Under steady load (agents enrolling, each a
// `device.enrolled` event; test deliveries queued through the API) the receiver is slow and refuses the first
// attempt of every event, so at any moment some deliveries are pending, some in flight and some waiting to
// retry. The process is killed with SIGKILL twice and restarted on the same data directory. Every event whose
// cause the server acknowledged must then reach the receiver, and be recorded delivered exactly once (a receiver
// may see an event twice when the answer was lost in the crash; it dedupes by X-Service-Event-Id).

const CYCLES = 2;
const ACKS_BEFORE_KILL = 30;

const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-webhook-crash-'));
const ca = createTestCa();
let receiver: Receiver | null = null;
let server: ServerProcess | null = null;

afterAll(async () => {
  if (server) await stopServerProcess(server);
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
  ca.dispose();
});

const ENV = {
  LOG_LEVEL: 'error',
  BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
  BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
  ENABLE_2FA: 'false',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  NODE_EXTRA_CA_CERTS: ca.caFile,
};

/** What the server acknowledged, and so must reach the receiver. */
const ledger = { testDeliveries: new Set<string>(), enrolledDevices: new Set<string>() };
/** Event ids the receiver answered 2xx to, and the first attempts it refused. */
const accepted = new Map<string, ReceivedRequest>();
const refusedOnce = new Set<string>();
let acks = 0;
const serverErrors: string[] = [];

function startLoad(api: ApiClient, admin: string, enrollmentKey: string, webhookId: string) {
  let stopped = false;
  const attempt = async (request: () => Promise<ApiResponse>, acknowledge: (res: ApiResponse) => void) => {
    let res: ApiResponse;
    try {
      res = await request();
    } catch {
      await new Promise((r) => setTimeout(r, 20));
      return;
    }
    if (res.status >= 500) serverErrors.push(`${res.status} ${JSON.stringify(res.body)}`);
    else if (res.status >= 200 && res.status < 300) {
      acknowledge(res);
      acks++;
    }
  };
  const enrollLoop = async () => {
    while (!stopped)
      await attempt(
        () => api.post('/agents/enroll', enrollmentBody(enrollmentKey, { hostname: `wh-${randomUUID()}` })),
        (res) => ledger.enrolledDevices.add(res.body.deviceId as string),
      );
  };
  const testLoop = async () => {
    while (!stopped)
      await attempt(
        () => api.post(`/webhooks/${webhookId}/test`, { payload: { n: acks } }, admin),
        (res) => ledger.testDeliveries.add(res.body.delivery.id as string),
      );
  };
  const loops = [enrollLoop(), testLoop()];
  return {
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

/** After a kill, with our own connection: every acknowledged cause has its delivery row. */
function checkQueued(): void {
  const db = new Database(join(dataDir, 'gatehouse.db'), { readonly: true });
  try {
    expect(db.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    const ids = new Set(
      (db.prepare('SELECT id FROM webhook_deliveries').all() as Array<{ id: string }>).map((r) => r.id),
    );
    expect(
      [...ledger.testDeliveries].filter((id) => !ids.has(id)),
      'acknowledged test deliveries',
    ).toEqual([]);
    const enrolled = new Set(
      (
        db
          .prepare(
            "SELECT json_extract(payload, '$.data.deviceId') AS device FROM webhook_deliveries WHERE event = 'device.enrolled'",
          )
          .all() as Array<{ device: string }>
      ).map((r) => r.device),
    );
    expect(
      [...ledger.enrolledDevices].filter((id) => !enrolled.has(id)),
      'acknowledged enrollments',
    ).toEqual([]);
  } finally {
    db.close();
  }
}

describe('webhook crash safety', () => {
  it('delivers every acknowledged event exactly once (by event id) across SIGKILLs', async () => {
    receiver = await startReceiver(ca);
    receiver.reply = (request) => {
      const eventId = eventIdOf(request);
      // Slow enough that attempts are in flight when the process dies.
      if (!refusedOnce.has(eventId)) {
        refusedOnce.add(eventId);
        return { status: 503, body: 'try again', delayMs: 30 };
      }
      if (!accepted.has(eventId)) accepted.set(eventId, request);
      return { status: 200, body: 'ok', delayMs: 30 };
    };

    server = await startServerProcess(dataDir, { env: ENV });
    const port = server.port;
    const api = new ApiClient(server.url);
    const admin = (await api.login()).body.accessToken as string;
    const partner = await api.request('POST', '/orgs/partners', {
      token: admin,
      body: { name: 'Hook MSP', slug: `hook-${randomUUID().slice(0, 8)}` },
    });
    const org = await api.request('POST', '/orgs/organizations', {
      token: admin,
      body: { partnerId: partner.body.id, name: 'Hook Org', slug: 'hook-org' },
    });
    const key = await api.request('POST', '/enrollment-keys', {
      token: admin,
      body: {
        orgId: org.body.id,
        name: 'hooks',
        maxUsage: 100_000,
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    expect(key.status).toBe(201);
    const hook = await api.request('POST', '/webhooks', {
      token: admin,
      body: {
        name: 'crash receiver',
        url: `${receiver.url}/hook`,
        secret: 'crash-secret',
        events: ['device.enrolled'],
        orgId: org.body.id,
      },
    });
    expect(hook.status).toBe(201);

    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      const before = acks;
      const refusedBefore = refusedOnce.size;
      const load = startLoad(api, admin, key.body.key as string, hook.body.id as string);
      // Kill once enough was acknowledged and deliveries are being refused (so retries are scheduled).
      await eventually(
        () => acks - before >= ACKS_BEFORE_KILL && refusedOnce.size - refusedBefore >= 5,
        30_000,
        10,
      );
      await killServerProcess(server);
      await load.stop();
      checkQueued();
      server = await startServerProcess(dataDir, { env: ENV, port });
    }
    expect(serverErrors).toEqual([]);

    // Every acknowledged cause reaches the receiver (a retry comes 1 s after a refused first attempt).
    const db = () => new Database(join(dataDir, 'gatehouse.db'), { readonly: true });
    await eventually(
      () => {
        const conn = db();
        try {
          const open = conn
            .prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status IN ('pending', 'retrying')")
            .get() as { n: number };
          return open.n === 0;
        } finally {
          conn.close();
        }
      },
      60_000,
      100,
    );
    const conn = db();
    try {
      const rows = conn
        .prepare('SELECT id, event, event_id, status, payload FROM webhook_deliveries')
        .all() as Array<{ id: string; event: string; event_id: string; status: string; payload: string }>;
      expect(rows.filter((r) => r.status !== 'delivered')).toEqual([]);
      // Exactly one delivered record per event.
      const perEvent = new Map<string, number>();
      for (const r of rows) perEvent.set(r.event_id, (perEvent.get(r.event_id) ?? 0) + 1);
      expect([...perEvent].filter(([, n]) => n !== 1)).toEqual([]);
      // And the receiver accepted each of them.
      expect(rows.filter((r) => !accepted.has(r.event_id)).map((r) => r.event)).toEqual([]);
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const id of ledger.testDeliveries) expect(byId.get(id)?.status, id).toBe('delivered');
      const devices = new Set(
        rows
          .filter((r) => r.event === 'device.enrolled')
          .map((r) => (JSON.parse(r.payload) as { data: { deviceId: string } }).data.deviceId),
      );
      expect([...ledger.enrolledDevices].filter((id) => !devices.has(id))).toEqual([]);
      expect(ledger.testDeliveries.size + ledger.enrolledDevices.size).toBeGreaterThanOrEqual(
        CYCLES * ACKS_BEFORE_KILL,
      );
    } finally {
      conn.close();
    }
  }, 180_000);
});
