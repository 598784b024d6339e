import type { RequestHandler } from 'express';
import { performance } from 'node:perf_hooks';

// Request work is shared out over turns of the event loop, so new connections keep being accepted under a storm.
// libuv (1.45 and later) accepts one new connection per turn of the loop, and a turn runs every request that
// arrived since the last one: when ten thousand agents enroll and report at once, one turn lasted hundreds of
// milliseconds, new connections (an agent's WebSocket, a console) waited in the kernel's queue for 10-25 s and
// their handshakes timed out. Now a turn starts requests only until it has spent TURN_BUDGET_MS on them; the
// others wait, in arrival order, for the next turns, each of which also accepts a connection. A request asks
// twice: when its headers arrive (takeTurns, the first middleware) and when its body has been read, before its
// handler runs (route.ts), because a body that arrives later is read outside any turn's accounting. On a quiet
// server nothing waits, as before. WebSocket upgrades do not pass here: they never wait.
// There is one event loop per process, so one turn taker for the process (every server a test starts shares it).

/** How long one turn may spend starting requests before the rest wait for the next turn. */
export const TURN_BUDGET_MS = 3;

export interface TurnTaker {
  /** Runs `start` now when this turn has budget left, else in a later turn, in arrival order. */
  take(start: () => void): void;
  /** Settles when this turn has budget left (at once), else in a later turn, in arrival order. */
  wait(): Promise<void> | null;
  /** Requests waiting for a turn. */
  readonly waiting: number;
}

export function createTurnTaker(budgetMs = TURN_BUDGET_MS): TurnTaker {
  // A queue read from `head` on: shift() would copy thousands of waiting entries at each start under a storm.
  let queue: Array<() => void> = [];
  let head = 0;
  let turnStartedAt: number | null = null;
  let scheduled = false;

  const spent = () => (turnStartedAt === null ? 0 : performance.now() - turnStartedAt);
  const endTurnSoon = () => {
    if (scheduled) return;
    scheduled = true;
    // setImmediate runs after this turn's I/O callbacks: a new turn begins there, and what it cannot start is
    // left for the next (an immediate queued from an immediate runs one turn later, after that turn's I/O).
    setImmediate(newTurn);
  };
  const run = (start: () => void) => {
    turnStartedAt ??= performance.now();
    start();
  };
  /** True (and the turn's clock started) when nothing waits and this turn has budget left. */
  const startsNow = () => {
    endTurnSoon();
    if (head !== queue.length || spent() >= budgetMs) return false;
    turnStartedAt ??= performance.now();
    return true;
  };
  function newTurn(): void {
    scheduled = false;
    turnStartedAt = null;
    releaseNext();
  }
  // One waiter at a time: a released request's continuation runs in the microtask queued by its start, so the next
  // is released from a microtask queued after it, once the time it took is known.
  function releaseNext(): void {
    if (head < queue.length && spent() < budgetMs) {
      run(queue[head++]!);
      queueMicrotask(releaseNext);
      return;
    }
    if (head === queue.length || head > 1024) {
      queue = queue.slice(head);
      head = 0;
    }
    if (queue.length > 0) endTurnSoon();
  }

  return {
    take(start) {
      if (startsNow()) start();
      else queue.push(start);
    },
    wait() {
      return startsNow() ? null : new Promise<void>((resolve) => queue.push(resolve));
    },
    get waiting() {
      return queue.length - head;
    },
  };
}

export const loopTurns = createTurnTaker();

/** Express middleware: each request continues when the loop has a turn for it. */
export function takeTurns(turns: TurnTaker = loopTurns): RequestHandler {
  return (_req, _res, next) => turns.take(() => next());
}
