import { fork, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newCounters } from './agent-options';
import type { FleetStats } from './fleet';
import { addElevationStats, newElevationStats } from './pam';
import type { WorkerMessage, WorkerPlan } from './fleet-worker';

// One fleet over several OS processes (`npm run agent-sim -- --count 10000 --processes 4`, and the scale
// benchmark): a single Node process spends its one core on TLS-free but still JSON- and timer-heavy agents long
// before the server is the bottleneck, so ten thousand agents are split into slices of consecutive machine
// indexes, one Fleet per worker process (fleet-worker.ts), with the same seed: the machines are those one big
// fleet would have. Workers report their stats every second over IPC; `stats()` sums the latest reports.

const AGENT_SIM_DIR = dirname(fileURLToPath(import.meta.url));
const WORKER = join(AGENT_SIM_DIR, 'fleet-worker.ts');

export type FleetProcessesOptions = Omit<WorkerPlan, 'count' | 'firstIndex'> & {
  count: number;
  processes: number;
  /** First machine index of the whole fleet (default 0). */
  firstIndex?: number | undefined;
};

interface Worker {
  child: ChildProcess;
  agents: number;
  stats: FleetStats | null;
  exited: Promise<void>;
}

/** Adds worker reports up: counters and states are sums; the last error is any worker's. */
export function sumStats(reports: FleetStats[]): FleetStats {
  const total: FleetStats = {
    ...newCounters(),
    agents: 0,
    enrolled: 0,
    connected: 0,
    running: 0,
    stopped: 0,
    failed: 0,
    lastError: null,
    elevation: newElevationStats(),
  };
  for (const r of reports) {
    for (const key of Object.keys(total) as Array<keyof FleetStats>) {
      const value = r[key];
      if (typeof value === 'number') (total[key] as number) += value;
    }
    addElevationStats(total.elevation, r.elevation);
    total.lastError ??= r.lastError;
  }
  return total;
}

export class FleetProcesses {
  private readonly workers: Worker[] = [];
  private stopping: Promise<void> | null = null;

  constructor(private readonly options: FleetProcessesOptions) {}

  /** Forks the workers; each starts its slice of the fleet at once. */
  start(): void {
    if (this.workers.length > 0) return;
    const { options } = this;
    const processes = Math.max(1, Math.min(options.processes, options.count || 1));
    const first = options.firstIndex ?? 0;
    const per = Math.ceil(options.count / processes);
    for (let start = 0; start < options.count; start += per) {
      const agents = Math.min(per, options.count - start);
      const { processes: _, ...shared } = options;
      const plan: WorkerPlan = { ...shared, count: agents, firstIndex: first + start };
      // tsx in the worker too: the simulator runs from source wherever it runs. AGENT_SIM_NODE_ARGS adds Node
      // flags (`--cpu-prof --cpu-prof-dir=/tmp/prof`: where a worker's time goes).
      const child = fork(WORKER, [JSON.stringify(plan)], {
        cwd: join(AGENT_SIM_DIR, '..'),
        execArgv: ['--import', 'tsx', ...(process.env.AGENT_SIM_NODE_ARGS?.split(' ').filter(Boolean) ?? [])],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      const worker: Worker = {
        child,
        agents,
        stats: null,
        exited: new Promise((resolve) => child.once('exit', () => resolve())),
      };
      child.on('message', (message: WorkerMessage) => {
        if (message.type === 'stats') worker.stats = message.stats;
      });
      this.workers.push(worker);
    }
  }

  /** How many worker processes run the fleet. */
  get processes(): number {
    return this.workers.length;
  }

  /** The fleet's stats as last reported (a worker that has not reported yet counts its agents only). */
  stats(): FleetStats {
    return sumStats(
      this.workers.map(
        (w) =>
          w.stats ?? {
            ...sumStats([]),
            agents: w.agents,
            running: w.child.exitCode === null ? w.agents : 0,
          },
      ),
    );
  }

  /** Stops every worker's fleet (sockets closed, credentials kept as the fleet keeps them) and waits for exit. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      for (const w of this.workers) {
        if (w.child.connected) w.child.send({ type: 'stop' });
        else if (w.child.exitCode === null) w.child.kill('SIGTERM');
      }
      await Promise.all(
        this.workers.map((w) =>
          Promise.race([
            w.exited,
            new Promise<void>((resolve) =>
              setTimeout(() => {
                // A worker that does not wind down in time is ended outright.
                if (w.child.exitCode === null) w.child.kill('SIGKILL');
                resolve();
              }, 15_000).unref(),
            ),
          ]),
        ),
      );
      await Promise.all(this.workers.map((w) => w.exited));
    })();
    return this.stopping;
  }
}
