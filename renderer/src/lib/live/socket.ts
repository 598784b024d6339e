// The console's live channel: a single-use ticket from POST /ws/ticket, then a WebSocket on the same host.
// Reconnects with exponential backoff and full jitter (capped at 15 s), with a fresh ticket every time.

import { create } from 'zustand';
import type {
  ConsoleEventMap,
  ConsoleEventName,
  ConsoleSocketMessage,
  Scope,
} from '../../../../server/contract';
import { call } from '../api/endpoints';

export type ConnectionState = 'connecting' | 'live' | 'offline';

/** One received push, typed by its event name (ConsoleEventMap in the contract). */
export type LiveEvent = {
  [K in ConsoleEventName]: {
    seq: number;
    receivedAt: number;
    event: K;
    orgId: string | null;
    data: ConsoleEventMap[K];
  };
}[ConsoleEventName];

/** A family of events: `elevation.*`, `device.*`, `audit.*`. */
export type LiveFamily = `${ConsoleEventName extends `${infer F}.${string}` ? F : never}.*`;
/** The event names an exact name or a family stands for. */
export type EventsOf<P extends ConsoleEventName | LiveFamily> = P extends `${infer F}.*`
  ? Extract<ConsoleEventName, `${F}.${string}`>
  : Extract<P, ConsoleEventName>;
export type LiveEventOf<K extends ConsoleEventName> = Extract<LiveEvent, { event: K }>;

type Listener = (event: LiveEvent) => void;
const listeners = new Set<{ pattern: string; listener: Listener }>();

function matches(pattern: string, event: string): boolean {
  return pattern.endsWith('.*') ? event.startsWith(pattern.slice(0, -1)) : pattern === event;
}

/**
 * Calls `listener` for every push of `pattern` (an event name or a family such as `elevation.*`) from now on,
 * in arrival order; returns the unsubscribe function.
 */
export function onLiveEvent<P extends ConsoleEventName | LiveFamily>(
  pattern: P,
  listener: (event: LiveEventOf<EventsOf<P>>) => void,
): () => void {
  const entry = { pattern, listener: listener as Listener };
  listeners.add(entry);
  return () => listeners.delete(entry);
}

/** The event names the console knows (the contract's ConsoleEventMap, checked complete); others are dropped. */
const KNOWN: Record<ConsoleEventName, true> = {
  'audit.created': true,
  'device.enrolled': true,
  'device.presence_changed': true,
  'device.updated': true,
  'device.decommissioned': true,
  'elevation.requested': true,
  'elevation.auto_approved': true,
  'elevation.approved': true,
  'elevation.denied': true,
  'elevation.actuating': true,
  'elevation.enforcement_changed': true,
  'elevation.revoked': true,
  'elevation.expired': true,
  'webhook.delivery.created': true,
  'webhook.delivery.updated': true,
  'access_review.created': true,
  'access_review.item_updated': true,
  'access_review.completed': true,
};
const KNOWN_EVENTS: ReadonlySet<string> = new Set(Object.keys(KNOWN));

interface LiveState {
  state: ConnectionState;
  connectedAt: number | null;
  /** Epoch ms of the next reconnect attempt while offline. */
  retryAt: number | null;
  lastError: string | null;
  identity: { userId: string; scope: Scope } | null;
}

const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 15_000;

/** Not connected and nothing received: the state before the first connection and after sign-out. */
const DISCONNECTED: LiveState = {
  state: 'offline',
  connectedAt: null,
  retryAt: null,
  lastError: null,
  identity: null,
};

export const useLive = create<LiveState>(() => DISCONNECTED);

let running = false;
let socket: WebSocket | null = null;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let attempt = 0;
let seq = 0;
/** Bumped on stop, so a ticket request that was in flight does not open a socket afterwards. */
let generation = 0;

function socketUrl(ticket: string): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}/api/v1/ws?ticket=${encodeURIComponent(ticket)}`;
}

function backoffDelay(n: number): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** n);
  return Math.max(250, Math.round(Math.random() * ceiling));
}

function scheduleReconnect(reason: string): void {
  if (!running) return;
  if (retryTimer !== undefined) clearTimeout(retryTimer);
  const delay = backoffDelay(attempt);
  attempt += 1;
  useLive.setState({ state: 'offline', retryAt: Date.now() + delay, lastError: reason, connectedAt: null });
  retryTimer = setTimeout(() => {
    retryTimer = undefined;
    void connect();
  }, delay);
}

function handleMessage(raw: unknown): void {
  if (typeof raw !== 'string') return;
  let message: ConsoleSocketMessage;
  try {
    // The hub is the only sender on this same-origin socket, and it sends ConsoleSocketMessage.
    message = JSON.parse(raw) as ConsoleSocketMessage;
  } catch {
    return;
  }
  if (message.type === 'connected') {
    useLive.setState({ identity: { userId: message.userId, scope: message.scope } });
    return;
  }
  if (message.type === 'event' && KNOWN_EVENTS.has(message.event)) {
    seq += 1;
    const entry = {
      seq,
      receivedAt: Date.now(),
      event: message.event,
      orgId: message.orgId ?? null,
      data: message.data,
    } as LiveEvent;
    for (const { pattern, listener } of [...listeners]) {
      if (!matches(pattern, entry.event)) continue;
      try {
        listener(entry);
      } catch (err) {
        console.error('live event listener failed', err);
      }
    }
  }
}

async function connect(): Promise<void> {
  if (!running) return;
  const mine = generation;
  useLive.setState({ state: 'connecting', retryAt: null });
  let ticket: string;
  try {
    const res = await call('POST /ws/ticket');
    ticket = res.ticket;
  } catch (err) {
    // A 401 here has already been through one refresh; if the session is gone, sign-out stops us shortly.
    if (mine !== generation) return;
    scheduleReconnect(err instanceof Error ? err.message : 'Could not get a live ticket');
    return;
  }
  if (mine !== generation || !running) return;

  let ws: WebSocket;
  try {
    ws = new WebSocket(socketUrl(ticket));
  } catch {
    scheduleReconnect('Could not open the live connection');
    return;
  }
  socket = ws;
  ws.addEventListener('open', () => {
    if (socket !== ws) return;
    attempt = 0;
    useLive.setState({ state: 'live', connectedAt: Date.now(), lastError: null, retryAt: null });
  });
  ws.addEventListener('message', (event: MessageEvent) => {
    if (socket === ws) handleMessage(event.data);
  });
  ws.addEventListener('close', (event: CloseEvent) => {
    if (socket !== ws) return;
    socket = null;
    scheduleReconnect(event.reason || `Connection closed (${event.code})`);
  });
  // 'error' is always followed by 'close'; reconnecting happens there.
}

/** Start (or keep) the live connection. Safe to call repeatedly. */
export function startLive(): void {
  if (running) return;
  running = true;
  attempt = 0;
  void connect();
}

/** Stop for good (sign-out). Clears the event buffer: it belongs to the signed-in user. */
export function stopLive(): void {
  running = false;
  generation += 1;
  if (retryTimer !== undefined) clearTimeout(retryTimer);
  retryTimer = undefined;
  const ws = socket;
  socket = null;
  if (ws && (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING))
    ws.close(1000, 'signed out');
  useLive.setState(DISCONNECTED);
}

/** Skip the backoff wait (network came back, or the user asked). */
export function reconnectNow(): void {
  if (!running || socket || retryTimer === undefined) return;
  clearTimeout(retryTimer);
  retryTimer = undefined;
  attempt = 0;
  void connect();
}

window.addEventListener('online', reconnectNow);
