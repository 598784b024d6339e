import WebSocket from 'ws';
import type { ConsoleServerMessage } from '../../server/contract';

// A console socket (DESIGN §4) for tests and benchmarks: trade a JWT for a ticket, open /api/v1/ws, collect the
// pushes and wait for the one a test expects.

export interface ConsoleSocket {
  socket: WebSocket;
  messages: ConsoleServerMessage[];
  next(predicate: (m: ConsoleServerMessage) => boolean, timeoutMs?: number): Promise<ConsoleServerMessage>;
  /** Called for every message as it arrives (benchmarks time pushes with it). */
  onMessage: ((m: ConsoleServerMessage) => void) | null;
  closed: Promise<number>;
}

export function openConsoleSocket(baseUrl: string, ticket: string): Promise<ConsoleSocket> {
  const socket = new WebSocket(`${baseUrl.replace('http', 'ws')}/api/v1/ws?ticket=${ticket}`);
  const messages: ConsoleServerMessage[] = [];
  const waiters: Array<{
    predicate: (m: ConsoleServerMessage) => boolean;
    resolve: (m: ConsoleServerMessage) => void;
  }> = [];
  const client: ConsoleSocket = {
    socket,
    messages,
    onMessage: null,
    closed: new Promise<number>((resolve) => socket.on('close', (code) => resolve(code))),
    next: (predicate, timeoutMs = 5000) =>
      new Promise((resolve, reject) => {
        const found = messages.find(predicate);
        if (found) return resolve(found);
        const timer = setTimeout(
          () => reject(new Error('timed out waiting for a console message')),
          timeoutMs,
        );
        waiters.push({ predicate, resolve: (m) => (clearTimeout(timer), resolve(m)) });
      }),
  };
  socket.on('message', (raw) => {
    const message = JSON.parse(String(raw)) as ConsoleServerMessage;
    messages.push(message);
    client.onMessage?.(message);
    for (const w of [...waiters]) {
      if (w.predicate(message)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(message);
      }
    }
  });
  return new Promise((resolve, reject) => {
    socket.on('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    socket.on('open', () => resolve(client));
  });
}

/** Opens a console socket for a signed-in user's access token. */
export async function consoleSocketFor(baseUrl: string, token: string): Promise<ConsoleSocket> {
  const res = await fetch(`${baseUrl}/api/v1/ws/ticket`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  if (res.status !== 200) throw new Error(`ticket refused: HTTP ${res.status}`);
  const { ticket } = (await res.json()) as { ticket: string };
  return openConsoleSocket(baseUrl, ticket);
}
