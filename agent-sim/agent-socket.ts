import WebSocket, { type RawData } from 'ws';
import type { AgentLog, FleetCounters } from './agent-options';
import { BACKOFF_CAP_MS, errorMessage, REFUSED_BACKOFF_CAP_MS } from './answers';
import { serverMessage } from './protocol';
import { backoff } from './random';
import type { SavedAgent } from './state';
import type { Gate } from './timing';
import type { AgentHttp } from './transport';

// The agent's WebSocket (DESIGN §3): opened through the fleet's connect gate, kept alive by pings and an idle
// watchdog, reopened with backoff when it drops, answering pings and handing commands to the agent.

/** Generous: a busy server (or a fleet sharing its process) answers upgrades late rather than never. */
const HANDSHAKE_TIMEOUT_MS = 30_000;

/** What the socket needs of its agent. */
export interface SocketHost {
  readonly http: AgentHttp;
  readonly connectGate: Gate | undefined;
  readonly counters: FleetCounters;
  /** The signal of the agent's current run; null once stopped. */
  runSignal(): AbortSignal | null;
  credentials(): SavedAgent | null;
  version(): string;
  heartbeatIntervalMs(): number;
  log: AgentLog;
  /** A refused upgrade: the heartbeat is where the agent learns whether its credentials still hold. */
  wakeHeartbeat(): void;
  onCommand(id: string, type: string, payload: Record<string, unknown>): void;
}

export class AgentSocket {
  private ws: WebSocket | null = null;
  /** Waiting at the connect gate. */
  private pending = false;
  private open = false;
  private attempt = 0;
  private reconnectNow = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(private readonly host: SocketHost) {}

  get connected(): boolean {
    return this.open;
  }

  /** A socket exists (open or in its handshake). */
  get attached(): boolean {
    return this.ws !== null;
  }

  /**
   * Opens the agent socket, through the fleet's connect gate when there is one: a fleet coming up (or coming
   * back after a server restart) then has a bounded number of handshakes in flight, so each one completes in
   * time instead of all of them timing out together and retrying in a storm.
   */
  connect(): void {
    const signal = this.host.runSignal();
    if (!signal || signal.aborted || !this.host.credentials()) return;
    this.clearReconnect();
    if (this.ws || this.pending) return;
    this.pending = true;
    const open = () =>
      new Promise<void>((settled) => {
        this.pending = false;
        const saved = this.host.credentials();
        if (signal.aborted || !saved || this.ws) return settled();
        // The gate slot is held until the handshake ends one way or the other, and never past its timeout.
        const guard = setTimeout(() => {
          if (this.ws?.readyState === WebSocket.CONNECTING) this.ws.terminate();
          done();
        }, HANDSHAKE_TIMEOUT_MS + 5_000);
        const done = () => {
          clearTimeout(guard);
          settled();
        };
        try {
          this.openSocket(saved, signal, done);
        } catch (err) {
          // No socket, so no close event to schedule the next attempt: schedule it here.
          done();
          this.ws = null;
          this.host.counters.errors++;
          this.host.log('warn', 'websocket', `cannot open the socket: ${errorMessage(err)}`);
          this.reconnectTimer = setTimeout(
            () => this.connect(),
            backoff(this.attempt++, 1000, BACKOFF_CAP_MS),
          );
        }
      });
    const gate = this.host.connectGate;
    (gate ? gate.run(open) : open()).catch(() => undefined);
  }

  /** Sends a frame when the socket is open; false when it is not (the caller falls back to HTTP). */
  send(message: object): boolean {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(message));
    return true;
  }

  /** A simulated dropped link: the close handler reconnects as after a real one. */
  drop(): void {
    this.ws?.terminate();
  }

  /** "Restart" after an update: reconnect at once (under the new version). */
  restart(): void {
    if (this.ws) {
      this.reconnectNow = true;
      this.ws.close(1012, 'agent restarting');
    } else {
      this.connect();
    }
  }

  close(code: number, reason: string): Promise<void> {
    this.clearReconnect();
    this.pending = false;
    this.clearIdle();
    const ws = this.ws;
    this.ws = null;
    this.open = false;
    if (!ws || ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      const force = setTimeout(() => {
        ws.terminate();
        resolve();
      }, 1_000);
      ws.once('close', () => {
        clearTimeout(force);
        resolve();
      });
      if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
      else ws.close(code, reason);
    });
  }

  private openSocket(saved: SavedAgent, signal: AbortSignal, settled: () => void): void {
    const ws = new WebSocket(this.host.http.wsUrl(`/agents/${encodeURIComponent(saved.agentId)}/ws`), {
      headers: {
        authorization: `Bearer ${saved.authToken}`,
        'user-agent': `gatehouse-agent/${this.host.version()} (simulated)`,
      },
      handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
    });
    this.ws = ws;
    let refusedStatus: number | null = null;
    let lastError: string | null = null;
    ws.on('open', () => {
      settled();
      if (this.ws !== ws) return;
      this.open = true;
      this.attempt = 0;
      this.armIdle(ws);
    });
    ws.on('ping', () => this.armIdle(ws));
    ws.on('message', (data, isBinary) => {
      this.armIdle(ws);
      this.onMessage(ws, data, isBinary);
    });
    ws.on('error', (err) => {
      const status = /Unexpected server response: (\d+)/.exec(err.message)?.[1];
      if (status) refusedStatus = Number(status);
      else lastError = err.message;
    });
    ws.on('close', (code) => {
      settled();
      const wasOpen = this.open && this.ws === ws;
      if (this.ws !== ws) return;
      this.ws = null;
      this.open = false;
      this.clearIdle();
      if (this.host.runSignal() !== signal || signal.aborted) return;
      if (wasOpen) {
        this.host.counters.reconnects++;
        if (!this.reconnectNow)
          this.host.log('warn', 'websocket', `connection closed (code ${code}); reconnecting`);
      } else if (refusedStatus !== null || lastError) {
        this.host.counters.errors++;
      }
      if (refusedStatus === 401 || refusedStatus === 404) this.host.wakeHeartbeat();
      const cap = refusedStatus === 403 ? REFUSED_BACKOFF_CAP_MS : BACKOFF_CAP_MS;
      const delay = this.reconnectNow ? 0 : backoff(this.attempt++, 1000, cap);
      this.reconnectNow = false;
      this.reconnectTimer = setTimeout(() => this.connect(), delay);
    });
  }

  /** No frame (ping or message) for a long while means a dead link the OS has not noticed: drop it. */
  private armIdle(ws: WebSocket): void {
    this.clearIdle();
    const idleMs = Math.max(90_000, 3 * this.host.heartbeatIntervalMs());
    this.idleTimer = setTimeout(() => {
      if (this.ws === ws) ws.terminate();
    }, idleMs);
    this.idleTimer.unref?.();
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private clearReconnect(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  private onMessage(ws: WebSocket, data: RawData, isBinary: boolean): void {
    if (isBinary) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data.toString());
    } catch {
      this.host.log('warn', 'websocket', 'unreadable message from the server');
      return;
    }
    const message = serverMessage.safeParse(parsed);
    // Acks, pongs and error notes need no action; unknown types come from newer servers.
    if (!message.success) return;
    if (message.data.type === 'ping' && ws.readyState === WebSocket.OPEN)
      ws.send(JSON.stringify({ type: 'pong' }));
    if (message.data.type === 'command')
      this.host.onCommand(message.data.id, message.data.commandType, message.data.payload ?? {});
  }
}
