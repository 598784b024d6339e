import { transaction } from '../../db/after-commit';
import type { Db } from '../../db/connection';
import { addMetricSums, bucketOf, HOUR_MS, MINUTE_MS, type MetricSample, type MetricSums } from './store';

// Heartbeats hand their metrics to this buffer instead of writing them: the heartbeat path stays one UPDATE plus
// the command claim, and thousands of devices' samples reach SQLite as one transaction every few seconds (the
// device-metrics job, in slices). The buffer keeps sums per device and minute, not the samples: a flush writes one upsert
// per device, minute and resolution however often the device reported (issue 18: a flush of every sample, two
// upserts each, stalled the loop 150 ms every 5 s under a heartbeat storm). One buffer per database, so servers
// sharing a process (tests) never mix samples. The server's close flushes it after the last request, so a clean
// shutdown loses nothing; a crash loses at most the samples of the last few seconds, which the chart does not miss.

interface Pending extends MetricSums {
  minuteMs: number;
  samples: number;
}

interface Buffer {
  byMinute: Map<string, Pending>;
  samples: number;
}

const buffers = new WeakMap<Db, Buffer>();
/** A burst past this many device-minutes starts writing at once (in slices) rather than waiting for the job. */
const EAGER_FLUSH_AT = 5000;
const EAGER_SLICE = 500;

function flushEagerly(db: Db): void {
  flushMetricSamples(db, EAGER_SLICE);
  if ((buffers.get(db)?.byMinute.size ?? 0) > EAGER_SLICE) setImmediate(() => flushEagerly(db));
}

export function bufferMetricSample(db: Db, sample: MetricSample): void {
  if (sample.cpu === null && sample.ram === null && sample.disk === null) return;
  let buffer = buffers.get(db);
  if (!buffer) {
    buffer = { byMinute: new Map(), samples: 0 };
    buffers.set(db, buffer);
  }
  const minuteMs = bucketOf(sample.atMs, MINUTE_MS);
  const key = `${sample.deviceId}|${minuteMs}`;
  let pending = buffer.byMinute.get(key);
  if (!pending) {
    pending = {
      deviceId: sample.deviceId,
      minuteMs,
      samples: 0,
      cpuSum: 0,
      cpuCount: 0,
      ramSum: 0,
      ramCount: 0,
      diskSum: 0,
      diskCount: 0,
    };
    buffer.byMinute.set(key, pending);
    if (buffer.byMinute.size === EAGER_FLUSH_AT) setImmediate(() => flushEagerly(db));
  }
  pending.samples++;
  buffer.samples++;
  if (sample.cpu !== null) {
    pending.cpuSum += sample.cpu;
    pending.cpuCount++;
  }
  if (sample.ram !== null) {
    pending.ramSum += sample.ram;
    pending.ramCount++;
  }
  if (sample.disk !== null) {
    pending.diskSum += sample.disk;
    pending.diskCount++;
  }
}

function addInto(target: MetricSums, from: MetricSums): void {
  target.cpuSum += from.cpuSum;
  target.cpuCount += from.cpuCount;
  target.ramSum += from.ramSum;
  target.ramCount += from.ramCount;
  target.diskSum += from.diskSum;
  target.diskCount += from.diskCount;
}

/** Whether samples wait to be written. */
export function metricSamplesPending(db: Db): boolean {
  return (buffers.get(db)?.byMinute.size ?? 0) > 0;
}

/**
 * Writes the buffered samples in one transaction, at most `maxMinutes` device-minutes of them (the oldest first:
 * the job writes a fleet's worth in slices, the event loop running between them); returns how many samples.
 */
export function flushMetricSamples(db: Db, maxMinutes = Infinity): number {
  const buffer = buffers.get(db);
  if (!buffer?.byMinute.size || !db.open) return 0;
  const minutes: Pending[] = [];
  let samples = 0;
  for (const [key, pending] of buffer.byMinute) {
    if (minutes.length >= maxMinutes) break;
    buffer.byMinute.delete(key);
    minutes.push(pending);
    samples += pending.samples;
  }
  buffer.samples -= samples;
  // The minutes of one device and hour make one hourly upsert.
  const hours = new Map<string, { hourMs: number; sums: MetricSums }>();
  for (const m of minutes) {
    const hourMs = bucketOf(m.minuteMs, HOUR_MS);
    const key = `${m.deviceId}|${hourMs}`;
    const hour = hours.get(key);
    if (hour) addInto(hour.sums, m);
    else hours.set(key, { hourMs, sums: { ...m } });
  }
  transaction(db, () => {
    for (const m of minutes) addMetricSums(db, 'minute', m.minuteMs, m);
    for (const h of hours.values()) addMetricSums(db, 'hour', h.hourMs, h.sums);
  });
  return samples;
}
