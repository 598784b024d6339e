import type { AppContext } from '../context';
import { flushMetricSamples, metricSamplesPending, pruneDeviceMetrics } from '../modules/device-metrics';

// Device metrics (issue 16 item 3): every few seconds the samples heartbeats buffered are written, 500
// device-minutes per transaction with the event loop running between slices; every ten minutes points past their retention (minute points after 24 hours, hourly ones after 30
// days) are deleted. Stopping writes what is still buffered; the server's close flushes once more after the last
// request has been answered.

const FLUSH_MS = 5000;
/** Device-minutes per transaction: a fleet heartbeating in step is written in slices, not one long stall. */
const FLUSH_SLICE = 500;
const PRUNE_MS = 10 * 60 * 1000;

export function startDeviceMetrics(ctx: AppContext, flushMs = FLUSH_MS): () => void {
  const run = (what: string, fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      ctx.log.error({ err }, `device metrics ${what} failed`);
    }
  };
  let stopped = false;
  const flushSlice = (): void =>
    run('flush', () => {
      flushMetricSamples(ctx.db, FLUSH_SLICE);
      if (!stopped && metricSamplesPending(ctx.db)) setImmediate(flushSlice);
    });
  const flush = () => run('flush', () => flushMetricSamples(ctx.db));
  const prune = () => run('pruning', () => pruneDeviceMetrics(ctx));
  prune();
  const flushTimer = setInterval(flushSlice, flushMs);
  const pruneTimer = setInterval(prune, PRUNE_MS);
  flushTimer.unref();
  pruneTimer.unref();
  return () => {
    clearInterval(flushTimer);
    clearInterval(pruneTimer);
    stopped = true;
    flush();
  };
}
