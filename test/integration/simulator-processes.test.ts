import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FleetProcesses } from '../../agent-sim/fleet-processes';
import { mintEnrollmentKey, startAgentServer } from '../support/agent-client';
import { insertOrg, insertPartner } from '../support/seed';
import type { TestServer } from '../support/server';

// One fleet over several agent-sim processes (`--processes`, the scale benchmark): each worker runs its slice of
// machine indexes against the real server, the parent sums their reports, and stopping ends every worker.

let server: TestServer;
let orgId: string;

beforeAll(async () => {
  server = await startAgentServer();
  orgId = insertOrg(server, insertPartner(server).partnerId, 'Fabrikam');
});
afterAll(async () => {
  await server.dispose();
});

async function until(what: string, probe: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a fleet over several processes', () => {
  it('enrolls and connects every slice, sums their stats, and stops every worker', async () => {
    const key = mintEnrollmentKey(server, orgId, { maxUsage: 5 });
    const fleet = new FleetProcesses({
      server: server.url,
      enrollmentKey: key.key,
      count: 5,
      processes: 2,
      seed: 4,
    });
    fleet.start();
    try {
      expect(fleet.processes).toBe(2);
      await until('5 connected', () => fleet.stats().connected === 5, 45_000);
      const stats = fleet.stats();
      expect(stats).toMatchObject({ agents: 5, enrolled: 5, failed: 0, enrollDeferrals: 0 });
      // The slices are distinct machines: five devices with five hostnames, one key use each.
      const devices = server.context.db
        .prepare('SELECT hostname FROM devices WHERE enrollment_key_id = ?')
        .all(key.id) as Array<{ hostname: string }>;
      expect(new Set(devices.map((d) => d.hostname)).size).toBe(5);
    } finally {
      await fleet.stop();
    }
    await until('sockets closed', () => server.context.agentHub.connectedCount === 0, 15_000);
  }, 90_000);
});
