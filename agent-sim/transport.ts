import { API_PREFIX } from './protocol';

// HTTP for simulated agents: the global fetch (undici). Its global dispatcher is one keep-alive connection pool
// per origin shared by every agent of the process, which is what lets one process hold a fleet of thousands.
// Every request has a deadline covering the answer and its whole body; an answer of any status comes back as a
// value, and only a failure to get a complete answer (refused, reset, timed out, cut off mid-body, or a
// simulated fault) throws TransportError.
//
// The deadline is a plain timer held by the request itself, and the wait is raced against it. It is not
// `AbortSignal.any([AbortSignal.timeout(ms), agentSignal])`: Node 20 holds the timeout inside such a composite
// only weakly, so a garbage collection during the request (routine in a busy process once this path runs as
// optimized code) silently removed the deadline, and an answer that never came was awaited for ever — an agent
// whose enrollment answer was lost then sat in the fleet's start gate for good, never beating nor connecting.

export class TransportError extends Error {
  constructor(
    message: string,
    /** True when the simulator injected the failure (flaky-network scenario) rather than the network. */
    readonly simulated = false,
  ) {
    super(message);
  }
}

export interface HttpAnswer {
  status: number;
  body: unknown;
  headers: Headers;
}

export interface RequestOptions {
  body?: unknown;
  token?: string | undefined;
  timeoutMs?: number;
  signal?: AbortSignal | undefined;
}

const DEFAULT_TIMEOUT_MS = 15_000;

export class AgentHttp {
  readonly origin: string;

  constructor(
    server: string,
    /** Called before each request; returning true fails it as a network error would (fault injection). */
    private readonly fault: () => boolean = () => false,
    /** Deadline of a request that names none (downloads: 60 s). */
    private readonly timeoutMs = DEFAULT_TIMEOUT_MS,
  ) {
    this.origin = server.replace(/\/+$/, '');
  }

  url(path: string): string {
    return /^https?:\/\//.test(path) ? path : `${this.origin}${API_PREFIX}${path}`;
  }

  wsUrl(path: string): string {
    return this.url(path).replace(/^http/, 'ws');
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<HttpAnswer> {
    if (this.fault()) throw new TransportError('simulated network failure', true);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const { res, text } = await this.exchange(path, { method, headers, body }, options, async (res) => ({
      res,
      text: await res.text(),
    }));
    let parsed: unknown = null;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  /** Raw bytes (agent binaries). Non-2xx answers come back with an empty body. */
  async download(
    url: string,
    options: RequestOptions = {},
  ): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
    if (this.fault()) throw new TransportError('simulated network failure', true);
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    return this.exchange(url, { method: 'GET', headers }, { timeoutMs: 60_000, ...options }, async (res) => {
      if (!res.ok) {
        await res.body?.cancel().catch(() => undefined);
        return { status: res.status, bytes: Buffer.alloc(0), headers: res.headers };
      }
      return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), headers: res.headers };
    });
  }

  /**
   * One request and the reading of its answer, bounded by the deadline and by the caller's signal. The race is
   * what bounds it: aborting fetch also releases the connection, but the wait ends even if an abort got lost.
   */
  private async exchange<T>(
    path: string,
    init: RequestInit,
    options: RequestOptions,
    read: (res: Response) => Promise<T>,
  ): Promise<T> {
    const ms = options.timeoutMs ?? this.timeoutMs;
    const outer = options.signal;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const cutOff = new Promise<never>((_, reject) => {
      const fail = (err: TransportError) => {
        controller.abort(err);
        reject(err);
      };
      timer = setTimeout(() => fail(new TransportError(`no answer within ${ms} ms`)), ms);
      onAbort = () => fail(new TransportError('request cancelled'));
      if (outer?.aborted) onAbort();
      else outer?.addEventListener('abort', onAbort, { once: true });
    });
    const attempt = (async () => read(await fetch(this.url(path), { ...init, signal: controller.signal })))();
    try {
      return await Promise.race([attempt, cutOff]);
    } catch (err) {
      if (err instanceof TransportError) throw err;
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new TransportError(cause?.code ?? cause?.message ?? (err as Error).message);
    } finally {
      clearTimeout(timer);
      if (onAbort) outer?.removeEventListener('abort', onAbort);
    }
  }
}

/** Retry-After in milliseconds, when the server sent one. */
export function retryAfterMs(headers: Headers): number | null {
  const raw = headers.get('retry-after');
  if (!raw) return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}
