import { performance } from 'node:perf_hooks';
import type { Db } from './connection';
import { transaction } from './after-commit';

// Group commit for small, frequent writes (agent heartbeats, inventories and log submissions): a COMMIT costs more
// than the UPDATE it seals, and ten thousand agents each paying one is what slows the server down.
// `commitSoon(db, fn)` queues `fn`; at the end of this turn of the event loop one transaction runs every queued
// write, each in its own savepoint (one that throws rolls back alone and rejects its own promise), commits once,
// and only then resolves the promises. So a caller that answers after the promise settles still answers for a
// committed change, as with `transaction()`, and afterCommit callbacks run after that one commit, as they would
// have after each. A group stops taking writes once it has run GROUP_TURN_MS (a storm of first inventories would
// otherwise hold the loop): the rest, in order, go to the next turn's group.

/** How long one group may run its writes before the rest wait for the next turn. */
const GROUP_TURN_MS = 8;

interface Queued {
  write: () => unknown;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

const queues = new WeakMap<Db, Queued[]>();

/** Runs `write` in the next group transaction of `db`; settles once that transaction has committed. */
export function commitSoon<T>(db: Db, write: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let queue = queues.get(db);
    if (!queue) {
      queue = [];
      queues.set(db, queue);
      setImmediate(() => flush(db));
    }
    queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
  });
}

function flush(db: Db): void {
  const waiting = queues.get(db) ?? [];
  queues.delete(db);
  // A database closed meanwhile (the server is stopping) fails its writers; nothing is half-written.
  if (!db.open) {
    for (const item of waiting) item.reject(new Error('The database is closed'));
    return;
  }
  const outcomes: Array<{ ok: true; value: unknown } | { ok: false; err: unknown }> = [];
  const deadline = performance.now() + GROUP_TURN_MS;
  try {
    transaction(db, () => {
      for (const item of waiting) {
        if (outcomes.length > 0 && performance.now() > deadline) break;
        try {
          outcomes.push({ ok: true, value: transaction(db, item.write) });
        } catch (err) {
          outcomes.push({ ok: false, err });
        }
      }
    });
  } catch (err) {
    // The COMMIT failed (nothing is kept), or an afterCommit effect threw after it: every writer of the group
    // hears it, as a lone transaction() would have told its one caller.
    for (const item of waiting.slice(0, outcomes.length)) item.reject(err);
    requeue(db, waiting.slice(outcomes.length));
    return;
  }
  outcomes.forEach((outcome, i) => {
    const item = waiting[i]!;
    if (outcome.ok) item.resolve(outcome.value);
    else item.reject(outcome.err);
  });
  requeue(db, waiting.slice(outcomes.length));
}

/** Writes a group had no time for go first in the next turn's group, before any queued since. */
function requeue(db: Db, rest: Queued[]): void {
  if (rest.length === 0) return;
  const queued = queues.get(db);
  if (queued) queues.set(db, rest.concat(queued));
  else {
    queues.set(db, rest);
    setImmediate(() => flush(db));
  }
}
