import { createServer, type Server, type ServerResponse } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import type * as AgentModule from '../../agent-sim/agent';
import type { Scenario } from '../../agent-sim/scenarios';
import type { MemoryCredentialStore as MemoryStore } from '../../agent-sim/state';
import type * as TimingModule from '../../agent-sim/timing';
import type * as TransportModule from '../../agent-sim/transport';

// Every network wait of a simulated agent has a deadline, and the deadline must survive the garbage collector.
// It used to be `AbortSignal.any([AbortSignal.timeout(ms), agentSignal])`: Node 20 holds the timeout signal
// inside such a composite only weakly, so once the request path runs as optimized code (a busy process, after
// a while) a collection during the request takes the timeout away, and an answer that never comes is awaited
// for ever. That is how an agent stayed parked after the server had enrolled it: no heartbeat, no socket, and
// its slot in the fleet's start gate held for good.
//
// This file makes that deterministic: every function is compiled optimized (--always-turbofan, set before the
// simulator's modules load; vitest runs each test file in its own process) and a full collection runs while the
// request waits on a server that took the request and never answers.

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let transport: typeof TransportModule;
let timing: typeof TimingModule;
let agentModule: typeof AgentModule;
let scenario: Scenario;
let MemoryCredentialStore: typeof MemoryStore;

beforeAll(async () => {
  setFlagsFromString('--always-turbofan');
  transport = await import('../../agent-sim/transport');
  timing = await import('../../agent-sim/timing');
  agentModule = await import('../../agent-sim/agent');
  scenario = (await import('../../agent-sim/scenarios')).getScenario('steady')!;
  MemoryCredentialStore = (await import('../../agent-sim/state')).MemoryCredentialStore;
});
afterAll(() => setFlagsFromString('--no-always-turbofan'));

/** Gets the request's number among those to its path (1 for the first). */
type Handler = (n: number, res: ServerResponse) => void;

/** Takes requests and answers them as scripted; a held response is accepted and never answered. */
class Stub {
  readonly http: Server;
  readonly wss = new WebSocketServer({ noServer: true });
  readonly sockets: WebSocket[] = [];
  readonly held: ServerResponse[] = [];
  readonly hits = new Map<string, number>();
  url = '';
  routes = new Map<string, Handler>();

  constructor() {
    this.http = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const path = (req.url ?? '').replace(/^\/api\/v1\/agents\/[^/]+\//, '/').replace('/api/v1', '');
        const n = (this.hits.get(path) ?? 0) + 1;
        this.hits.set(path, n);
        const handler = this.routes.get(path);
        if (handler) handler(n, res);
        else Stub.answer(path, n, res);
      });
    });
    this.http.on('upgrade', (req, socket, head) =>
      this.wss.handleUpgrade(req, socket, head, (ws) => this.sockets.push(ws)),
    );
  }

  count(path: string): number {
    return this.hits.get(path) ?? 0;
  }

  static answer(path: string, n: number, res: ServerResponse): void {
    if (path === '/agents/enroll') return reply(res, 201, enrolled(n));
    if (path === '/heartbeat') return reply(res, 200, { commands: [] });
    reply(res, 200, { success: true });
  }

  /** The n-th request to `path` is taken and never answered (or its body stops after `partialBody`). */
  silentOn(path: string, nth: number, partialBody?: string): void {
    this.routes.set(path, (n, res) => {
      if (n !== nth) return Stub.answer(path, n, res);
      if (partialBody !== undefined) {
        res.writeHead(201, { 'content-type': 'application/json' });
        res.write(partialBody);
      }
      this.held.push(res);
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.http.listen(0, '127.0.0.1', resolve));
    const address = this.http.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }

  async close(): Promise<void> {
    for (const ws of this.sockets) ws.terminate();
    this.wss.close();
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }
}

const enrolled = (n: number) => ({
  agentId: `agent-${n}`,
  deviceId: `device-${n}`,
  orgId: 'org',
  siteId: null,
  authToken: `token-${n}`,
  heartbeatIntervalSeconds: 60,
});

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function until(what: string, probe: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Lets the request reach its await, then collects everything collectable. */
async function collectWhileWaiting(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 30));
  gc();
  gc();
}

