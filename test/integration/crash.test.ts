// Over 400 lines: one scenario world shared by every case below (a split restarts it per file); to be split by
// describe block over a test/support world, as the devices and tenancy suites were.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import {
  enrollmentBody,
  eventually,
  TestAgent,
  type AgentCredentials,
  type AgentSocket,
} from '../support/agent-client';
import { ADMIN, ApiClient, type ApiResponse } from '../support/server';
import {
  killServerProcess,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '../support/server-process';

// Crash safety (DESIGN §6: every durable state lives in SQLite, so a crash loses nothing). The server runs as its
// own OS process, as `npm run serve` runs it. Simulated agents heartbeat, upload event and diagnostic logs and
// raise elevation requests; more agents enroll; a console approves elevations and queues commands for agents
// that are offline. Every write the server acknowledged with a 2xx is recorded. The process is then killed with
// SIGKILL while requests are in flight (no shutdown code runs), three times, and restarted on the same data
// directory each time. After every kill the SQLite file must pass `PRAGMA integrity_check` and hold every
// acknowledged write; after every restart the agents must get back in. After the last one, approval windows that
// ended while the server was down must expire through the PAM expiry job, and commands queued before the crashes
// must still reach their agents. Webhook deliveries, durable state of the same kind, have their own SIGKILL test
// in webhooks-crash.test.ts (every queued event delivered, and recorded delivered exactly once).
//
// Nothing here measures time: every wait is for a condition, with a generous deadline, so a slow machine only
// makes the test slower.

const LOUD_AGENTS = 60; // hold a socket and report continuously
const QUIET_AGENTS = 6; // offline: commands queue for them until the end
const CYCLES = 3;
/** Acknowledged writes per cycle before the kill: enough that the kill lands in the middle of steady load. */
const WRITES_BEFORE_KILL = 600;
const PROBE_SOURCE = 'CrashProbe';
const PROBE_COMPONENT = 'crash-probe';

const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-crash-'));
const ENV = {
  LOG_LEVEL: 'error',
  BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
  BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
  // The console steps of the load approve and queue commands without a TOTP round trip; MFA is not under test.
  ENABLE_2FA: 'false',
};

let server: ServerProcess | null = null;

afterAll(async () => {
  if (server) await stopServerProcess(server);
  rmSync(dataDir, { recursive: true, force: true });
});

/** What the server acknowledged (2xx), and so must still hold after any crash. */
interface Ledger {
  devices: Set<string>;
  /** Device id -> client time just before the newest acknowledged heartbeat was sent (same clock as the server). */
  heartbeats: Map<string, number>;
  /** `${deviceId}|${eventId}` of acknowledged event-log uploads (source PROBE_SOURCE). */
  events: Set<string>;
  /** Messages of acknowledged diagnostic-log uploads (component PROBE_COMPONENT); each one is unique. */
  diagnostics: Set<string>;
  elevations: Set<string>;
  approved: Set<string>;
  /** Device id -> acknowledged command ids, in queue order. */
  commands: Map<string, string[]>;
}

const ledger: Ledger = {
  devices: new Set(),
  heartbeats: new Map(),
  events: new Set(),
  diagnostics: new Set(),
  elevations: new Set(),
  approved: new Set(),
  commands: new Map(),
};
/** Acknowledged agent requests so far (heartbeats, uploads, elevation reports). */
let acknowledged = 0;
/** Every 5xx answered during the load: DESIGN §6 says a 5xx is always a bug, under load too. */
const serverErrors: string[] = [];

const ok = (status: number) => status >= 200 && status < 300;

interface Load {
  stop(): Promise<void>;
}

/**
 * Runs the load until stopped: one sequential loop per loud agent, one enrolling new agents, one console. A
 * request that fails (the process was killed under it) is simply not acknowledged; the loops carry on until told
 * to stop.
 */
function startLoad(
  api: ApiClient,
  admin: string,
  enrollmentKey: string,
  loud: TestAgent[],
  quiet: TestAgent[],
  cycle: number,
  counters: { approvals: number; commands: number },
): Load {
  let stopped = false;
  /** Sends one request; a 2xx is acknowledged, a 5xx is a bug, no answer means the server is gone (not acked). */
  const attempt = async (
    request: () => Promise<ApiResponse>,
    acknowledge: (res: ApiResponse) => void = () => {},
  ) => {
    let res: ApiResponse;
    try {
      res = await request();
    } catch {
      // Connection refused or reset: the process was killed. Back off a little instead of spinning.
      await new Promise((r) => setTimeout(r, 20));
      return;
    }
    if (res.status >= 500) serverErrors.push(`${res.status} ${JSON.stringify(res.body)}`);
    else if (ok(res.status)) acknowledge(res);
  };

  const agentLoop = async (agent: TestAgent, index: number) => {
    const deviceId = agent.creds.deviceId;
    for (let round = 0; !stopped; round++) {
      const tag = `${cycle}.${index}.${round}`;
      const sent = Date.now();
      await attempt(
        () => agent.heartbeat({ uptimeSeconds: round, metrics: { cpuPercent: round % 100 } }),
        () => {
          ledger.heartbeats.set(deviceId, sent);
          acknowledged++;
        },
      );
      const eventIds = [0, 1, 2, 3, 4].map((i) => `${tag}.${i}`);
      await attempt(
        () =>
          agent.eventlogs(
            eventIds.map((eventId) => ({
              timestamp: new Date().toISOString(),
              level: 'warning',
              category: 'application',
              source: PROBE_SOURCE,
              eventId,
              message: `probe event ${eventId}`,
            })),
          ),
        () => {
          for (const id of eventIds) ledger.events.add(`${deviceId}|${id}`);
          acknowledged++;
        },
      );
      const messages = [0, 1, 2].map((i) => `probe log ${deviceId} ${tag}.${i}`);
      await attempt(
        () =>
          agent.logs(
            messages.map((message) => ({
              timestamp: new Date().toISOString(),
              level: 'info',
              component: PROBE_COMPONENT,
              message,
            })),
          ),
        () => {
          for (const m of messages) ledger.diagnostics.add(m);
          acknowledged++;
        },
      );
      if (round % 4 === index % 4) {
        await attempt(
          () =>
            agent.api.request('POST', `${agent.path}/elevation-requests`, {
              token: agent.creds.authToken,
              body: {
                subject_username: `user${index}`,
                target_executable_path: `C:\\Tools\\setup-${tag}.exe`,
                target_executable_hash: randomBytes(32).toString('hex'),
                target_executable_signer: 'Contoso Software',
                flow_type: 'uac_intercept',
              },
            }),
          (res) => {
            ledger.elevations.add(res.body.id as string);
            acknowledged++;
          },
        );
      }
    }
  };

  const enrollLoop = async () => {
    for (let n = 0; !stopped; n++) {
      await attempt(
        () => api.post('/agents/enroll', enrollmentBody(enrollmentKey, { hostname: `late-${cycle}-${n}` })),
        (res) => ledger.devices.add((res.body as AgentCredentials).deviceId),
      );
    }
  };

  const consoleLoop = async () => {
    const decided = new Set<string>();
    for (let n = 0; !stopped; n++) {
      const pending = [...ledger.elevations].find((id) => !decided.has(id));
      if (pending) {
        decided.add(pending);
        await attempt(
          () =>
            api.request('POST', `/pam/elevation-requests/${pending}/respond`, {
              token: admin,
              body: { decision: 'approve', durationMinutes: 60 },
            }),
          () => {
            ledger.approved.add(pending);
            counters.approvals++;
          },
        );
      }
      const target = quiet[n % quiet.length]!;
      await attempt(
        () =>
          api.request('POST', `/devices/${target.creds.deviceId}/commands`, {
            token: admin,
            body: {
              type: 'dev_update',
              payload: {
                downloadUrl: `https://downloads.example.test/agent-${cycle}-${n}.bin`,
                checksum: randomBytes(32).toString('hex'),
              },
            },
          }),
        (res) => {
          const list = ledger.commands.get(target.creds.deviceId) ?? [];
          list.push(res.body.id as string);
          ledger.commands.set(target.creds.deviceId, list);
          counters.commands++;
        },
      );
    }
  };

  const loops = [...loud.map((a, i) => agentLoop(a, i)), enrollLoop(), consoleLoop()];
  return {
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

/** Opens the socket of every loud agent, retrying while the server comes up; resolves once each got `connected`. */
async function connectAll(agents: TestAgent[]): Promise<AgentSocket[]> {
  return Promise.all(
    agents.map(async (agent) => {
      // eventually() resolves with the first truthy value: an open socket.
      const socket = (await eventually(() => agent.connect().catch(() => null), 30_000, 100)) as AgentSocket;
      await socket.next((m) => m.type === 'connected', 30_000);
      return socket;
    }),
  );
}

/** Checks the data directory as the crash left it, with a connection of our own (the server is down). */
function checkDatabase(options: { endApprovedWindows: boolean }): void {
  const db = new Database(join(dataDir, 'gatehouse.db'));
  try {
    expect(db.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    const ids = (sql: string, list: Iterable<string>) =>
      new Set((db.prepare(sql).all(JSON.stringify([...list])) as Array<{ id: string }>).map((r) => r.id));
    const missing = (acked: Iterable<string>, found: Set<string>) =>
      [...acked].filter((id) => !found.has(id));

    const devices = ids(
      'SELECT id FROM devices WHERE id IN (SELECT value FROM json_each(?))',
      ledger.devices,
    );
    expect(missing(ledger.devices, devices), 'acknowledged enrollments').toEqual([]);

    const seen = new Map(
      (
        db
          .prepare('SELECT id, last_seen_at FROM devices WHERE id IN (SELECT value FROM json_each(?))')
          .all(JSON.stringify([...ledger.heartbeats.keys()])) as Array<{
          id: string;
          last_seen_at: string | null;
        }>
      ).map((r) => [r.id, r.last_seen_at ? Date.parse(r.last_seen_at) : 0]),
    );
    const stale = [...ledger.heartbeats].filter(([id, sent]) => (seen.get(id) ?? 0) < sent);
    expect(stale, 'devices whose last-seen predates an acknowledged heartbeat').toEqual([]);

    const events = new Set(
      (
        db
          .prepare('SELECT device_id, event_id FROM device_event_logs WHERE source = ?')
          .all(PROBE_SOURCE) as Array<{
          device_id: string;
          event_id: string;
        }>
      ).map((r) => `${r.device_id}|${r.event_id}`),
    );
    expect(missing(ledger.events, events), 'acknowledged event-log rows').toEqual([]);

    const diagnostics = new Set(
      (
        db.prepare('SELECT message FROM diagnostic_logs WHERE component = ?').all(PROBE_COMPONENT) as Array<{
          message: string;
        }>
      ).map((r) => r.message),
    );
    expect(missing(ledger.diagnostics, diagnostics), 'acknowledged diagnostic-log rows').toEqual([]);

    const elevations = ids(
      'SELECT id FROM elevation_requests WHERE id IN (SELECT value FROM json_each(?))',
      ledger.elevations,
    );
    expect(missing(ledger.elevations, elevations), 'acknowledged elevation requests').toEqual([]);
    const approved = ids(
      "SELECT id FROM elevation_requests WHERE status = 'approved' AND id IN (SELECT value FROM json_each(?))",
      ledger.approved,
    );
    expect(missing(ledger.approved, approved), 'acknowledged approvals').toEqual([]);

    const acked = [...ledger.commands.values()].flat();
    const queued = ids(
      "SELECT id FROM device_commands WHERE status = 'pending' AND id IN (SELECT value FROM json_each(?))",
      acked,
    );
    expect(missing(acked, queued), 'acknowledged queued commands').toEqual([]);

    if (options.endApprovedWindows) {
      // The shortest window the API grants is a minute. Rather than wait it out, end the approved windows while
      // the server is down, as the clock would have: the first expiry sweep after the restart must catch up.
      db.prepare(
        "UPDATE elevation_requests SET expires_at = ? WHERE status = 'approved' AND id IN (SELECT value FROM json_each(?))",
      ).run(new Date(Date.now() - 1000).toISOString(), JSON.stringify([...ledger.approved]));
    }
  } finally {
    db.close();
  }
}

describe('crash safety', () => {
  it('keeps every acknowledged write and recovers after SIGKILL under agent load, three times', async () => {
    server = await startServerProcess(dataDir, { env: ENV });
    const port = server.port;
    const api = new ApiClient(server.url);

    // The tenant: one partner and organization, an enrollment key, and the agents.
    const login = await api.login();
    expect(login.status).toBe(200);
    const admin = login.body.accessToken as string;
    const partner = await api.request('POST', '/orgs/partners', {
      token: admin,
      body: { name: 'Crash MSP', slug: `crash-${randomUUID().slice(0, 8)}` },
    });
    expect(partner.status).toBe(201);
    const org = await api.request('POST', '/orgs/organizations', {
      token: admin,
      body: { partnerId: partner.body.id, name: 'Crash Org', slug: 'crash-org' },
    });
    expect(org.status).toBe(201);
    const key = await api.request('POST', '/enrollment-keys', {
      token: admin,
      body: {
        orgId: org.body.id,
        name: 'crash fleet',
        maxUsage: 100_000,
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    expect(key.status).toBe(201);
    const enrollmentKey = key.body.key as string;
    const enroll = async (hostname: string) => {
      const res = await api.post('/agents/enroll', enrollmentBody(enrollmentKey, { hostname }));
      expect(res.status).toBe(201);
      ledger.devices.add(res.body.deviceId);
      return res.body as AgentCredentials;
    };
    const loud: TestAgent[] = [];
    const quiet: TestAgent[] = [];
    for (let i = 0; i < LOUD_AGENTS; i++) loud.push(new TestAgent(server.url, await enroll(`loud-${i}`)));
    for (let i = 0; i < QUIET_AGENTS; i++) quiet.push(new TestAgent(server.url, await enroll(`quiet-${i}`)));
    let sockets = await connectAll(loud);

    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      const counters = { approvals: 0, commands: 0 };
      const before = acknowledged;
      const load = startLoad(api, admin, enrollmentKey, loud, quiet, cycle, counters);
      // Kill in the middle of steady load: once enough writes of every kind were acknowledged in this cycle.
      await eventually(
        () => acknowledged - before >= WRITES_BEFORE_KILL && counters.approvals > 0 && counters.commands > 0,
        45_000,
        10,
      );
      await killServerProcess(server);
      await load.stop();
      await Promise.all(sockets.map((s) => s.closed));

      checkDatabase({ endApprovedWindows: cycle === CYCLES });

      server = await startServerProcess(dataDir, { env: ENV, port });
      // Agents reconnect with the credentials they enrolled with, and their reports are taken again.
      sockets = await connectAll(loud);
      const heartbeat = await loud[0]!.heartbeat();
      expect(heartbeat.status).toBe(200);
    }

    expect(serverErrors).toEqual([]);

    // Approval windows that ended while the server was down expire through the expiry job (it sweeps every few
    // seconds; the first sweep after start catches up).
    expect(ledger.approved.size).toBeGreaterThan(0);
    for (const id of ledger.approved) {
      await eventually(
        async () => {
          const res = await api.get(`/pam/elevation-requests/${id}`, admin);
          expect(res.status).toBe(200);
          return res.body.request.status === 'expired';
        },
        30_000,
        100,
      );
    }

    // Commands queued for the offline agents before the crashes are handed over on their next heartbeat, in order.
    for (const agent of quiet) {
      const acked = ledger.commands.get(agent.creds.deviceId) ?? [];
      const res = await agent.heartbeat();
      expect(res.status).toBe(200);
      const delivered = (res.body.commands as Array<{ id: string }>).map((c) => c.id);
      // A command whose answer was lost in a crash may be there too; the acknowledged ones keep their order.
      expect(delivered.filter((id) => acked.includes(id))).toEqual(acked);
    }

    for (const socket of sockets) await socket.close();
  }, 180_000);
});
