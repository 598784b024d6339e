import { transaction } from '../../db/after-commit';
import type { Db } from '../../db/connection';
import { addMetricSample, type MetricSample } from './store';

// Heartbeats hand their metrics to this buffer instead of writing them: the heartbeat path stays one UPDATE plus
// the command claim, and thousands of devices' samples reach SQLite as one transaction every few seconds (the
// device-metrics job). One buffer per database, so servers sharing a process (tests) never mix samples. The
// server's close flushes it after the last request, so a clean shutdown loses nothing; a crash loses at most
// the samples of the last few seconds, which the chart does not miss.

const buffers = new WeakMap<Db, MetricSample[]>();
/** A burst past this many samples is written at once rather than waiting for the next tick. */
const EAGER_FLUSH_AT = 5000;

export function bufferMetricSample(db: Db, sample: MetricSample): void {
  if (sample.cpu === null && sample.ram === null && sample.disk === null) return;
  let buffer = buffers.get(db);
  if (!buffer) {
    buffer = [];
    buffers.set(db, buffer);
  }
  buffer.push(sample);
  if (buffer.length === EAGER_FLUSH_AT) setImmediate(() => flushMetricSamples(db));
}

/** Writes every buffered sample in one transaction; returns how many. */
export function flushMetricSamples(db: Db): number {
  const buffer = buffers.get(db);
  if (!buffer?.length || !db.open) return 0;
  const batch = buffer.splice(0);
  transaction(db, () => {
    for (const sample of batch) addMetricSample(db, sample);
  });
  return batch.length;
}
