// The WAL checkpointer's thread (server/db/checkpointer.ts): its own connection to the database file, running a
// PASSIVE checkpoint every `everyMs`. Each one copies the pages committed since the last into the database file
// and syncs both files, without ever blocking the server's writer or readers. `{type:'stop'}` ends the thread.
// Plain JavaScript: a worker thread loads it from source (tests, tsx) and from the bundle alike, where no
// TypeScript loader is registered.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { file, nativeBinding, everyMs } = workerData;
const db = new Database(file, { fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
// A PASSIVE checkpoint never waits on a lock; neither does anything else this connection does.
db.pragma('busy_timeout = 0');

const timer = setInterval(() => db.pragma('wal_checkpoint(PASSIVE)'), everyMs);

parentPort.on('message', (message) => {
  if (message.type !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
