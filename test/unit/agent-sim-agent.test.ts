import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { newCounters, SimulatedAgent, type AgentEvent, type AgentOptions } from '../../agent-sim/agent';
import { getScenario } from '../../agent-sim/scenarios';
import { MemoryCredentialStore } from '../../agent-sim/state';
import { AgentHttp } from '../../agent-sim/transport';

// One simulated agent against a scripted stand-in for the server: how it reacts to each answer of the protocol
// (DESIGN §3) — refusals, outages, commands from both channels — without the real server's rules in the way.

type Handler = (req: IncomingMessage, body: any, res: ServerResponse) => void;

class FakeServer {
  readonly http: Server;
  readonly wss = new WebSocketServer({ noServer: true });
  readonly sockets: WebSocket[] = [];
  readonly received: Array<{ method: string; path: string; body: any }> = [];
  readonly socketMessages: any[] = [];
  url = '';
  enrolls = 0;
  heartbeat: Handler = (_req, _body, res) => json(res, 200, { commands: [], heartbeatIntervalSeconds: 60 });
  enroll: Handler = (_req, _body, res) =>
    json(res, 201, {
      agentId: `agent-${this.enrolls}`,
      deviceId: `device-${this.enrolls}`,
      orgId: 'org',
      siteId: null,
      authToken: `token-${this.enrolls}`,
      heartbeatIntervalSeconds: 60,
    });

