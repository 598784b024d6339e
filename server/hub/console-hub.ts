import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AppContext } from '../context';
import type { ConsoleServerMessage, WsTicketResponse } from '../contract';
import { randomToken, sha256Hex } from '../crypto';
import type { BusMessage, DeviceEvent } from '../events/bus';
import type { UserAuth } from '../http/auth-context';
import { callerHolds, PERMISSIONS, type Permission } from '../http/permissions';
import { scopeCovers } from '../http/scope';
import { reviewPushVisible } from '../modules/access-reviews';
import { auditEntryVisible } from '../modules/audit';
import { canSeeDevice, deviceVisibility, type DeviceVisibility } from '../modules/devices';

// Console sockets (DESIGN §4). A signed-in console trades its JWT for a single-use ticket valid 30 seconds
// (browsers cannot set headers on a WebSocket), then opens /api/v1/ws?ticket=. The hub forwards bus events
// to every console whose scope covers the event's organization; `device.*` and `elevation.*` events name a
// device, so they go only to consoles that could list it (devices:read, and the device visibility rule: one of
// its sites and one of its groups for a restricted user, group membership read when the event is pushed).

export const TICKET_TTL_SECONDS = 30;
/** Close code of a console whose session ended; the console signs in again rather than reconnecting. */
const SESSION_REVOKED_CLOSE = 4001;
const PING_INTERVAL_MS = 25_000;
/** Event families pushed to consoles (DESIGN §4). */
const PUSHED_PREFIXES = ['elevation.', 'device.', 'webhook.delivery.', 'access_review.', 'audit.'];
/**
 * Scope and restrictions are re-resolved at most this often, so a narrowed partner grant or organization-user
 * restriction takes effect on live sockets too.
 */
const SCOPE_TTL_MS = 30_000;
/** Event families a console receives only with the permission its list route asks for. */
const EVENT_PERMISSIONS: ReadonlyArray<readonly [prefix: string, permission: Permission]> = [
  ['device.', PERMISSIONS.DEVICES_READ],
  ['elevation.', PERMISSIONS.DEVICES_READ],
  ['audit.', PERMISSIONS.AUDIT_READ],
  // What GET /webhooks/:id/deliveries asks for (server/modules/webhooks/routes.ts).
  ['webhook.', PERMISSIONS.ORGANIZATIONS_READ],
  // What GET /access-reviews asks for (server/modules/access-reviews/routes.ts).
  ['access_review.', PERMISSIONS.USERS_READ],
];
/** Events about one device (device.*, elevation.*): only consoles that could list that device get them. */
const DEVICE_SCOPED_PREFIXES = ['device.', 'elevation.'];
/**
 * Audit entries of agents' own reports (`agent.eventlogs.submit`, one per upload) are not pushed: no screen shows
 * them live (the Overview skips them; the audit log's "new activity" is for people's actions), and at fleet scale
 * they were a push to every console per upload. The audit log lists them when read.
 */
const UNPUSHED_AUDIT_PREFIX = 'agent.';

interface Ticket {
  auth: UserAuth;
  expiresAt: number;
}

interface ConsoleClient {
  socket: WebSocket;
  auth: UserAuth;
  /** Which devices this console sees: its organizations and, for a restricted user, its sites and groups. */
  visibility: DeviceVisibility;
  /** The gated event prefixes (EVENT_PERMISSIONS) this console may receive. */
  readable: ReadonlySet<string>;
  scopeAt: number;
  alive: boolean;
}

/** Answers an upgrade that will not become a socket with a plain HTTP 401 and a JSON error body. */
function refuseUpgrade(socket: Duplex, body: { error: string; code?: string }): void {
  socket.end(
    `HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${JSON.stringify(body)}`,
  );
}

export class ConsoleHub {
  private readonly tickets = new Map<string, Ticket>();
  private readonly clients = new Set<ConsoleClient>();
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly pingTimer: NodeJS.Timeout;
  private readonly unsubscribe: Array<() => void> = [];

