import { Fleet, type FleetOptions, type FleetStats } from './fleet';

// One slice of a fleet that runs over several processes (fleet-processes.ts): started with its plan as the first
// argument, it runs a Fleet, reports its stats to the parent every second over IPC, and stops on `{type:'stop'}`,
// on SIGTERM, or when the parent goes away (the IPC channel closes), so no agent outlives its launcher.

/** What a worker runs: the serialisable part of FleetOptions (credentials stay in the worker's memory). */
export type WorkerPlan = Pick<
  FleetOptions,
  | 'server'
  | 'enrollmentSecret'
  | 'seed'
  | 'domain'
  | 'firstIndex'
  | 'heartbeatSeconds'
  | 'agentVersion'
  | 'enrollConcurrency'
  | 'connectConcurrency'
  | 'startSpacingMs'
  | 'reenrollOnUnauthorized'
> & { enrollmentKey?: string | undefined; scenario?: string | undefined; count: number };

export type WorkerMessage = { type: 'stats'; stats: FleetStats } | { type: 'stopped' };

const REPORT_MS = 1000;

function main(): void {
  const plan = JSON.parse(process.argv[2] ?? '{}') as WorkerPlan;
  const fleet = new Fleet(plan);
  const report = () => process.send?.({ type: 'stats', stats: fleet.stats() } satisfies WorkerMessage);
  const timer = setInterval(report, REPORT_MS);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    clearInterval(timer);
    await fleet.stop();
    if (process.connected) {
      report();
      process.send?.({ type: 'stopped' } satisfies WorkerMessage);
    }
    process.exit(0);
  };
  process.on('message', (message: { type?: string }) => {
    if (message.type === 'stop') void stop();
  });
  process.on('disconnect', () => void stop());
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  fleet.start();
  report();
}

main();