/** What the promise came to within `ms`: 'answered', the error it threw, or 'still waiting'. */
async function within(ms: number, promise: Promise<unknown>): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise((resolve) => (timer = setTimeout(() => resolve('still waiting'), ms)));
  try {
    return await Promise.race([
      promise.then(
        () => 'answered',
        (err: unknown) => err,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

let stub: Stub;
let agents: AgentModule.SimulatedAgent[] = [];
beforeEach(async () => {
  stub = new Stub();
  await stub.listen();
});
afterEach(async () => {
  await Promise.all(agents.map((a) => a.stop()));
  agents = [];
  await stub.close();
});

describe('an agent request that is never answered', () => {
  it('fails at its deadline even when a collection runs while it waits', async () => {
    stub.silentOn('/heartbeat', 2);
    const http = new transport.AgentHttp(stub.url, undefined, 300);
    const agentSignal = new AbortController().signal;
    // The first request compiles the request path (optimized, under --always-turbofan); the second one waits.
    await http.request('POST', '/agents/a/heartbeat', { body: {}, signal: agentSignal, timeoutMs: 30_000 });
    const pending = http.request('POST', '/agents/a/heartbeat', { body: {}, signal: agentSignal });
    await collectWhileWaiting();
    const outcome = await within(3_000, pending);
    expect(outcome).toBeInstanceOf(transport.TransportError);
    expect((outcome as Error).message).toBe('no answer within 300 ms');
  });

  it('a 2xx whose body stops half way fails too, instead of passing for an empty answer', async () => {
    stub.silentOn('/agents/enroll', 1, '{"agentId":');
    const http = new transport.AgentHttp(stub.url, undefined, 300);
    const pending = http.request('POST', '/agents/enroll', {
      body: {},
      signal: new AbortController().signal,
    });
    await collectWhileWaiting();
    expect(await within(3_000, pending)).toBeInstanceOf(transport.TransportError);
  });

  it('stopping the agent cancels its request at once; a per-request timeout overrides the default', async () => {
    stub.silentOn('/heartbeat', 1);
    stub.silentOn('/software', 1);
    const http = new transport.AgentHttp(stub.url, undefined, 60_000);
    const stop = new AbortController();
    const pending = http.request('POST', '/agents/a/heartbeat', { body: {}, signal: stop.signal });
    await collectWhileWaiting();
    stop.abort();
    expect(await within(1_000, pending)).toBeInstanceOf(transport.TransportError);
    expect(
      await within(3_000, http.request('PUT', '/agents/a/software', { body: {}, timeoutMs: 200 })),
    ).toBeInstanceOf(transport.TransportError);
    // Answered requests leave no deadline behind to fire later.
    expect(await http.request('GET', '/agents/a/ok')).toMatchObject({ status: 200, body: { success: true } });
  });
});

describe('a simulated agent whose request is never answered', () => {
  function start(index: number, startGate?: TimingModule.Gate) {
    const a = new agentModule.SimulatedAgent({
      http: new transport.AgentHttp(stub.url, undefined, 300),
      seed: 1,
      index,
      scenario,
      credentials: new MemoryCredentialStore(),
      counters: agentModule.newCounters(),
      enrollmentKey: 'key',
      heartbeatSeconds: 0.2,
      spreadFirstHeartbeat: false,
      startGate,
    });
    agents.push(a);
    a.start();
    return a;
  }

  it('the server enrolled it but the answer was lost: it enrolls again, beats, connects, and frees its start slot', async () => {
    stub.silentOn('/agents/enroll', 1);
    // One slot: the second agent can enroll only once the first one has let go of it.
    const gate = new timing.Gate(1);
    const first = start(0, gate);
    const second = start(1, gate);
    await until('the first enrollment reached the server', () => stub.count('/agents/enroll') >= 1);
    await collectWhileWaiting();
    await until('both agents beat', () => first.status.heartbeats >= 1 && second.status.heartbeats >= 1);
    await until('both sockets open', () => first.connected && second.connected);
    expect(first.phase).toBe('running');
    expect(stub.count('/agents/enroll')).toBe(3);
  });

  it('a 201 enrollment whose body never arrives is retried, not taken as a final refusal', async () => {
    stub.silentOn('/agents/enroll', 1, '{"agentId":');
    const a = start(0);
    await until('the first enrollment reached the server', () => stub.count('/agents/enroll') >= 1);
    await collectWhileWaiting();
    await until('it beats', () => a.status.heartbeats >= 1);
    expect(a.phase).toBe('running');
  });

  it('an unanswered heartbeat is given up and the beat goes on', async () => {
    stub.silentOn('/heartbeat', 1);
    const a = start(0);
    await until('the first heartbeat reached the server', () => stub.count('/heartbeat') >= 1);
    await collectWhileWaiting();
    await until('later heartbeats answered', () => a.status.heartbeats >= 2);
    await until('socket open', () => a.connected);
  });
});
