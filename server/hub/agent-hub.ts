import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { z } from 'zod';
import type { AppContext } from '../context';
import type { AgentHubPort } from './agent-hub-port';
import { createPresenceQueue, type PresenceQueue } from './presence-queue';
import { HttpError } from '../http/errors';
import {
  authenticateAgent,
  claimCommands,
  recordCommandResult,
  type WireCommand,
  presenceThresholds,
  agentDeviceById,
  type AgentDeviceRow,
  markCommandRowSent,
} from '../modules/agents';

// Agent sockets (DESIGN §3): `GET /api/v1/agents/:agentId/ws` with the agent's bearer token, checked before the
// upgrade. The hub pushes stored commands, carries live event-log queries (correlated in memory, never stored:
// spec 2), pings every socket once every 25 s and drops one that missed two pongs. One socket per device: a newer
// one replaces the older.
//
// Nothing here walks the fleet at once (issue 18): pings go out a slice per tick, spread over the interval, and a
// socket's credential is not re-read from SQLite per round. What revokes a credential closes exactly the affected
// sockets when it happens: a decommissioned device (the `device.decommissioned` event, below), an uninstalled
// agent (agents module), a partner that stops being active, is churned or deleted, a deleted organization
// (tenancy module: disconnectPartner / disconnectOrg).

export const AGENT_SOCKET_PATH = /^\/api\/v1\/agents\/([^/]+)\/ws$/;
const PING_INTERVAL_MS = 25_000;
/** How often a slice of the sockets is pinged: at 10,000 sockets and 25 s, 40 pings a tick. */
const PING_TICK_MS = 100;
const LIVE_QUERY_TIMEOUT_MS = 30_000;
/** Live query pages can be large (raw XML per entry); anything beyond this is not an agent we understand. */
const MAX_PAYLOAD_BYTES = 1024 * 1024;
const MISSED_PONGS_ALLOWED = 2;

export interface AgentHubOptions {
  pingIntervalMs?: number;
  liveQueryTimeoutMs?: number;
}

const commandResultMessage = z.object({
  type: z.literal('command_result'),
  commandId: z.string().min(1).max(100),
  status: z.enum(['completed', 'failed', 'timeout']),
  result: z.unknown().optional(),
  error: z.string().max(10_000).optional(),
});
const agentMessage = z.discriminatedUnion('type', [
  commandResultMessage,
  z.object({ type: z.literal('ping') }),
]);

interface Connection {
  socket: WebSocket;
  deviceId: string;
  orgId: string;
  partnerId: string;
  missedPongs: number;
}

interface LiveQuery {
  deviceId: string;
  resolve: (value: unknown) => void;
  reject: (err: HttpError) => void;
  timer: NodeJS.Timeout;
}

const offline = () => new HttpError(409, 'Device is offline', 'DEVICE_OFFLINE');
const dropped = () => new HttpError(409, 'The device disconnected before answering', 'DEVICE_OFFLINE');

