import { hash } from 'node:crypto';

// Seeded randomness for the simulator. Everything a simulated machine *is* (inventory, software, synthetic event
// logs, metric walks, log chatter) comes from a Rng keyed by (seed, agent index, purpose), so the same seed gives
// the same fleet run after run. Only timing jitter uses Math.random (see `jitter`): when things happen is allowed
// to differ, what happens is not.

/** A small, fast PRNG (sfc32) with helpers. Not for secrets. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** A generator keyed by any list of parts, e.g. `Rng.of(seed, index, 'metrics')`. */
  static of(...parts: Array<string | number>): Rng {
    // The one-shot hash: a fleet starting up keys millions of these (event-log history), and it costs a third less
    // than a Hash object for the same digest.
    const digest = hash('sha256', parts.join(':'), 'buffer');
    return new Rng(
      digest.readUInt32BE(0),
      digest.readUInt32BE(4),
      digest.readUInt32BE(8),
      digest.readUInt32BE(12),
    );
  }

  private constructor(a: number, b: number, c: number, d: number) {
    this.a = a >>> 0;
    this.b = b >>> 0;
    this.c = c >>> 0;
    this.d = d >>> 0 || 1;
    // Discard the first outputs: sfc32 needs a few rounds to mix a low-entropy state.
    for (let i = 0; i < 12; i++) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t / 4294967296;
  }

  /** An integer in [min, max] (inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A float in [min, max). */
  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Picks by weight: `[[value, weight], ...]`. */
  weighted<T>(entries: ReadonlyArray<readonly [T, number]>): T {
    return pickWeighted(entries, this.next());
  }

  /** `count` distinct items in a stable random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const out: T[] = [];
    while (out.length < count && pool.length > 0)
      out.push(pool.splice(Math.floor(this.next() * pool.length), 1)[0]!);
    return out;
  }

  hex(length: number): string {
    let out = '';
    while (out.length < length) out += Math.floor(this.next() * 16).toString(16);
    return out;
  }
}

/** The entry a uniform `roll` in [0, 1) lands on when each takes its weight's share of the range. */
export function pickWeighted<T>(entries: ReadonlyArray<readonly [T, number]>, roll: number): T {
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  let left = roll * total;
  for (const [value, weight] of entries) {
    left -= weight;
    if (left < 0) return value;
  }
  return entries[entries.length - 1]![0];
}

/** `ms` spread by ±`fraction` (default ±20%): timing only, deliberately not seeded. */
export function jitter(ms: number, fraction = 0.2): number {
  return Math.max(0, Math.round(ms * (1 - fraction + Math.random() * 2 * fraction)));
}

/**
 * A wait the server asked for (Retry-After), honoured and spread: never sooner, and up to a tenth (at least a
 * second) later, so agents told the same whole second do not all knock in the same millisecond.
 */
export function afterServerDelay(ms: number): number {
  return Math.round(ms + Math.random() * Math.max(1000, ms / 10));
}

/**
 * Exponential backoff with jitter: attempt 0 waits about `baseMs`, doubling to `capMs`. The wait is drawn from
 * the upper half of the window ("equal jitter") so a fleet that lost its server together does not come back in
 * lockstep, yet no agent retries immediately.
 */
export function backoff(attempt: number, baseMs = 1000, capMs = 30_000): number {
  const window = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(window / 2 + Math.random() * (window / 2));
}
