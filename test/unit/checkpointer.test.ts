import { mkdtempSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CHECKPOINT_WAL_BYTES,
  SERVER_CHECKPOINT_PAGES,
  startCheckpointer,
  type Checkpointer,
} from '../../server/db/checkpointer';
import { openDatabase, type Db } from '../../server/db/connection';

// WAL checkpoints move to a worker thread with its own connection once the WAL first needs one
// (server/db/checkpointer.ts): the thread copies committed pages into the database file, the server's connection
// checkpoints only rarely (to let the WAL start over), and nothing written is lost.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sizeOf = (path: string) => statSync(path, { throwIfNoEntry: false })?.size ?? 0;
const autocheckpoint = (target: Db) => target.pragma('wal_autocheckpoint', { simple: true });

let db: Db | null = null;
let checkpoints: Checkpointer | null = null;
afterEach(async () => {
  await checkpoints?.stop();
  db?.close();
  db = checkpoints = null;
});

function freshDatabase(): { file: string; db: Db } {
  const file = join(mkdtempSync(join(tmpdir(), 'checkpointer-')), 'test.db');
  const opened = openDatabase(file);
  opened.exec('CREATE TABLE filler (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  return { file, db: opened };
}

/** About `bytes` of new rows, committed in small transactions as the server's writes are. */
function write(target: Db, bytes: number): void {
  const insert = target.prepare('INSERT INTO filler (body) VALUES (?)');
  const row = 'x'.repeat(2000);
  const addMany = target.transaction((n: number) => {
    for (let i = 0; i < n; i++) insert.run(row);
  });
  for (let done = 0; done < bytes; done += 50 * row.length) addMany(50);
}

/** Waits (up to 5 s) for `check` to hold. */
async function eventually(check: () => boolean): Promise<void> {
  for (let waited = 0; !check() && waited < 5000; waited += 50) await sleep(50);
}

describe('the WAL checkpointer', () => {
  it('copies committed pages into the database file from its own thread', async () => {
    const fresh = freshDatabase();
    db = fresh.db;
    checkpoints = startCheckpointer(db, fresh.file);
    write(db, 2 * CHECKPOINT_WAL_BYTES); // the WAL outgrows the threshold: the thread starts
    await eventually(() => autocheckpoint(db!) === SERVER_CHECKPOINT_PAGES);
    expect(autocheckpoint(db)).toBe(SERVER_CHECKPOINT_PAGES);

    // Far below the server connection's own threshold now: only the thread can move these pages.
    const before = sizeOf(fresh.file);
    write(db, 3 * CHECKPOINT_WAL_BYTES);
    await eventually(() => sizeOf(fresh.file) >= before + 2.5 * CHECKPOINT_WAL_BYTES);
    expect(sizeOf(fresh.file)).toBeGreaterThanOrEqual(before + 2.5 * CHECKPOINT_WAL_BYTES);
    const rows = (db.prepare('SELECT count(*) AS n FROM filler').get() as { n: number }).n;

    await checkpoints.stop();
    checkpoints = null;
    db.close();
    db = openDatabase(fresh.file);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect((db.prepare('SELECT count(*) AS n FROM filler').get() as { n: number }).n).toBe(rows);
  });

  it('lets the WAL start over under steady writing', async () => {
    const fresh = freshDatabase();
    db = fresh.db;
    checkpoints = startCheckpointer(db, fresh.file);
    // 80 MB written while the thread copies: the WAL restarts near the server connection's threshold.
    let largest = 0;
    for (let chunk = 0; chunk < 40; chunk++) {
      write(db, 2_000_000);
      largest = Math.max(largest, sizeOf(`${fresh.file}-wal`));
      await sleep(30);
    }
    expect(autocheckpoint(db)).toBe(SERVER_CHECKPOINT_PAGES);
    expect(largest).toBeLessThan(SERVER_CHECKPOINT_PAGES * 4200 + 4_000_000);
  }, 60_000);

  it('starts no thread while the WAL stays small', async () => {
    const fresh = freshDatabase();
    db = fresh.db;
    checkpoints = startCheckpointer(db, fresh.file);
    write(db, 100_000);
    await sleep(1300); // the size is looked at once a second
    expect(autocheckpoint(db)).toBe(1000);
    expect(sizeOf(`${fresh.file}-wal`)).toBeGreaterThan(0); // nothing checkpointed it
  });

  it('hands checkpoints back to the server connection, and says so, when its thread cannot run', async () => {
    const fresh = freshDatabase();
    db = fresh.db;
    const failures: Error[] = [];
    checkpoints = startCheckpointer(db, fresh.file, { onFailure: (err) => failures.push(err) });
    unlinkSync(fresh.file); // the thread's connection will find no database file to open
    write(db, 2 * CHECKPOINT_WAL_BYTES);
    await eventually(() => failures.length > 0);
    expect(failures).toHaveLength(1);
    expect(autocheckpoint(db)).toBe(1000);
  });
});
