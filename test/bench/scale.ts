import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { FleetProcesses } from '../../agent-sim/fleet-processes';
import type { Fleet, FleetStats } from '../../agent-sim/fleet';
import type { SavedAgent } from '../../agent-sim/state';
import { consoleSocketFor, type ConsoleSocket } from '../support/console-client';
import { freePort } from '../support/server-process';
import { percentile } from './measure';
import { adminToken, report } from './pam';
import {
  enrollFleet,
  enrollmentKey,
  json,
  cpuSecondsOf,
  memoryOf,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from './server-process';

// `npm run bench -- scale [--agents N] [--processes P]`: one server in its own process holding a fleet of simulated
// agents (default 10,000) spread over several agent-sim processes, each enrolling, keeping its WebSocket and
// heartbeating at the server's normal interval (60 s). Measured twice in the same run, on the idle server and
// under the fleet, so the figures read as ratios on this shared machine:
// - a probe agent's heartbeat round trip (open loop, 10 a second), p50/p99;
// - elevation push: a probe agent reports an elevation prompt, a technician console receives
//   `elevation.requested` (open loop, 10 a second), p50/p99;
// - the server's event loop delay p99/max, read from inside the server process by test/bench/loop-probe.mjs
//   (preloaded with NODE_OPTIONS; perf_hooks.monitorEventLoopDelay behind a loopback port of its own), so the
//   product carries no benchmark endpoint;
// - resident memory per agent, (RSS loaded - RSS idle) / agents, from /proc;
// - the time for the whole fleet to enroll and connect, the enrollments the server paced (429, honoured) and the
//   ones that failed.

const PROBE_AGENTS = 20;
const PROBE_RATE = 10;
const IDLE_SECONDS = 20;
/** Past two ping rounds of the agent hub (25 s apart) and most of a heartbeat interval. */
const LOADED_SECONDS = 60;
const CONNECT_TIMEOUT_MS = 240_000;
const STALL_SECONDS = 45;

export interface ScaleOptions {
  agents: number;
  /** Agent-sim worker processes (default: one per core, at least 2, and no more than one per 2,500 agents). */
  processes?: number | undefined;
}

export interface Percentiles {
  count: number;
  p50: number;
  p99: number;
  max: number;
  lost: number;
}

export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
  mean: number;
  samples: number;
}

export interface Phase {
  heartbeat: Percentiles;
  push: Percentiles;
  loop: LoopDelay;
  rssMb: number;
  /** The server's CPU use over the phase, in cores (1 = one core busy all the time). */
  cpuCores: number;
}

export interface ScaleOutput {
  agents: number;
  processes: number;
  idle: Phase;
  loaded: Phase;
  /** The event loop while the fleet enrolled and connected. */
  stormLoop: LoopDelay;
  /** The server's CPU use while the fleet enrolled and connected, in cores. */
  stormCpuCores: number;
  enrolledSeconds: number | null;
  connectedSeconds: number | null;
  fleet: FleetStats;
  /** What the server holds for the fleet's key: devices made and uses counted (equal to the agents: no orphans). */
  devices: number;
  keyUses: number;
  rssPerAgentKb: number;
}

/** The fleet's devices and key uses, read from the server's database file (read-only, beside the running server). */
function keyFootprint(dataDir: string, keyName: string): { devices: number; keyUses: number } {
  const db = new Database(join(dataDir, 'gatehouse.db'), { readonly: true });
  try {
    const row = db
      .prepare(
        `SELECT k.usage_count AS keyUses, (SELECT count(*) FROM devices d WHERE d.enrollment_key_id = k.id) AS devices
         FROM enrollment_keys k WHERE k.name = ?`,
      )
      .get(keyName) as { keyUses: number; devices: number } | undefined;
    return row ?? { devices: 0, keyUses: 0 };
  } finally {
    db.close();
  }
}

function summarize(latencies: number[], lost: number): Percentiles {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? 0,
    lost,
  };
}

/** Fires `fire(i)` at a fixed rate for `seconds` (open loop: a slow answer never delays the next one). */
async function openLoop(seconds: number, fire: (i: number) => Promise<void>): Promise<void> {
  const total = PROBE_RATE * seconds;
  const started = performance.now();
  const inflight: Array<Promise<void>> = [];
  for (let i = 0; i < total; i++) {
    const wait = started + (i * 1000) / PROBE_RATE - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    inflight.push(fire(i));
  }
  await Promise.all(inflight);
}