  constructor(private readonly ctx: AppContext) {
    this.unsubscribe.push(ctx.bus.onAny((message) => this.broadcast(message)));
    // A signed-out technician's consoles stop receiving at once.
    this.unsubscribe.push(
      ctx.bus.on('user.logout', ({ data }) => this.disconnectUser(data.userId, 'signed out')),
      // Disabled, removed, re-roled or offboarded: the console reconnects with a fresh ticket (or cannot).
      ctx.bus.on('user.sessions_revoked', ({ data }) => this.disconnectUser(data.userId, 'session revoked')),
      // One session ended (a copied refresh token was replayed): only that session's consoles close.
      ctx.bus.on('user.session_revoked', ({ data }) => this.disconnectSession(data.sessionId)),
    );
    this.pingTimer = setInterval(() => this.ping(), PING_INTERVAL_MS);
    this.pingTimer.unref();
  }

  issueTicket(auth: UserAuth): WsTicketResponse {
    const now = Date.now();
    for (const [key, ticket] of this.tickets) if (ticket.expiresAt <= now) this.tickets.delete(key);
    const ticket = randomToken(24);
    this.tickets.set(sha256Hex(ticket), { auth, expiresAt: now + TICKET_TTL_SECONDS * 1000 });
    return { ticket, expiresInSeconds: TICKET_TTL_SECONDS };
  }

  get connectedCount(): number {
    return this.clients.size;
  }

  /** Called from the HTTP server's `upgrade` event for /api/v1/ws. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const raw = url.searchParams.get('ticket') ?? '';
    const key = sha256Hex(raw);
    const ticket = this.tickets.get(key);
    this.tickets.delete(key); // single use, even when it turns out expired
    if (!ticket || ticket.expiresAt <= Date.now()) {
      refuseUpgrade(socket, { error: 'Invalid or expired ticket' });
      return;
    }
    // The ticket was issued for a session that may have ended since (sign-out, password change, reuse of a
    // copied refresh token): SQLite decides, not the ticket's own 30 seconds.
    if (!this.sessionHolds(ticket.auth)) {
      refuseUpgrade(socket, { error: 'Session has been revoked', code: 'TOKEN_REVOKED' });
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, ticket.auth));
  }

  private sessionHolds(auth: UserAuth): boolean {
    return this.ctx.tokens.liveSession(auth.userId, auth.sessionId, auth.tokenVersion) !== null;
  }

  private accept(socket: WebSocket, auth: UserAuth): void {
    const client: ConsoleClient = {
      socket,
      auth,
      ...this.access(auth),
      alive: true,
    };
    this.clients.add(client);
    socket.on('pong', () => (client.alive = true));
    socket.on('close', () => this.clients.delete(client));
    socket.on('error', (err) => this.ctx.log.debug({ err }, 'console socket error'));
    // Consoles only listen; anything they send is ignored rather than parsed.
    socket.on('message', () => undefined);
    this.send(client, { type: 'connected', userId: auth.userId, scope: auth.scope });
  }

  private broadcast(message: BusMessage): void {
    if (!PUSHED_PREFIXES.some((prefix) => message.event.startsWith(prefix))) return;
    if (
      message.event === 'audit.created' &&
      (message.data as BusMessage<'audit.created'>['data']).action.startsWith(UNPUSHED_AUDIT_PREFIX)
    )
      return;
    // Serialised once, for the first console it goes to, and the same text sent to every other.
    let text: string | null = null;
    const serialise = (data: unknown) =>
      JSON.stringify({
        type: 'event',
        event: message.event,
        data,
        orgId: message.orgId,
      } satisfies ConsoleServerMessage);
    for (const client of this.clients) {
      if (Date.now() - client.scopeAt > SCOPE_TTL_MS) Object.assign(client, this.access(client.auth));
      if (message.event === 'device.presence_changed') {
        const visible = this.visibleChanges(client, message as BusMessage<'device.presence_changed'>);
        if (visible === 'all') this.sendText(client, (text ??= serialise(message.data)));
        else if (visible.length > 0) this.sendText(client, serialise({ changes: visible }));
        continue;
      }
      if (!this.covers(client, message)) continue;
      this.sendText(client, (text ??= serialise(message.data)));
    }
  }

  /**
   * The changes of a presence batch the console may see: all of them (the common case: one shared text), or the
   * devices a restricted user could list.
   */
  private visibleChanges(
    client: ConsoleClient,
    message: BusMessage<'device.presence_changed'>,
  ): 'all' | DeviceEvent[] {
    if (!client.readable.has('device.') || !scopeCovers(client.visibility.scope, message.orgId)) return [];
    const { changes } = message.data;
    if (client.visibility.sites === null && client.visibility.deviceGroups === null) return 'all';
    const visible = changes.filter((c) => canSeeDevice(this.ctx.db, client.visibility, c));
    return visible.length === changes.length ? 'all' : visible;
  }

