import { performance } from 'node:perf_hooks';

// The one measuring loop of the benchmarks: a fixed number of operations spread over `concurrency` workers,
// bounded in time, with latency percentiles.

export interface Result {
  name: string;
  /** What one operation is: a request, a row, a heartbeat. */
  unit: string;
  count: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** The baseline this result is compared with (its name), when it is not the table's first row. */
  baseline?: string;
  note?: string;
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Runs `operation` `total` times over `concurrency` workers; each call returns how many units it did (1 by default). */
export async function measure(
  name: string,
  total: number,
  concurrency: number,
  operation: (i: number, worker: number) => Promise<number | void>,
  options: { maxSeconds?: number; unit?: string; baseline?: string } = {},
): Promise<Result> {
  const latencies: number[] = [];
  let next = 0;
  let units = 0;
  const started = performance.now();
  const deadline = started + (options.maxSeconds ?? 20) * 1000;
  const worker = async (_: unknown, id: number) => {
    while (next < total && performance.now() < deadline) {
      const i = next++;
      const t = performance.now();
      // Awaited first: `units += await ...` would read `units` before the await and lose other workers' counts.
      const done = (await operation(i, id)) ?? 1;
      units += done;
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    name,
    unit: options.unit ?? 'req',
    count: units,
    seconds,
    perSecond: units / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    ...(options.baseline ? { baseline: options.baseline } : {}),
  };
}

/** A fetch that must succeed: the body is read (so the connection is reused) and a non-2xx status throws. */
export async function ok(name: string, response: Promise<Response>): Promise<void> {
  const res = await response;
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${name}: HTTP ${res.status}`);
}
