import { API_PREFIX } from './protocol';

// HTTP for simulated agents: the global fetch (undici). Its global dispatcher is one keep-alive connection pool
// per origin shared by every agent of the process, which is what lets one process hold a fleet of thousands.
// Every request has a deadline; an answer of any status comes back as a value, and only a failure to get an
// answer at all (refused, reset, timed out, or a simulated fault) throws TransportError.

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
    const res = await this.send(path, { method, headers, body }, options);
    const text = await res.text().catch(() => '');
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
    const res = await this.send(url, { method: 'GET', headers }, { timeoutMs: 60_000, ...options });
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      return { status: res.status, bytes: Buffer.alloc(0), headers: res.headers };
    }
    return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), headers: res.headers };
  }

  private async send(path: string, init: RequestInit, options: RequestOptions): Promise<Response> {
    const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    try {
      return await fetch(this.url(path), { ...init, signal });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new TransportError(cause?.code ?? cause?.message ?? (err as Error).message);
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
