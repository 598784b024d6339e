import Database from 'better-sqlite3';
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

export type Db = Database.Database;

/** Opens the SQLite file with the settings of DESIGN §6. */
export function openDatabase(file: string, nativeBinding?: string): Db {
  mkdirSync(dirname(file), { recursive: true });
  // Create the file owner-only; SQLite gives its -wal and -shm files the same mode.
  if (file !== ':memory:' && !existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  const db = new Database(file, nativeBinding ? { nativeBinding } : {});
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // WAL with NORMAL is durable across application crashes; only an OS crash can lose the last transactions.
  db.pragma('synchronous = NORMAL');
  // Gathers planner statistics for tables that lack them (bounded work; SQLite's recommended call at open).
  db.pragma('optimize = 0x10002');
  return db;
}
