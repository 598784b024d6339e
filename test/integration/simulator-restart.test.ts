import { describe, expect, it } from 'vitest';
import { mfaToken } from '../support/seed';
import { boot, until, tenant, useFleets } from '../support/simulator';

// Simulated agents across a server restart on the same data directory. Every wait is a poll with a deadline.

const fleet = useFleets();

describe('server restart on the same data directory', () => {
  it('agents ride through it: sockets come back, devices are online again, nothing re-enrolls', async () => {
    const first = await boot();
    const dataDir = first.dataDir;
    const port = first.port;
    const org = tenant(first);
    const f = fleet({ server: first.url, enrollmentKey: org.key, count: 3, seed: 21 });
    await until('3 connected', () => f.stats().connected === 3);
    const deviceIds = f.agents.map((a) => a.deviceId);
    await first.close();
    await until('sockets dropped', () => f.stats().connected === 0);
    // Long enough for the heartbeats to go stale (3 intervals), so the new process must see them come back.
    await new Promise((resolve) => setTimeout(resolve, 3_500));

    const second = await boot({ dataDir, port });
    const restartedAt = new Date().toISOString();
    try {
      await until('3 reconnected', () => f.stats().connected === 3, 25_000);
      const admin = await mfaToken(second);
      await until('devices online with fresh heartbeats', async () => {
        const res = await second.api.get(`/devices?orgId=${org.orgId}`, admin);
        const rows = (res.body.data ?? res.body.devices) as Array<Record<string, any>>;
        return (
          rows.length === 3 &&
          rows.every((d) => d.status === 'online' && d.lastSeenAt !== null && d.lastSeenAt > restartedAt)
        );
      });
      for (const id of deviceIds) expect(second.context.agentHub.isConnected(id!)).toBe(true);
      expect(f.stats().enrollments).toBe(3);
      expect(f.stats().reconnects).toBeGreaterThanOrEqual(3);
      expect(f.agents.every((a) => a.phase === 'running')).toBe(true);
    } finally {
      await f.stop();
      await second.dispose();
    }
  }, 60_000);
});
