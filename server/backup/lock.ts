import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

// Which process serves a data directory: the server writes DATA_DIR/server.lock when it starts and removes it
// when it stops, and `npm run restore` refuses while the recorded process is alive. A lock left by a crash names
// a dead process and is ignored; a live process that reused the PID errs on the safe side (restore refuses and
// says which file to check). The server itself never refuses to start over a lock: the desktop has its own
// single-instance lock, and a stale file must never keep an install down.

export const LOCK_FILE = 'server.lock';

export interface ServerLock {
  pid: number;
  hostname: string;
  startedAt: string;
  /** Tells this process's lock from a later server's on the same directory, so release never removes theirs. */
  nonce: string;
}

/** Records this process as the data directory's server; returns the release for shutdown. */
export function claimDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, LOCK_FILE);
  const lock: ServerLock = {
    pid: process.pid,
    hostname: hostname(),
    startedAt: new Date().toISOString(),
    nonce: randomUUID(),
  };
  const tmp = `${file}.${lock.nonce}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(lock)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
  return () => {
    if (readLock(dataDir)?.nonce === lock.nonce) rmSync(file, { force: true });
  };
}

function readLock(dataDir: string): ServerLock | null {
  try {
    const parsed = JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')) as Partial<ServerLock>;
    return typeof parsed.pid === 'number' && typeof parsed.hostname === 'string'
      ? {
          pid: parsed.pid,
          hostname: parsed.hostname,
          startedAt: String(parsed.startedAt),
          nonce: String(parsed.nonce),
        }
      : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0: existence check only
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
}

/** The server that holds the data directory, or null. A lock written on another host counts as held. */
export function runningServer(dataDir: string): ServerLock | null {
  const lock = readLock(dataDir);
  if (!lock) return null;
  if (lock.hostname !== hostname()) return lock;
  return alive(lock.pid) ? lock : null;
}