function rawHttpError(socket: Duplex, err: HttpError): void {
  const body = JSON.stringify({ error: err.message, ...(err.code ? { code: err.code } : {}) });
  socket.end(
    `HTTP/1.1 ${err.status} ${STATUS_CODES[err.status] ?? 'Error'}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** A malformed escape is just an id no agent has (404), not a server error. */
function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export class AgentHub implements AgentHubPort {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD_BYTES });
  private readonly connections = new Map<string, Connection>();
  private readonly live = new Map<string, LiveQuery>();
  /** Devices whose socket closed, waiting out the reconnect grace before they read offline. */
  private readonly closing = new Map<string, NodeJS.Timeout>();
  private readonly pingTimer: NodeJS.Timeout;
  /** Where the ping sweep stands in `connections` (a live Map iterator: removals and additions are seen). */
  private pingCursor: Iterator<Connection> | null = null;
  private readonly liveQueryTimeoutMs: number;
  private readonly unsubscribe: Array<() => void> = [];
  private readonly presence: PresenceQueue;
  private closed = false;

  constructor(
    private readonly ctx: AppContext,
    options: AgentHubOptions = {},
  ) {
    this.liveQueryTimeoutMs = options.liveQueryTimeoutMs ?? LIVE_QUERY_TIMEOUT_MS;
    this.presence = createPresenceQueue(ctx);
    const intervalMs = options.pingIntervalMs ?? PING_INTERVAL_MS;
    const ticksPerRound = Math.max(1, Math.floor(intervalMs / PING_TICK_MS));
    this.pingTimer = setInterval(() => {
      try {
        this.pingSlice(ticksPerRound);
      } catch (err) {
        ctx.log.error({ err }, 'agent socket ping failed');
      }
    }, intervalMs / ticksPerRound);
    this.pingTimer.unref();
    // A removed device's socket closes on the next turn: its `self_uninstall`, sent after the same commit, goes out
    // first (the close frame follows queued data); the agent reports it done over HTTP (narrowed credential).
    this.unsubscribe.push(
      ctx.bus.on('device.decommissioned', ({ data }) => {
        setImmediate(() => this.disconnect(data.deviceId, 'device decommissioned'));
      }),
    );
  }

  isConnected(deviceId: string): boolean {
    return this.connections.get(deviceId)?.socket.readyState === 1;
  }

  get connectedCount(): number {
    return this.connections.size;
  }

  /** Called from the HTTP server's `upgrade` event for /api/v1/agents/:agentId/ws. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, agentId: string): void {
    if (this.closed) {
      rawHttpError(socket, new HttpError(503, 'Server is shutting down'));
      return;
    }
    let device: AgentDeviceRow;
    try {
      const caller = authenticateAgent(
        this.ctx.db,
        decodePathSegment(agentId),
        req.headers.authorization,
        'socket',
      );
      device = caller.device;
    } catch (err) {
      if (err instanceof HttpError) rawHttpError(socket, err);
      else {
        this.ctx.log.error({ err }, 'agent socket authentication failed');
        rawHttpError(socket, new HttpError(500, 'Internal server error'));
      }
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, device));
  }

  private accept(socket: WebSocket, device: AgentDeviceRow): void {
    const deviceId = device.id;
    const previous = this.connections.get(deviceId);
    const conn: Connection = {
      socket,
      deviceId,
      orgId: device.org_id,
      partnerId: device.partner_id,
      missedPongs: 0,
    };
    this.connections.set(deviceId, conn);
    this.cancelOffline(deviceId);
    // The old socket leaves the map first, so its close does not mark the device offline.
    if (previous) previous.socket.close(4000, 'replaced by a newer connection');
    socket.on('pong', () => (conn.missedPongs = 0));
    socket.on('close', () => this.onClose(conn));
    socket.on('error', (err) => this.ctx.log.debug({ err, deviceId }, 'agent socket error'));
    socket.on('message', (data, isBinary) => this.onMessage(conn, data, isBinary));
    this.send(conn, { type: 'connected' });
    this.presence.queue({ deviceId, online: true });
    for (const command of claimCommands(this.ctx, deviceId, false)) this.sendCommand(conn, command);
  }

  private onMessage(conn: Connection, data: RawData, isBinary: boolean): void {
    let parsed: unknown;
    try {
      if (isBinary) throw new Error('binary');
      parsed = JSON.parse(data.toString());
    } catch {
      this.send(conn, { type: 'error', error: 'Messages must be JSON text' });
      return;
    }
    const result = agentMessage.safeParse(parsed);
    if (!result.success) {
      const issue = result.error.issues[0];
      const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
      this.send(conn, { type: 'error', error: `${where}${issue?.message ?? 'Invalid message'}` });
      return;
    }
    const message = result.data;
    if (message.type === 'ping') {
      this.send(conn, { type: 'pong' });
      return;
    }
    const query = this.live.get(message.commandId);
    if (query && query.deviceId === conn.deviceId) {
      this.live.delete(message.commandId);
      clearTimeout(query.timer);
      if (message.status === 'completed') query.resolve(message.result ?? null);
      else if (message.status === 'timeout') query.reject(this.timeoutError());
      else query.reject(new HttpError(502, message.error || 'The agent reported an error', 'AGENT_ERROR'));
      return;
    }
    try {
      // Read fresh: the device may have been decommissioned since the socket opened.
      const device = agentDeviceById(this.ctx.db, conn.deviceId);
      if (!device) throw new HttpError(404, 'Agent not found');
      const outcome = recordCommandResult(this.ctx, device, message.commandId, message);
      this.send(conn, { type: 'command_result_ack', commandId: message.commandId, status: outcome.status });
    } catch (err) {
      if (err instanceof HttpError) {
        this.send(conn, { type: 'error', commandId: message.commandId, error: err.message });
      } else {
        this.ctx.log.error({ err, deviceId: conn.deviceId }, 'agent command result failed');
        this.send(conn, { type: 'error', commandId: message.commandId, error: 'Internal server error' });
      }
    }
  }

  private onClose(conn: Connection): void {
    if (this.connections.get(conn.deviceId) !== conn) return;
    this.forget(conn, dropped);
    this.offlineAfterGrace(conn.deviceId);
  }

  /**
   * After a socket ends: unless the agent reconnects or heartbeats within the grace, its device goes offline (with
   * the push that turns the console's row), however recent its last heartbeat before the close. A later heartbeat
   * brings it back online.
   */
  private offlineAfterGrace(deviceId: string): void {
    if (this.closed) return;
    this.cancelOffline(deviceId);
    const { socketGraceMs } = presenceThresholds(this.ctx.config.agentHeartbeatSeconds);
    const closedAt = new Date().toISOString();
    const timer = setTimeout(() => {
      this.closing.delete(deviceId);
      // Unless the agent came back meanwhile: a new socket (checked here), or an HTTP heartbeat after the close
      // (checked when written: then the staleness sweep decides from here).
      if (!this.closed && !this.connections.has(deviceId))
        this.presence.queue({ deviceId, online: false, unseenSince: closedAt });
    }, socketGraceMs);
    timer.unref();
    this.closing.set(deviceId, timer);
  }

  private cancelOffline(deviceId: string): void {
    const timer = this.closing.get(deviceId);
    if (!timer) return;
    clearTimeout(timer);
    this.closing.delete(deviceId);
  }

  /** Drops the connection from the hub and fails the live queries that were waiting on it. */
  private forget(conn: Connection, reason: () => HttpError): void {
    if (this.connections.get(conn.deviceId) === conn) this.connections.delete(conn.deviceId);
    for (const [id, query] of this.live) {
      if (query.deviceId !== conn.deviceId) continue;
      this.live.delete(id);
      clearTimeout(query.timer);
      query.reject(reason());
    }
  }

  private send(conn: Connection, message: Record<string, unknown>): boolean {
    if (conn.socket.readyState !== 1) return false;
    conn.socket.send(JSON.stringify(message));
    return true;
  }

  private sendCommand(conn: Connection, command: WireCommand): boolean {
    return this.send(conn, {
      type: 'command',
      id: command.id,
      commandType: command.type,
      payload: command.payload,
    });
  }

  /**
   * Sends a stored device_commands row over the socket if the agent is connected; true when sent (then the row
   * is marked `sent`).
   */
  push(deviceId: string, command: WireCommand): boolean {
    const conn = this.connections.get(deviceId);
    if (!conn || !this.sendCommand(conn, command)) return false;
    markCommandRowSent(this.ctx.db, command.id, new Date().toISOString());
    return true;
  }

  private timeoutError(): HttpError {
    return new HttpError(504, 'The device did not answer within 30 seconds', 'LIVE_QUERY_TIMEOUT');
  }

  /**
   * Live query (event_logs_list, event_log_info, event_logs_query, event_log_get): sends
   * `{type:'command', id, commandType, payload}` and resolves with the agent's `result`. Never stored.
   * Rejects with 409 DEVICE_OFFLINE (no socket, or it closed before answering), 504 LIVE_QUERY_TIMEOUT, or
   * 502 AGENT_ERROR carrying the agent's error.
   */
  request(deviceId: string, commandType: string, payload: Record<string, unknown>): Promise<unknown> {
    const conn = this.connections.get(deviceId);
    if (!conn || conn.socket.readyState !== 1) return Promise.reject(offline());
    const id = randomUUID();
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.live.delete(id);
        reject(this.timeoutError());
      }, this.liveQueryTimeoutMs);
      timer.unref();
      this.live.set(id, { deviceId, resolve, reject, timer });
      this.send(conn, { type: 'command', id, commandType, payload });
    });
  }

  disconnect(deviceId: string, reason: string): void {
    const conn = this.connections.get(deviceId);
    if (!conn) return;
    this.forget(conn, dropped);
    // Close reasons are limited to 123 bytes by the protocol.
    conn.socket.close(4001, reason.slice(0, 120));
    this.offlineAfterGrace(deviceId);
  }

  /** Closes every socket of a partner's devices (offboarding narrows agents to HTTP; churn severs them). */
  disconnectPartner(partnerId: string, reason: string): number {
    let count = 0;
    for (const conn of [...this.connections.values()]) {
      if (conn.partnerId !== partnerId) continue;
      this.disconnect(conn.deviceId, reason);
      count++;
    }
    return count;
  }

  /** Closes every socket of an organization's devices (the organization was deleted). */
  disconnectOrg(orgId: string, reason: string): number {
    let count = 0;
    for (const conn of [...this.connections.values()]) {
      if (conn.orgId !== orgId) continue;
      this.disconnect(conn.deviceId, reason);
      count++;
    }
    return count;
  }

  /** Pings the next `1 / ticksPerRound` of the sockets, so each is pinged once per interval. */
  private pingSlice(ticksPerRound: number): void {
    const quota = Math.ceil(this.connections.size / ticksPerRound);
    for (let i = 0; i < quota; i++) {
      let next = this.pingCursor?.next();
      if (!next || next.done) {
        this.pingCursor = this.connections.values();
        next = this.pingCursor.next();
        if (next.done) return;
      }
      this.pingOne(next.value);
    }
  }

  private pingOne(conn: Connection): void {
    if (conn.missedPongs >= MISSED_PONGS_ALLOWED) {
      this.forget(conn, dropped);
      conn.socket.terminate();
      this.offlineAfterGrace(conn.deviceId);
      return;
    }
    conn.missedPongs++;
    if (conn.socket.readyState === 1) conn.socket.ping();
  }

  close(): void {
    this.closed = true;
    clearInterval(this.pingTimer);
    for (const off of this.unsubscribe) off();
    for (const timer of this.closing.values()) clearTimeout(timer);
    this.closing.clear();
    this.presence.close();
    for (const conn of [...this.connections.values()]) {
      this.forget(conn, () => new HttpError(503, 'Server is shutting down'));
      conn.socket.close(1001, 'server shutting down');
    }
    this.wss.close();
  }
}