  private access(auth: UserAuth): Pick<ConsoleClient, 'visibility' | 'readable' | 'scopeAt'> {
    const { db } = this.ctx;
    return {
      visibility: deviceVisibility(this.ctx, auth),
      readable: new Set(
        EVENT_PERMISSIONS.filter(([, permission]) => callerHolds(db, auth, permission)).map(
          ([prefix]) => prefix,
        ),
      ),
      scopeAt: Date.now(),
    };
  }

  private covers(client: ConsoleClient, message: BusMessage): boolean {
    const gate = EVENT_PERMISSIONS.find(([prefix]) => message.event.startsWith(prefix));
    if (gate && !client.readable.has(gate[0])) return false;
    // A review belongs to a partner or one organization, not to the organizations a partner user sees.
    if (message.event.startsWith('access_review.')) {
      const { review } = message.data as BusMessage<'access_review.created'>['data'];
      return reviewPushVisible(this.ctx.db, client.auth, review);
    }
    if (!scopeCovers(client.visibility.scope, message.orgId)) return false;
    // A webhook carries events of its whole organization: like its routes, its pushes skip restricted users.
    if (message.event.startsWith('webhook.'))
      return client.visibility.sites === null && client.visibility.deviceGroups === null;
    if (message.event === 'audit.created') {
      const { resourceType, resourceId } = message.data as {
        resourceType: string;
        resourceId: string | null;
      };
      return auditEntryVisible(this.ctx.db, client.visibility, { resourceType, resourceId });
    }
    if (!DEVICE_SCOPED_PREFIXES.some((prefix) => message.event.startsWith(prefix))) return true;
    // DeviceEvent and ElevationRequest both name the device this way.
    const { deviceId, orgId, siteId } = message.data as Pick<DeviceEvent, 'deviceId' | 'orgId' | 'siteId'>;
    return canSeeDevice(this.ctx.db, client.visibility, { deviceId, orgId, siteId });
  }

  private send(client: ConsoleClient, message: ConsoleServerMessage): void {
    this.sendText(client, JSON.stringify(message));
  }

  private sendText(client: ConsoleClient, text: string): void {
    if (client.socket.readyState === client.socket.OPEN) client.socket.send(text);
  }

  private ping(): void {
    for (const client of this.clients) {
      if (!client.alive) {
        client.socket.terminate();
        continue;
      }
      // A revocation that announces nothing on the bus still ends its sockets within one ping interval.
      if (!this.sessionHolds(client.auth)) {
        client.socket.close(SESSION_REVOKED_CLOSE, 'session revoked');
        continue;
      }
      client.alive = false;
      client.socket.ping();
    }
  }

  disconnectUser(userId: string, reason: string): void {
    for (const client of this.clients) {
      if (client.auth.userId === userId) client.socket.close(SESSION_REVOKED_CLOSE, reason);
    }
  }

  private disconnectSession(sessionId: string): void {
    for (const client of this.clients) {
      if (client.auth.sessionId === sessionId) client.socket.close(SESSION_REVOKED_CLOSE, 'session revoked');
    }
  }

  close(): void {
    clearInterval(this.pingTimer);
    for (const off of this.unsubscribe) off();
    for (const client of this.clients) client.socket.close(1001, 'server shutting down');
    this.wss.close();
  }
}