  constructor() {
    this.http = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => (raw += chunk));
      req.on('end', () => {
        const body = raw ? JSON.parse(raw) : null;
        const path = req.url ?? '';
        this.received.push({ method: req.method ?? '', path, body });
        if (path === '/api/v1/agents/enroll') {
          this.enrolls++;
          return this.enroll(req, body, res);
        }
        if (path.endsWith('/heartbeat')) return this.heartbeat(req, body, res);
        if (path.endsWith('/logs')) return json(res, 201, { received: body.logs.length });
        if (path.endsWith('/eventlogs')) return json(res, 200, { success: true, count: body.events.length });
        if (path.endsWith('/software')) return json(res, 200, { success: true, count: body.software.length });
        if (path.includes('/commands/')) return json(res, 200, { status: body.status });
        json(res, 404, { error: 'Not found' });
      });
    });
    this.http.on('upgrade', (req, socket, head) => {
      this.wss.handleUpgrade(req, socket, head, (ws) => {
        this.sockets.push(ws);
        ws.on('message', (data) => this.socketMessages.push(JSON.parse(String(data))));
        ws.send(JSON.stringify({ type: 'connected' }));
      });
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

  count(suffix: string): number {
    return this.received.filter((r) => r.path.endsWith(suffix)).length;
  }
}

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function until<T>(what: string, probe: () => T, timeoutMs = 5_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let server: FakeServer;
let agents: SimulatedAgent[] = [];
beforeEach(async () => {
  server = new FakeServer();
  await server.listen();
});
afterEach(async () => {
  await Promise.all(agents.map((a) => a.stop()));
  agents = [];
  await server.close();
});

function agent(options: Partial<AgentOptions> = {}) {
  const events: AgentEvent[] = [];
  const credentials = new MemoryCredentialStore();
  const a = new SimulatedAgent({
    http: new AgentHttp(server.url),
    seed: 1,
    index: 0,
    scenario: getScenario('steady')!,
    credentials,
    counters: newCounters(),
    enrollmentKey: 'key',
    heartbeatSeconds: 0.1,
    spreadFirstHeartbeat: false,
    onEvent: (_agent, event) => events.push(event),
    ...options,
  });
  agents.push(a);
  a.start();
  return { agent: a, events, credentials };
}

describe('a simulated agent', () => {
  it('enrolls with its machine, heartbeats with metrics and posture, and reports software once', async () => {
    const { agent: a } = agent();
    await until('3 heartbeats', () => server.count('/heartbeat') >= 3);
    const enroll = server.received.find((r) => r.path === '/api/v1/agents/enroll')!.body;
    expect(enroll).toMatchObject({
      enrollmentKey: 'key',
      hostname: a.identity.hostname,
      osType: a.identity.osType,
      architecture: a.identity.architecture,
      agentVersion: '1.0.0',
      hardware: { serialNumber: a.identity.hardware.serialNumber },
    });
    const beat = server.received.find((r) => r.path === '/api/v1/agents/agent-1/heartbeat')!.body;
    expect(beat).toMatchObject({
      status: expect.stringMatching(/^(ok|warning|error)$/),
      agentVersion: '1.0.0',
    });
    expect(Object.keys(beat.metrics)).toEqual(['cpuPercent', 'ramPercent', 'diskPercent']);
    expect(beat.uptimeSeconds).toBeGreaterThan(0);
    await until('software reported', () => server.count('/software') === 1);
    expect(
      server.received.filter((r) => r.path.endsWith('/software'))[0]!.body.software.length,
    ).toBeGreaterThan(3);
    await until('socket open', () => a.connected);
  });

  it('stops for good when the server refuses its credentials (401), and remembers that', async () => {
    server.heartbeat = (_req, _body, res) => json(res, 401, { error: 'Invalid agent credentials' });
    const { agent: a, events, credentials } = agent();
    await until('stopped', () => a.phase === 'stopped');
    expect(a.status.reason).toBe(
      "the server refused the agent's credentials (HTTP 401 Invalid agent credentials)",
    );
    expect(credentials.get(0)).toEqual({ state: 'revoked', agent: null });
    expect(events).toContainEqual({ kind: 'stopped', reason: a.status.reason });
    const beats = server.count('/heartbeat');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.count('/heartbeat')).toBe(beats);
    expect(a.connected).toBe(false);
  });

  it('re-enrolls instead when told to', async () => {
    let refuse = true;
    server.heartbeat = (_req, _body, res) =>
      refuse
        ? ((refuse = false), json(res, 404, { error: 'Agent not found' }))
        : json(res, 200, { commands: [], heartbeatIntervalSeconds: 60 });
    const { agent: a } = agent({ reenrollOnUnauthorized: true });
    await until('second enrollment', () => server.enrolls === 2 && a.status.heartbeats >= 1);
    expect(a.agentId).toBe('agent-2');
    expect(a.phase).toBe('running');
  });

  it('a refused enrollment is final; an unavailable server is retried', async () => {
    server.enroll = (_req, _body, res) =>
      json(res, 401, { error: 'Invalid enrollment key', reason: 'enrollment_key_expired' });
    const { agent: a } = agent();
    await until('failed', () => a.phase === 'failed');
    expect(a.status.reason).toBe(
      'enrollment refused: HTTP 401 Invalid enrollment key / enrollment_key_expired',
    );
    expect(server.enrolls).toBe(1);
  });

  it('rides out 5xx answers and honours Retry-After', async () => {
    let n = 0;
    server.heartbeat = (_req, _body, res) => {
      n++;
      if (n === 1) return json(res, 503, { error: 'down' });
      if (n === 2) return json(res, 429, { error: 'slow down' }, { 'Retry-After': '0' });
      json(res, 200, { commands: [], heartbeatIntervalSeconds: 60 });
    };
    const { agent: a } = agent();
    await until('a successful heartbeat', () => a.status.heartbeats >= 1, 8_000);
    expect(a.phase).toBe('running');
  });

  it('answers socket commands on the socket, heartbeat commands over HTTP, and each command once', async () => {
    let queued = true;
    server.heartbeat = (_req, _body, res) => {
      const commands = queued
        ? [
            { id: 'c-http', type: 'event_logs_list', payload: {} },
            { id: 'c-both', type: 'event_log_info', payload: { logName: 'System' } },
          ]
        : [];
      queued = false;
      json(res, 200, { commands, heartbeatIntervalSeconds: 60 });
    };
    const { agent: a } = agent();
    await until('socket open', () => a.connected && server.sockets.length === 1);
    const ws = server.sockets[0]!;
    ws.send(
      JSON.stringify({
        type: 'command',
        id: 'c-ws',
        commandType: 'event_log_info',
        payload: { logName: 'setup' },
      }),
    );
    ws.send(
      JSON.stringify({
        type: 'command',
        id: 'c-both',
        commandType: 'event_log_info',
        payload: { logName: 'System' },
      }),
    );
    ws.send(JSON.stringify({ type: 'command', id: 'c-odd', commandType: 'reformat_disk', payload: {} }));
    ws.send(JSON.stringify({ type: 'ping' }));
    ws.send('not json');

    await until(
      'socket answers',
      () => server.socketMessages.filter((m) => m.type === 'command_result').length >= 2,
    );
    await until('http answer', () => server.count('/commands/c-http/result') === 1);
    const results = server.socketMessages.filter((m) => m.type === 'command_result');
    expect(results).toContainEqual({
      type: 'command_result',
      commandId: 'c-ws',
      status: 'completed',
      result: a.eventLogs.info('Setup'),
    });
    expect(results).toContainEqual({
      type: 'command_result',
      commandId: 'c-odd',
      status: 'failed',
      error: 'Unsupported command type: reformat_disk',
    });
    expect(server.socketMessages).toContainEqual({ type: 'pong' });
    const httpResult = server.received.find((r) => r.path.endsWith('/commands/c-http/result'))!.body;
    expect(httpResult).toEqual({ status: 'completed', result: { logs: a.eventLogs.list() } });
    // c-both arrived twice (socket and heartbeat): answered once, over whichever channel won.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const both =
      results.filter((m) => m.commandId === 'c-both').length + server.count('/commands/c-both/result');
    expect(both).toBe(1);
  });

  it('keeps going on a lossy network (flaky-network): failed requests are retried, not fatal', async () => {
    let dropped = 0;
    const http = new AgentHttp(server.url, () => dropped++ % 2 === 0); // every other request is lost
    const { agent: a } = agent({ http, scenario: getScenario('flaky-network')! });
    await until('3 heartbeats through the losses', () => a.status.heartbeats >= 3, 15_000);
    expect(a.phase).toBe('running');
    expect(server.enrolls).toBe(1);
  });

  it('reconnects its socket with backoff after the server drops it', async () => {
    const { agent: a } = agent();
    await until('socket open', () => a.connected && server.sockets.length === 1);
    server.sockets[0]!.terminate();
    await until('reconnected', () => server.sockets.length === 2 && a.connected, 5_000);
  });

  it('ignores an upgrade offer that is not newer', async () => {
    server.heartbeat = (_req, _body, res) =>
      json(res, 200, {
        commands: [],
        upgradeTo: { version: '0.9.0', downloadUrl: `${server.url}/old`, checksum: 'a'.repeat(64) },
        heartbeatIntervalSeconds: 60,
      });
    const { agent: a } = agent();
    await until('3 heartbeats', () => a.status.heartbeats >= 3);
    expect(server.received.some((r) => r.path === '/old')).toBe(false);
    expect(a.agentVersion).toBe('1.0.0');
  });
});
