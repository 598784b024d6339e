import type { Db } from './connection';

// Side effects outside SQLite (agent sockets, bus listeners that push to consoles) happen only after the change
// they announce has committed (DESIGN §6). `transaction(db, fn)` opens the transaction and keeps a queue;
// `afterCommit(db, fn)` adds to it. The queue runs once the outermost transaction commits and is dropped when it
// rolls back, so a rolled-back change never reaches an agent or a console. better-sqlite3 has no commit hook,
// which is why the transaction must be opened here: inside a bare `db.transaction()` afterCommit refuses loudly.

type Callback = () => void;

/** The callbacks waiting for each database's open transaction() (absent while none is open). */
const pending = new WeakMap<Db, Callback[]>();
/** One transaction wrapper per database, reused: building a wrapper per call would cost on hot paths. */
const runners = new WeakMap<Db, (fn: () => unknown) => unknown>();

function runnerOf(db: Db): (fn: () => unknown) => unknown {
  let run = runners.get(db);
  if (!run) {
    run = db.transaction((fn: () => unknown) => fn());
    runners.set(db, run);
  }
  return run;
}

/**
 * Runs `fn` in a transaction (a savepoint when one is already open) and returns its result. Callbacks queued
 * with afterCommit run after the outermost one commits, in the order they were queued; a throw rolls back and
 * drops the callbacks queued since this (nested) transaction began.
 */
export function transaction<T>(db: Db, fn: () => T): T {
  const open = pending.get(db);
  if (open) {
    const mark = open.length;
    try {
      return runnerOf(db)(fn) as T;
    } catch (err) {
      open.length = mark;
      throw err;
    }
  }
  const queue: Callback[] = [];
  pending.set(db, queue);
  let result: T;
  try {
    result = runnerOf(db)(fn) as T;
  } finally {
    pending.delete(db);
  }
  runQueued(queue);
  return result;
}

/**
 * Every callback runs even when one throws (the change is committed; each effect is independent); the first
 * error is rethrown afterwards so a failing effect is still a visible bug.
 */
function runQueued(queue: readonly Callback[]): void {
  let failure: { err: unknown } | null = null;
  for (const callback of queue) {
    try {
      callback();
    } catch (err) {
      failure ??= { err };
    }
  }
  if (failure) throw failure.err;
}

/**
 * Runs `fn` once the enclosing transaction() commits, or at once when no transaction is open. Throws inside a
 * transaction not opened by transaction(): its commit cannot be observed, and running `fn` now could announce a
 * change that later rolls back.
 */
export function afterCommit(db: Db, fn: Callback): void {
  const open = pending.get(db);
  if (open) open.push(fn);
  else if (db.inTransaction) {
    throw new Error(
      'afterCommit() inside a transaction not opened by transaction() from server/db/after-commit',
    );
  } else fn();
}
