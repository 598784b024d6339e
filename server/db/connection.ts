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
  // Statement journals and sorts stay in memory: a multi-row insert inside a transaction otherwise spills its
  // journal to a temporary file (created and unlinked each time), which showed up under an agent storm.
  db.pragma('temp_store = MEMORY');
  // 16 MB of page cache instead of SQLite's 2 MB: most of the devices table and the indexes agent requests walk
  // stay in memory at tens of thousands of devices, so lookups and heartbeats rarely read pages back from the file.
  db.pragma('cache_size = -16384');
  // Gathers planner statistics for tables that lack them (bounded work; SQLite's recommended call at open).
  db.pragma('optimize = 0x10002');
  return db;
}

const statements = new WeakMap<Db, Map<string, Database.Statement>>();
/** Statement texts kept per database; hot paths build their SQL from a handful of fixed shapes. */
const STATEMENT_CACHE_LIMIT = 1000;

/**
 * A prepared statement for `sql`, compiled once per database. Preparing costs more than running a simple
 * statement, so code on hot paths (agent ingest, decisions) asks here instead of calling `db.prepare` each time.
 */
export function statement(db: Db, sql: string): Database.Statement {
  let cache = statements.get(db);
  if (!cache) {
    cache = new Map();
    statements.set(db, cache);
  }
  let prepared = cache.get(sql);
  if (!prepared) {
    // A runaway number of distinct texts means SQL built from data; start over rather than grow without bound.
    if (cache.size >= STATEMENT_CACHE_LIMIT) cache.clear();
    prepared = db.prepare(sql);
    cache.set(sql, prepared);
  }
  return prepared;
}

/** Throws when the database does not answer (the readiness probe). */
export function pingDatabase(db: Db): void {
  db.prepare('SELECT 1').get();
}
