import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { Fleet, type FleetOptions } from '../../agent-sim/fleet';
import { getScenario, type Scenario } from '../../agent-sim/scenarios';
import { agentIdentity, type AgentIdentity } from '../../agent-sim/identity';
import { simulatedDemoFleet } from '../../app/demo-fleet';
import { createServer } from '../../server/index';
import { insertEnrollmentKey } from '../../server/modules/enrollment-keys/service';
import { insertOrg, insertPartner, insertSite } from './seed';
import { ADMIN, ApiClient, type TestServer } from './server';

// Shared by the simulator suites (test/integration/simulator-*.test.ts): a server with fast heartbeats and the demo
// fleet plugged in, polling with a deadline, picking agents by machine, a tenant with an enrollment key, a quiet
// scenario, and fleets stopped after each test (useFleets).

export const HEARTBEAT_ENV = { AGENT_HEARTBEAT_SECONDS: '1' };
export const AGENT_TIMINGS = { pingIntervalMs: 1_000, presenceSweepMs: 500 };

export async function boot(
  options: { dataDir?: string; port?: number; env?: Record<string, string> } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'gatehouse-sim-'));
  const server = await createServer({
    dataDir,
    port: options.port ?? 0,
    host: '127.0.0.1',
    staticDir: null,
    env: {
      LOG_LEVEL: 'silent',
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      ...HEARTBEAT_ENV,
      ...options.env,
    },
    agentTimings: AGENT_TIMINGS,
    demoFleet: simulatedDemoFleet,
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

/** Polls `probe` until it returns a truthy value; fails with `what` and the last value after `timeoutMs`. */
export async function until<T>(
  what: string,
  probe: () => T | Promise<T>,
  timeoutMs = 15_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (last) return last as NonNullable<T>;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Agent indexes of `seed` whose machine matches, so a test can pick a Linux or a non-Linux box. */
export function indexesWhere(seed: number, match: (id: AgentIdentity) => boolean, count: number): number[] {
  const out: number[] = [];
  for (let i = 0; out.length < count && i < 500; i++) if (match(agentIdentity(seed, i))) out.push(i);
  return out;
}

export function tenant(server: TestServer) {
  const { partnerId } = insertPartner(server, { name: 'Sim MSP' });
  const orgId = insertOrg(server, partnerId, `Sim Org ${partnerId.slice(0, 6)}`);
  const siteId = insertSite(server, orgId, 'Main office');
  const { key } = insertEnrollmentKey(server.context, {
    orgId,
    siteId,
    name: 'simulator test',
    maxUsage: 100,
    createdBy: 'test',
  });
  return { partnerId, orgId, siteId, key };
}

/** Steady, without new OS events: a live query's answer can be compared with the agent's own log. */
export const quiet: Scenario = {
  ...getScenario('steady')!,
  name: 'quiet',
  events: { perBurst: [0, 0], everyHeartbeats: 1, backfill: 0 },
};

/** Starts fleets for a test; every fleet started is stopped after each test. */
export function useFleets(): (options: FleetOptions) => Fleet {
  const fleets: Fleet[] = [];
  afterEach(async () => {
    await Promise.all(fleets.splice(0).map((f) => f.stop()));
  });
  return (options) => {
    const f = new Fleet({ enrollConcurrency: 4, ...options });
    fleets.push(f);
    f.start();
    return f;
  };
}
