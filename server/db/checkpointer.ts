import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Db } from './connection';

// WAL checkpoints, mostly off the event loop. SQLite's automatic checkpoint runs inside whichever COMMIT pushes
// the WAL past 1,000 pages, on the thread that commits: it copies those pages into the database file and syncs
// both files, and under an agent storm that meant a checkpoint every second or so on the event loop, with
// fsyncs of 50-150 ms among them (longer on a busy disk).
//
// So once the WAL first outgrows those 1,000 pages, a worker thread with its own connection
// (checkpoint-worker.mjs) runs a PASSIVE checkpoint four times a second: the copying and the syncing happen there,
// and a PASSIVE checkpoint takes no lock the server's writer needs. That alone never lets the WAL start over:
// SQLite restarts it only when a write begins with every frame already copied, and the server keeps appending
// while the thread copies. The server's connection therefore still checkpoints itself, rarely
// (SERVER_CHECKPOINT_PAGES): by then the thread has copied all but the last moment's pages, so that checkpoint
// is small, and the next commit restarts the WAL.

/** When the thread starts: SQLite's own threshold, 1,000 pages of 4 KiB. */
export const CHECKPOINT_WAL_BYTES = 1000 * 4096;
/** The server connection's own checkpoints: every 10,000 pages (40 MiB of WAL) while the thread runs. */
export const SERVER_CHECKPOINT_PAGES = 10_000;
/** How often the thread checkpoints. */
const THREAD_EVERY_MS = 250;
/** How often the WAL's size is looked at until the thread starts. */
const CHECK_EVERY_MS = 1000;

export interface CheckpointerOptions {
  /** better-sqlite3's native build, when not the default one (the desktop's Electron build). */
  nativeBinding?: string | undefined;
  /** Told when the thread fails or cannot start; SQLite's own checkpoints on the server's connection take over. */
  onFailure?: (err: Error) => void;
}

export interface Checkpointer {
  /** Ends the thread and its connection; resolves once the thread has exited. */
  stop(): Promise<void>;
}

/** The worker's file beside this module: server/db/ from source, out/main/ in the bundle (see electron.vite.config). */
const workerFile = () => join(dirname(fileURLToPath(import.meta.url)), 'checkpoint-worker.mjs');

/** Moves the checkpoints of `file` (the database `db` has open) to a thread once the WAL first needs one. */
export function startCheckpointer(db: Db, file: string, options: CheckpointerOptions = {}): Checkpointer {
  let worker: Worker | null = null;
  // A thread that fails (no worker threads where the server runs, the file gone, a native load error) leaves
  // SQLite's own checkpoints in charge again.
  const fallBack = (err: unknown) => {
    worker = null;
    if (db.open) db.pragma('wal_autocheckpoint = 1000');
    options.onFailure?.(err instanceof Error ? err : new Error(String(err)));
  };
  const start = () => {
    let thread: Worker;
    try {
      thread = new Worker(workerFile(), {
        workerData: { file, nativeBinding: options.nativeBinding, everyMs: THREAD_EVERY_MS },
      });
    } catch (err) {
      fallBack(err);
      return;
    }
    thread.unref();
    thread.on('error', (err) => {
      if (worker === thread) fallBack(err);
    });
    db.pragma(`wal_autocheckpoint = ${SERVER_CHECKPOINT_PAGES}`);
    worker = thread;
  };
  /** The WAL file's size; 0 while it is absent or cannot be read (looked at again a second later). */
  const walBytes = () => {
    try {
      return statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0;
    } catch {
      return 0;
    }
  };
  const timer = setInterval(() => {
    if (walBytes() < CHECKPOINT_WAL_BYTES) return;
    clearInterval(timer);
    start();
  }, CHECK_EVERY_MS);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      const running = worker;
      worker = null;
      if (!running) return;
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
      // Held until it has gone: an unreferenced thread is all a closing process may have left, and Node would
      // exit mid-close, before the server's connection is closed.
      running.ref();
      running.postMessage({ type: 'stop' });
      await exited;
    },
  };
}
