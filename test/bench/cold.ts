import { spawn, spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort, ROOT } from '../support/server-process';
import { cpuSecondsOf } from './server-process';
import { percentile, type Result } from './measure';

// Cold start (issue 18): the built headless server (out/main/serve.js, what `npm run serve` runs) started in
// plain Node on a fresh data directory, timed from spawn to the first 200 from GET /api/v1/health. Beside it, in
// the same run and alternating with it, the floor: a bare `node -e` node:http server answering that path; and,
// for comparison, the same server from its TypeScript sources through tsx, as `serve` ran before. Each is
// started START_COUNT times; the table reports the median (p50) and the slowest (p99 column), and the median CPU
// time each process used until it answered.

export const START_COUNT = 5;
const HEALTH = '/api/v1/health';
const READY_TIMEOUT_MS = 60_000;
const POLL_MS = 2;

/** A one-line server that answers every request with 200: Node's own start-up and first answer, nothing else. */
const BARE_SERVER = `require('node:http').createServer((q, s) => s.end('{}')).listen(Number(process.argv[1]), '127.0.0.1')`;

/** 200 from GET `path`, or false while nothing listens yet. */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: HEALTH, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}

interface Start {
  /** From spawn to the first 200 on /health. */
  wallMs: number;
  /** CPU the process used until then (user + system): far less sensitive than wall time to a busy machine. */
  cpuMs: number | null;
}

/** CPU time of a live process so far (Linux /proc; null elsewhere). */
function cpuMsOf(pid: number | undefined): number | null {
  try {
    return pid === undefined ? null : cpuSecondsOf(pid) * 1000;
  } catch {
    return null;
  }
}

/** Spawns `args` (with their port argument already in) and times it to a 200 on /health. */
async function timeToReady(args: string[], port: number): Promise<Start> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'warn' },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    while (performance.now() - started < READY_TIMEOUT_MS) {
      if (child.exitCode !== null)
        throw new Error(`exited with ${child.exitCode} before it was ready:\n${stderr}`);
      if (await answers(port)) return { wallMs: performance.now() - started, cpuMs: cpuMsOf(child.pid) };
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    throw new Error(`no answer on ${HEALTH} within ${READY_TIMEOUT_MS / 1000} s:\n${stderr}`);
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  }
}

function summary(name: string, starts: Start[], baseline?: string): Result {
  const sorted = starts.map((s) => s.wallMs).sort((a, b) => a - b);
  const median = percentile(sorted, 50);
  const cpu = starts.map((s) => s.cpuMs).filter((ms): ms is number => ms !== null);
  const cpuMedian = cpu.length
    ? percentile(
        cpu.sort((a, b) => a - b),
        50,
      )
    : null;
  return {
    name,
    unit: 'start',
    count: starts.length,
    seconds: sorted.reduce((a, b) => a + b, 0) / 1000,
    // "per s" is starts per second at the median, so the ratio column reads as baseline time / this time.
    perSecond: 1000 / median,
    p50: median,
    p99: sorted[sorted.length - 1] ?? 0,
    ...(baseline ? { baseline } : {}),
    note: `median ${(median / 1000).toFixed(2)} s${cpuMedian === null ? '' : `, CPU ${(cpuMedian / 1000).toFixed(2)} s`}`,
  };
}

export async function coldBench(): Promise<Result[]> {
  // The bench times the bundle as it is on disk: build it first when it is missing or older than the sources.
  const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-if-stale.mjs')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the build failed; see above');

  const bare: Start[] = [];
  const server: Start[] = [];
  const sources: Start[] = [];
  const onFreshDataDir = async (entry: string[], times: Start[]) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-cold-'));
    try {
      const port = await freePort();
      times.push(await timeToReady([...entry, '--port', String(port), '--data-dir', dataDir], port));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  };
  // Interleaved, so a burst of load from elsewhere on the machine falls on all three alike.
  for (let i = 0; i < START_COUNT; i++) {
    const port = await freePort();
    bare.push(await timeToReady(['-e', BARE_SERVER, String(port)], port));
    await onFreshDataDir([join('out', 'main', 'serve.js')], server);
    await onFreshDataDir(['--import', 'tsx', join('app', 'serve.ts')], sources);
  }
  const baseline = 'bare node:http server (node -e)';
  return [
    summary(baseline, bare),
    summary('built server, fresh data dir (out/main/serve.js)', server, baseline),
    // How `npm run serve` started before issue 18: the TypeScript sources transpiled by tsx at every start.
    summary('sources through tsx, fresh data dir (app/serve.ts)', sources, baseline),
  ];
}