async function heartbeatProbe(
  server: ServerProcess,
  agent: SavedAgent,
  seconds: number,
): Promise<Percentiles> {
  const latencies: number[] = [];
  let lost = 0;
  const body = JSON.stringify({ status: 'ok', agentVersion: agent.agentVersion, metrics: { cpuPercent: 5 } });
  await openLoop(seconds, async () => {
    const t = performance.now();
    try {
      const res = await fetch(`${server.api}/agents/${agent.agentId}/heartbeat`, {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${agent.authToken}` },
        body,
      });
      await res.arrayBuffer();
      if (res.ok) latencies.push(performance.now() - t);
      else lost++;
    } catch {
      lost++;
    }
  });
  return summarize(latencies, lost);
}

/** Agent report -> console push of `elevation.requested`, reports spread over the probe agents. */
async function pushProbe(
  server: ServerProcess,
  technician: ConsoleSocket,
  agents: SavedAgent[],
  seconds: number,
): Promise<Percentiles> {
  const arrived = new Map<string, number>();
  technician.onMessage = (m) => {
    if (m.type === 'event' && m.event === 'elevation.requested')
      arrived.set((m.data as { id: string }).id, performance.now());
  };
  const sent: Array<{ id: string; at: number }> = [];
  let lost = 0;
  await openLoop(seconds, async (i) => {
    const at = performance.now();
    try {
      sent.push({ id: await report(server, agents[i % agents.length]!), at });
    } catch {
      lost++;
    }
  });
  const deadline = performance.now() + 10_000;
  while (sent.some((s) => !arrived.has(s.id)) && performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
  }
  technician.onMessage = null;
  const latencies = sent.filter((s) => arrived.has(s.id)).map((s) => arrived.get(s.id)! - s.at);
  return summarize(latencies, lost + sent.length - latencies.length);
}

/** The event-loop probe inside the server process (loop-probe.mjs). */
function loopProbe(port: number) {
  const call = async (path: string) => (await fetch(`http://127.0.0.1:${port}${path}`)).json();
  return {
    reset: async () => void (await call('/reset')),
    read: async () => (await call('/read')) as LoopDelay,
  };
}

async function measurePhase(
  server: ServerProcess,
  probe: ReturnType<typeof loopProbe>,
  technician: ConsoleSocket,
  agents: SavedAgent[],
  seconds: number,
): Promise<Phase> {
  await probe.reset();
  const pid = server.child.pid!;
  const cpuBefore = cpuSecondsOf(pid);
  const started = performance.now();
  // The two probes run side by side from different agents, as a technician's day would have them.
  const [heartbeat, push] = await Promise.all([
    heartbeatProbe(server, agents[0]!, seconds),
    pushProbe(server, technician, agents.slice(1), seconds),
  ]);
  const loop = await probe.read();
  const cpuCores = (cpuSecondsOf(pid) - cpuBefore) / ((performance.now() - started) / 1000);
  return { heartbeat, push, loop, rssMb: memoryOf(pid).rssMb, cpuCores };
}

/** Waits until every agent is connected (or the fleet has given up on some); times enrolled and connected. */
async function waitForFleet(
  fleet: FleetProcesses,
  agents: number,
): Promise<{ enrolledSeconds: number | null; connectedSeconds: number | null }> {
  const started = performance.now();
  let enrolledSeconds: number | null = null;
  let lastLine = 0;
  let last = { connected: -1, at: 0 };
  while (performance.now() - started < CONNECT_TIMEOUT_MS) {
    const s = fleet.stats();
    const elapsed = (performance.now() - started) / 1000;
    if (enrolledSeconds === null && s.enrolled >= agents) enrolledSeconds = elapsed;
    if (s.connected >= agents) return { enrolledSeconds, connectedSeconds: elapsed };
    if (s.failed > 0 && s.failed + s.connected >= agents) break;
    if (s.connected !== last.connected) last = { connected: s.connected, at: elapsed };
    // Everyone enrolled and nobody new connected for a long while: the rest are not coming (reported as such).
    if (enrolledSeconds !== null && elapsed - last.at > STALL_SECONDS) break;
    if (elapsed - lastLine >= 10) {
      lastLine = elapsed;
      process.stdout.write(
        `  ${elapsed.toFixed(0)} s: ${s.enrolled} enrolled, ${s.connected} connected, ` +
          `${s.enrollDeferrals} deferred (429), ${s.errors} errors, ${s.failed} failed, ${s.stopped} stopped\n`,
      );
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { enrolledSeconds, connectedSeconds: null };
}

export async function scaleBench(dataDir: string, options: ScaleOptions): Promise<ScaleOutput> {
  const agents = options.agents;
  // One simulator process per core: more only adds scheduling and per-process overhead on the same cores (on this
  // 2-core machine, 4 processes connected 10,000 agents in 72 s, 2 in 64 s).
  const processes =
    options.processes ?? Math.max(2, Math.min(availableParallelism(), Math.ceil(agents / 2500)));
  const probePort = await freePort();
  const probeModule = pathToFileURL(join(import.meta.dirname, 'loop-probe.mjs')).href;
  const server = await startServerProcess(dataDir, {
    // The server's own default interval: the fleet heartbeats as a real one would.
    AGENT_HEARTBEAT_SECONDS: '60',
    LOOP_PROBE_PORT: String(probePort),
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${probeModule}`.trim(),
  });
  const probe = loopProbe(probePort);
  let probeFleet: Fleet | null = null;
  let fleet: FleetProcesses | null = null;
  let technician: ConsoleSocket | null = null;
  try {
    technician = await consoleSocketFor(server.url, await adminToken(server.api));
    const probes = await enrollFleet(server, PROBE_AGENTS, 901);
    probeFleet = probes.fleet;
    // A moment for the probe agents' start-up reports (software, logs) to pass.
    await new Promise((r) => setTimeout(r, 3000));
    process.stdout.write(`  idle server: probing for ${IDLE_SECONDS} s\n`);
    const idle = await measurePhase(server, probe, technician, probes.agents, IDLE_SECONDS);

    process.stdout.write(`  starting ${agents} agents in ${processes} agent-sim processes\n`);
    const key = await enrollmentKey(server.api, agents);
    await probe.reset();
    fleet = new FleetProcesses({
      // The server's address rather than its name: ten thousand sockets opened need no name lookup each.
      server: `http://127.0.0.1:${server.port}`,
      enrollmentKey: key,
      count: agents,
      processes,
      seed: 11,
    });
    const stormCpuBefore = cpuSecondsOf(server.child.pid!);
    const stormStarted = performance.now();
    fleet.start();
    const timing = await waitForFleet(fleet, agents);
    const stormLoop = await probe.read();
    const stormCpuCores =
      (cpuSecondsOf(server.child.pid!) - stormCpuBefore) / ((performance.now() - stormStarted) / 1000);
    // Let the start-up reports of the fleet (software inventories, first logs) drain before measuring.
    await new Promise((r) => setTimeout(r, 10_000));
    process.stdout.write(`  ${fleet.stats().connected} agents connected: probing for ${LOADED_SECONDS} s\n`);
    const loaded = await measurePhase(server, probe, technician, probes.agents, LOADED_SECONDS);
    const stats = fleet.stats();
    return {
      ...keyFootprint(dataDir, `Bench ${agents}`),
      agents,
      processes: fleet.processes,
      idle,
      loaded,
      stormLoop,
      stormCpuCores,
      ...timing,
      fleet: stats,
      rssPerAgentKb: ((loaded.rssMb - idle.rssMb) * 1024) / Math.max(1, stats.connected),
    };
  } finally {
    technician?.socket.close();
    await fleet?.stop();
    await probeFleet?.stop();
    await stopServerProcess(server);
  }
}

/** The section's table: each probe idle and loaded side by side, then the fleet's figures. */
export function printScale(out: ScaleOutput): void {
  const row = (name: string, idle: string, loaded: string, ratio: string) =>
    console.log(name.padEnd(44), idle.padStart(12), loaded.padStart(12), ratio.padStart(10));
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const times = (a: number, b: number) => (a > 0 ? `${(b / a).toFixed(2)}x` : '');
  console.log(
    `\nScale: ${out.agents.toLocaleString('en')} simulated agents in ${out.processes} agent-sim processes on one server ` +
      `(server in its own process; heartbeats every 60 s; probes open loop ${PROBE_RATE}/s, idle ${IDLE_SECONDS} s, ` +
      `loaded ${LOADED_SECONDS} s)\n`,
  );
  row('probe', 'idle', 'loaded', 'loaded/idle');
  const pair = (name: string, pick: (p: Phase) => number) =>
    row(name, ms(pick(out.idle)), ms(pick(out.loaded)), times(pick(out.idle), pick(out.loaded)));
  pair('heartbeat round trip p50', (p) => p.heartbeat.p50);
  pair('heartbeat round trip p99', (p) => p.heartbeat.p99);
  pair('elevation report -> console push p50', (p) => p.push.p50);
  pair('elevation report -> console push p99', (p) => p.push.p99);
  pair('event loop delay p99', (p) => p.loop.p99);
  pair('event loop delay max', (p) => p.loop.max);
  row('server CPU (cores busy)', out.idle.cpuCores.toFixed(2), out.loaded.cpuCores.toFixed(2), '');
  row(
    'server RSS',
    `${out.idle.rssMb.toFixed(0)} MB`,
    `${out.loaded.rssMb.toFixed(0)} MB`,
    `${out.rssPerAgentKb.toFixed(1)} KB/agent`,
  );
  const lost =
    out.loaded.heartbeat.lost + out.loaded.push.lost + out.idle.heartbeat.lost + out.idle.push.lost;
  if (lost) console.log(`(${lost} probe requests failed or their push never arrived)`);
  const f = out.fleet;
  const secs = (v: number | null) => (v === null ? 'not reached' : `${v.toFixed(1)} s`);
  console.log(
    `\nFleet: ${f.connected}/${out.agents} connected in ${secs(out.connectedSeconds)} ` +
      `(all enrolled in ${secs(out.enrolledSeconds)}); ${f.enrollDeferrals} enrollment attempts paced by 429 ` +
      `and honoured; ${f.failed} agents failed; ${f.stopped} stopped (credentials refused); ` +
      `${f.errors} transient errors; ${f.heartbeats} heartbeats; ` +
      `${out.devices} devices and ${out.keyUses} key uses for ${out.agents} agents` +
      (f.lastError ? `; last error: ${f.lastError}` : ''),
  );
  console.log(
    `While the fleet enrolled and connected: event loop delay p99 ${ms(out.stormLoop.p99)}, ` +
      `max ${ms(out.stormLoop.max)}; server CPU ${out.stormCpuCores.toFixed(2)} cores`,
  );
}
