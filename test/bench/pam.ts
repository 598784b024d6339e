import { performance } from 'node:perf_hooks';
import type { SavedAgent } from '../../agent-sim/state';
import { consoleSocketFor, type ConsoleSocket } from '../support/console-client';
import { measure, ok, percentile, type Result } from './measure';
import {
  ADMIN,
  enrollFleet,
  json,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from './server-process';
import type { Fleet } from '../../agent-sim/fleet';

// Privileged access under load, with the server in its own process:
// - ingest-to-console-push latency: an agent reports an elevation prompt, a technician's console receives the
//   `elevation.requested` push; open loop at a fixed rate, first with the server idle (the baseline), then while
//   1,000 simulated agents heartbeat every 10 seconds and hold their WebSockets;
// - decisions per second through `respond` (session approvals, compare-and-swap, event log, inbox slots, audit)
//   under the same load, against GET /health on the same server.

const HEARTBEAT_SECONDS = 10;
const PUSH_RATE_PER_SECOND = 20;
const PUSH_SECONDS = 15;
const DECISIONS = 3000;

export async function adminToken(api: string): Promise<string> {
  const login = await fetch(`${api}/auth/login`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify(ADMIN),
  });
  return ((await login.json()) as { accessToken: string }).accessToken;
}

let reportSeq = 0;
function reportBody(): string {
  reportSeq += 1;
  return JSON.stringify({
    subject_username: `CORP\\user${reportSeq % 500}`,
    target_executable_path: `C:\\Users\\user\\Downloads\\setup-${reportSeq % 97}.exe`,
    target_executable_hash: (reportSeq % 97).toString(16).padStart(64, '0'),
    target_executable_signer: reportSeq % 3 === 0 ? null : 'Contoso Software Ltd',
    parent_image: 'C:\\Windows\\explorer.exe',
    command_line: `setup-${reportSeq % 97}.exe /quiet`,
    observed_at: new Date().toISOString(),
  });
}

/** An agent reports an elevation prompt; resolves with the request id. */
export async function report(server: ServerProcess, agent: SavedAgent): Promise<string> {
  const res = await fetch(`${server.api}/agents/${agent.agentId}/elevation-requests`, {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${agent.authToken}` },
    body: reportBody(),
  });
  const body = (await res.json()) as { id: string };
  if (res.status !== 201) throw new Error(`elevation report: HTTP ${res.status} ${JSON.stringify(body)}`);
  return body.id;
}

/**
 * Reports at a fixed rate from distinct agents (each stays far below its 10/s limit) and times each report
 * from the moment it is sent to the moment the console receives its push.
 */
async function pushLatency(
  name: string,
  server: ServerProcess,
  console: ConsoleSocket,
  agents: SavedAgent[],
  baseline?: string,
): Promise<Result> {
  const arrived = new Map<string, number>();
  console.onMessage = (m) => {
    if (m.type === 'event' && m.event === 'elevation.requested')
      arrived.set((m.data as { id: string }).id, performance.now());
  };
  const sent: Array<Promise<{ id: string; at: number }>> = [];
  const total = PUSH_RATE_PER_SECOND * PUSH_SECONDS;
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / PUSH_RATE_PER_SECOND;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const at = performance.now();
    sent.push(report(server, agents[i % agents.length]!).then((id) => ({ id, at })));
  }
  const reports = await Promise.all(sent);
  const deadline = performance.now() + 10_000;
  while (reports.some((r) => !arrived.has(r.id)) && performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
  }
  const seconds = (performance.now() - started) / 1000;
  const latencies = reports
    .filter((r) => arrived.has(r.id))
    .map((r) => arrived.get(r.id)! - r.at)
    .sort((a, b) => a - b);
  const lost = reports.length - latencies.length;
  console.onMessage = null;
  return {
    name,
    unit: 'push',
    count: latencies.length,
    seconds,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    ...(baseline ? { baseline } : {}),
    note: `open loop ${PUSH_RATE_PER_SECOND}/s${lost ? `, ${lost} pushes missing` : ''}`,
  };
}

async function decisionResults(
  server: ServerProcess,
  token: string,
  agents: SavedAgent[],
): Promise<Result[]> {
  const auth = { ...json, authorization: `Bearer ${token}` };
  const health = await measure('GET /health (baseline, same load)', 3000, 16, () =>
    ok('health', fetch(`${server.api}/health`)),
  );
  // Pending requests to decide: three per agent, a few agents at a time so no device passes its limit.
  const ids: string[] = [];
  await measure('seed', DECISIONS, 8, async (i) => {
    ids.push(await report(server, agents[i % agents.length]!));
  });
  const decisions = await measure(
    'POST respond (approve, session assurance)',
    ids.length,
    16,
    (i) =>
      ok(
        'respond',
        fetch(`${server.api}/pam/elevation-requests/${ids[i]}/respond`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ decision: i % 4 === 0 ? 'deny' : 'approve', durationMinutes: 15 }),
        }),
      ),
    { unit: 'dec', baseline: health.name, maxSeconds: 60 },
  );
  return [health, decisions];
}

export interface PamBenchOutput {
  pushes: Result[];
  decisions: Result[];
}

export async function pamBench(dataDir: string): Promise<PamBenchOutput> {
  const server = await startServerProcess(dataDir, { AGENT_HEARTBEAT_SECONDS: String(HEARTBEAT_SECONDS) });
  const fleets: Fleet[] = [];
  let socket: ConsoleSocket | null = null;
  try {
    const token = await adminToken(server.api);
    socket = await consoleSocketFor(server.url, token);
    // The baseline: a quiet server with 50 agents to report from (five heartbeats a second).
    const few = await enrollFleet(server, 50, 3);
    fleets.push(few.fleet);
    const idle = await pushLatency(
      'ingest -> console push, 50 agents (baseline)',
      server,
      socket,
      few.agents,
    );
    const many = await enrollFleet(server, 1000, 7);
    fleets.push(many.fleet);
    // One heartbeat interval for the fleet's first round (and its enrollment-time reports) to spread out.
    await new Promise((r) => setTimeout(r, HEARTBEAT_SECONDS * 1000));
    const loaded = await pushLatency(
      `ingest -> console push, 1,050 agents heartbeating every ${HEARTBEAT_SECONDS} s`,
      server,
      socket,
      many.agents,
      idle.name,
    );
    loaded.note += `; p50 ${(loaded.p50 / idle.p50).toFixed(2)}x, p99 ${(loaded.p99 / idle.p99).toFixed(2)}x the baseline`;
    const decisions = await decisionResults(server, token, many.agents);
    return { pushes: [idle, loaded], decisions };
  } finally {
    socket?.socket.close();
    await Promise.all(fleets.map((f) => f.stop()));
    await stopServerProcess(server);
  }
}
