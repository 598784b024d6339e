// The console's live channel: a single-use ticket from POST /ws/ticket, then a WebSocket on the same host.
// Reconnects with exponential backoff and full jitter (capped at 15 s), with a fresh ticket every time.

import { create } from 'zustand';
import type { ConsoleServerMessage, Scope, WsTicketResponse } from '../../../../server/contract';
import { api } from '../api/client';

export type ConnectionState = 'connecting' | 'live' | 'offline';

export interface LiveEvent {
  seq: number;
  receivedAt: number;
  event: string;
  orgId: string | null;
  data: unknown;
}

interface LiveState {
  state: ConnectionState;
  /** Most recent first. */
  events: LiveEvent[];
  connectedAt: number | null;
  /** Epoch ms of the next reconnect attempt while offline. */
  retryAt: number | null;
  lastError: string | null;
  identity: { userId: string; scope: Scope } | null;
}

export const LIVE_EVENT_BUFFER = 50;
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 15_000;

/** Not connected and nothing received: the state before the first connection and after sign-out. */
const DISCONNECTED: LiveState = {
  state: 'offline',
  events: [],
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
  let message: ConsoleServerMessage;
  try {
    message = JSON.parse(raw) as ConsoleServerMessage;
  } catch {
    return;
  }
  if (message.type === 'connected') {
    useLive.setState({ identity: { userId: message.userId, scope: message.scope } });
    return;
  }
  if (message.type === 'event' && typeof message.event === 'string') {
    seq += 1;
    const entry: LiveEvent = {
      seq,
      receivedAt: Date.now(),
      event: message.event,
      orgId: message.orgId ?? null,
      data: message.data,
    };
    useLive.setState((s) => ({ events: [entry, ...s.events].slice(0, LIVE_EVENT_BUFFER) }));
  }
}

async function connect(): Promise<void> {
  if (!running) return;
  const mine = generation;
  useLive.setState({ state: 'connecting', retryAt: null });
  let ticket: string;
  try {
    const res = await api<WsTicketResponse>('/ws/ticket', { method: 'POST', body: {} });
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
