import { Agent as HttpPool, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsPool, request as httpsRequest } from 'node:https';
import { API_PREFIX } from './protocol';

// HTTP for simulated agents. API requests go through node:http with one keep-alive connection pool per fleet
// (what lets one process hold a fleet of thousands); a storm of ten thousand agents starting at once spends its
// simulator time in them, and the global fetch (undici, web streams, an AbortSignal per request) cost about
// three times as much per request. Downloads of agent builds stay on fetch: they are rare, large, and follow
// a redirect to wherever the build is held.
//
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

/** Read access to an answer's headers (a web `Headers` is one). */
export interface AnswerHeaders {
  get(name: string): string | null;
}

export interface HttpAnswer {
  status: number;
  body: unknown;
  headers: AnswerHeaders;
}

export interface RequestOptions {
  body?: unknown;
  token?: string | undefined;
  timeoutMs?: number;
  signal?: AbortSignal | undefined;
}

const DEFAULT_TIMEOUT_MS = 15_000;
/**
 * An idle pooled connection is closed after this long: before the server's own keep-alive timeout (Node's 5 s),
 * so a request never goes out on a connection the server is closing at that moment.
 */
const IDLE_CONNECTION_MS = 4_000;

/** Node's header record read like web `Headers` (names are already lower case; repeated values joined). */
function answerHeaders(headers: IncomingHttpHeaders): AnswerHeaders {
  return {
    get: (name) => {
      const value = headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

export class AgentHttp {
  readonly origin: string;
  private readonly pools = {
    http: new HttpPool({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
    https: new HttpsPool({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
  };

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
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const answer = await this.send(method, this.url(path), headers, body, options);
    let parsed: unknown = null;
    if (answer.text) {
      try {
        parsed = JSON.parse(answer.text);
      } catch {
        parsed = answer.text;
      }
    }
    return { status: answer.status, body: parsed, headers: answerHeaders(answer.headers) };
  }

  /** Raw bytes (agent binaries). Non-2xx answers come back with an empty body. */
  async download(
    url: string,
    options: RequestOptions = {},
  ): Promise<{ status: number; bytes: Buffer; headers: AnswerHeaders }> {
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
   * One API request and its whole answer, bounded by the deadline and by the caller's signal; whichever ends it
   * first also destroys the request, which releases its connection.
   */
  private send(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    options: RequestOptions,
  ): Promise<{ status: number; text: string; headers: IncomingHttpHeaders }> {
    const ms = options.timeoutMs ?? this.timeoutMs;
    const outer = options.signal;
    return new Promise((resolve, reject) => {
      if (outer?.aborted) {
        reject(new TransportError('request cancelled'));
        return;
      }
      const target = new URL(url);
      const secure = target.protocol === 'https:';
      let settled = false;
      const settle = (failure: TransportError | null, answer?: Awaited<ReturnType<AgentHttp['send']>>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outer?.removeEventListener('abort', cancel);
        if (failure) {
          req.destroy();
          reject(failure);
        } else resolve(answer!);
      };
      const failed = (err: NodeJS.ErrnoException) => settle(new TransportError(err.code ?? err.message));
      const cancel = () => settle(new TransportError('request cancelled'));
      const timer = setTimeout(() => settle(new TransportError(`no answer within ${ms} ms`)), ms);
      outer?.addEventListener('abort', cancel, { once: true });
      const req = (secure ? httpsRequest : httpRequest)(
        target,
        { method, headers, agent: secure ? this.pools.https : this.pools.http },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            settle(null, {
              status: res.statusCode ?? 0,
              text: Buffer.concat(chunks).toString('utf8'),
              headers: res.headers,
            }),
          );
          res.on('error', failed);
          // A connection closed before the body's end: cut off, never a short answer.
          res.on('close', () => {
            if (!res.complete) settle(new TransportError('answer cut off'));
          });
        },
      );
      req.on('error', failed);
      req.end(body);
    });
  }

  /**
   * One download and the reading of its answer, bounded by the deadline and by the caller's signal. The race is
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
export function retryAfterMs(headers: AnswerHeaders): number | null {
  const raw = headers.get('retry-after');
  if (!raw) return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}
