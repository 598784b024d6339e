import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { createServer, type ServerOptions } from '../../server/index';
import { insertEnrollmentKey } from '../../server/modules/enrollment-keys/service';
import { ADMIN, ApiClient, type ApiResponse, type TestServer } from './server';

// A tiny agent that speaks the raw protocol of DESIGN §3 (fetch + ws), for tests. It knows nothing of the
// server's internals: it enrolls, heartbeats, reports and answers commands exactly as a real agent would.

/** startServer with the agent-side test timings (ping interval, live-query timeout, presence sweep). */
export async function startAgentServer(
  options: {
    env?: Record<string, string>;
    agentTimings?: ServerOptions['agentTimings'];
  } = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-agents-'));
  const server = await createServer({
    dataDir,
    port: 0,
    host: '127.0.0.1',
    staticDir: null,
    env: {
      LOG_LEVEL: 'silent',
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      ...options.env,
    },
    ...(options.agentTimings ? { agentTimings: options.agentTimings } : {}),
  });
  return {
    ...server,
    dataDir,
    api: new ApiClient(server.url),
    async dispose() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Mints an enrollment key straight through the service (the HTTP route is covered by its own tests). */
export function mintEnrollmentKey(
  server: TestServer,
  orgId: string,
  options: { siteId?: string | null; maxUsage?: number; expiresAt?: string } = {},
): { id: string; key: string } {
  const { row, key } = insertEnrollmentKey(server.context, {
    orgId,
    siteId: options.siteId ?? null,
    name: 'test key',
    maxUsage: options.maxUsage ?? 100,
    ...(options.expiresAt ? { expiresAt: options.expiresAt } : {}),
    createdBy: 'test',
  });
  return { id: row.id, key };
}

let hostCounter = 0;

export function enrollmentBody(enrollmentKey: string, overrides: Record<string, unknown> = {}) {
  hostCounter++;
  return {
    enrollmentKey,
    hostname: `test-host-${hostCounter}`,
    osType: 'windows',
    osVersion: 'Windows 11 Pro 23H2',
    architecture: 'x64',
    agentVersion: '1.0.0',
    hardware: { manufacturer: 'Dell Inc.', model: 'Latitude 7440', cpuCores: 8, ramTotalMb: 16384 },
    network: { ipAddress: '10.0.0.5', macAddress: '00:11:22:33:44:55' },
    ...overrides,
  };
}

export interface AgentCredentials {
  agentId: string;
  deviceId: string;
  orgId: string;
  siteId: string | null;
  authToken: string;
  heartbeatIntervalSeconds: number;
}

export interface CommandMessage {
  type: 'command';
  id: string;
  commandType: string;
  payload: Record<string, unknown>;
}

type AnyMessage = { type: string } & Record<string, unknown>;

export class TestAgent {
  readonly api: ApiClient;

  constructor(
    baseUrl: string,
    readonly creds: AgentCredentials,
  ) {
    this.api = new ApiClient(baseUrl);
  }

  /** Enrolls; returns the agent, or throws with the answer when enrollment was refused. */
  static async enroll(
    server: TestServer,
    enrollmentKey: string,
    overrides: Record<string, unknown> = {},
  ): Promise<TestAgent> {
    const res = await server.api.post('/agents/enroll', enrollmentBody(enrollmentKey, overrides));
    if (res.status !== 201) throw new Error(`enroll failed: ${res.status} ${JSON.stringify(res.body)}`);
    return new TestAgent(server.url, res.body as AgentCredentials);
  }

  get path(): string {
    return `/agents/${this.creds.agentId}`;
  }

  private call<T = any>(method: string, sub: string, body: unknown, token = this.creds.authToken) {
    return this.api.request<T>(method, `${this.path}${sub}`, { body, token });
  }

  heartbeat(body: Record<string, unknown> = {}, token?: string): Promise<ApiResponse> {
    return this.call('POST', '/heartbeat', { status: 'ok', agentVersion: '1.0.0', ...body }, token);
  }

  result(commandId: string, body: Record<string, unknown>, token?: string): Promise<ApiResponse> {
    return this.call('POST', `/commands/${commandId}/result`, body, token);
  }

  logs(logs: unknown[], token?: string): Promise<ApiResponse> {
    return this.call('POST', '/logs', { logs }, token);
  }

  eventlogs(events: unknown[], token?: string): Promise<ApiResponse> {
    return this.call('PUT', '/eventlogs', { events }, token);
  }

  software(software: unknown[], token?: string): Promise<ApiResponse> {
    return this.call('PUT', '/software', { software }, token);
  }

  socketUrl(): string {
    return `${this.api.baseUrl.replace(/^http/, 'ws')}/api/v1${this.path}/ws`;
  }

  /** Opens the agent socket; resolves once open, rejects with the HTTP status when the upgrade is refused. */
  connect(options: { token?: string; autoPong?: boolean } = {}): Promise<AgentSocket> {
    return AgentSocket.open(
      this.socketUrl(),
      options.token ?? this.creds.authToken,
      options.autoPong ?? true,
    );
  }
}

/** The HTTP answer to a refused upgrade. */
export class UpgradeRefused extends Error {
  constructor(
    readonly status: number,
    readonly body: any,
  ) {
    super(`upgrade refused: HTTP ${status}`);
  }
}

export class AgentSocket {
  readonly messages: AnyMessage[] = [];
  private readonly waiters: Array<{
    predicate: (m: AnyMessage) => boolean;
    resolve: (m: AnyMessage) => void;
  }> = [];
  /** Answers commands automatically when set (return undefined to stay silent). */
  onCommand: ((command: CommandMessage) => Record<string, unknown> | undefined) | null = null;
  pings = 0;
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as AnyMessage;
      this.messages.push(message);
      if (message.type === 'command' && this.onCommand) {
        const answer = this.onCommand(message as unknown as CommandMessage);
        if (answer) this.send({ type: 'command_result', commandId: message.id, ...answer });
      }
      for (const w of [...this.waiters]) {
        if (w.predicate(message)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(message);
        }
      }
    });
    socket.on('ping', () => this.pings++);
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  static open(url: string, token: string, autoPong: boolean): Promise<AgentSocket> {
    const socket = new WebSocket(url, { headers: { authorization: `Bearer ${token}` }, autoPong });
    const agentSocket = new AgentSocket(socket);
    return new Promise((resolve, reject) => {
      socket.on('unexpected-response', (_req, res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => {
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // keep the text
          }
          reject(new UpgradeRefused(res.statusCode ?? 0, body));
        });
      });
      socket.on('error', (err) => reject(err));
      socket.on('open', () => resolve(agentSocket));
    });
  }

  send(message: Record<string, unknown>): void {
    this.socket.send(JSON.stringify(message));
  }

  next(predicate: (m: AnyMessage) => boolean, timeoutMs = 5000): Promise<AnyMessage> {
    const found = this.messages.find(predicate);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for an agent message')), timeoutMs);
      this.waiters.push({ predicate, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  }

  nextCommand(commandType?: string, timeoutMs?: number): Promise<CommandMessage> {
    return this.next(
      (m) => m.type === 'command' && (!commandType || m.commandType === commandType),
      timeoutMs,
    ) as unknown as Promise<CommandMessage>;
  }

  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) {
      this.socket.close();
    }
    await this.closed;
  }
}

/** Polls `check` until it returns a truthy value (state written by another part of the server). */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 5000, stepMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}
