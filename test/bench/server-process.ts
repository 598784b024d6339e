import { readFileSync } from 'node:fs';
import { Fleet } from '../../agent-sim/fleet';
import { MemoryCredentialStore, type SavedAgent } from '../../agent-sim/state';
import { startServerProcess as startProcess, type ServerProcess } from '../support/server-process';

// The server as `npm run serve` runs it, in its own process (so its memory can be read from /proc and the
// simulated fleet does not share its event loop), and a simulated fleet enrolled into it. Shared by the agent
// and PAM benchmarks; the process itself is started by the test helper the crash suite uses too.

export { ROOT, stopServerProcess, type ServerProcess } from '../support/server-process';
export const ADMIN = { email: 'bench@gatehouse.test', password: 'Throughput-Probe-2026' };
export const json = { 'content-type': 'application/json' };

export function startServerProcess(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  return startProcess(dataDir, {
    env: {
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      // The bench administrator creates enrollment keys without a TOTP step.
      ENABLE_2FA: 'false',
      SEED_DEMO: 'true',
      // Agents get a long interval: the benchmark drives heartbeats itself, closed loop.
      AGENT_HEARTBEAT_SECONDS: '3600',
      ...env,
    },
    // To see where the server's time goes: BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof".
    nodeArgs: process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean),
  });
}

/** Resident and peak resident memory of a process, in MB (Linux /proc). */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/** CPU seconds (user + system) a process has used so far (Linux /proc; clock ticks of 1/100 s). */
export function cpuSecondsOf(pid: number): number {
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis are fixed.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / 100;
}

export async function enrollmentKey(api: string, maxUsage: number): Promise<string> {
  const login = await fetch(`${api}/auth/login`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify(ADMIN),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const auth = { ...json, authorization: `Bearer ${accessToken}` };
  const orgs = (await (await fetch(`${api}/orgs/organizations?limit=100`, { headers: auth })).json()) as {
    data: Array<{ id: string; name: string }>;
  };
  const org = orgs.data[0];
  if (!org) throw new Error('no organization to enroll into');
  const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
  const res = await fetch(`${api}/enrollment-keys`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ orgId: org.id, name: `Bench ${maxUsage}`, maxUsage, expiresAt }),
  });
  if (!res.ok) throw new Error(`enrollment key: HTTP ${res.status} ${await res.text()}`);
  return ((await res.json()) as { key: string }).key;
}

/** Enrolls `count` simulated agents (they keep their WebSockets) and returns their saved credentials. */
export async function enrollFleet(
  server: ServerProcess,
  count: number,
  seed: number,
): Promise<{ fleet: Fleet; agents: SavedAgent[] }> {
  const credentials = new MemoryCredentialStore();
  const fleet = new Fleet({
    server: server.url,
    enrollmentKey: await enrollmentKey(server.api, count),
    count,
    seed,
    credentials,
    enrollConcurrency: 32,
  });
  fleet.start();
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    const stats = fleet.stats();
    if (stats.failed > 0) throw new Error(`agents failed: ${stats.lastError}`);
    if (stats.enrolled === count && stats.connected === count) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const agents = Array.from({ length: count }, (_, i) => credentials.get(i))
    .map((slot) => (slot?.state === 'active' ? slot.agent : null))
    .filter((a): a is SavedAgent => a !== null);
  if (agents.length !== count) throw new Error(`only ${agents.length} of ${count} agents enrolled`);
  return { fleet, agents };
}
