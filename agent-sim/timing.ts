// Small timing helpers shared by agents and the fleet.

/** Resolves after `ms`, or early (without error) when `signal` aborts or `wake` is called. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> & { wake(): void } {
  let wake = () => {};
  const promise = new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener('abort', done, { once: true });
    wake = done;
  });
  return Object.assign(promise, { wake: () => wake() });
}

/** At most `limit` holders at once; the rest wait in order. Spreads a fleet's start-up work. */
export class Gate {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}
