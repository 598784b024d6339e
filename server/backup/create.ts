// Backup keeps its own SQL (lint allows server/backup/): it copies and checks the database as a whole, not one module's rows.
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import type { Db } from '../db/connection';
import { SERVER_VERSION } from '../version';
import { authenticatedData, sha256File, writeContainer } from './container';
import { BackupError } from './errors';
import type { ImageReport } from './image';
import { sealSecrets } from './seal';
import { verifyBackup } from './verify';

// Takes a backup of a live database: SQLite's online backup API copies a consistent snapshot while the server
// keeps writing (WAL readers never block writers), the copy is packed with the sealed secrets, and the packed file
// is verified exactly as a restore would verify it before it gets its final name.

/** Pages per backup step that means "the whole database in one step". */
const ALL_PAGES = 0x7fffffff;

export interface BackupOptions {
  /** The backup file to write. */
  to: string;
  passphrase: string;
  /** Replace an existing file at `to` (only after the new backup verified). */
  overwrite?: boolean;
  /**
   * Copy in one step (one read transaction). Needed when another process writes the database: SQLite restarts a
   * stepped backup whenever another connection writes between steps, which under a heartbeating fleet is always.
   * The server's own connection does not need it (its writes update the copy in place), and small steps keep its
   * event loop responsive.
   */
  copyInOneStep?: boolean;
  /** The better-sqlite3 addon the caller runs with (the Electron-ABI build in the desktop). */
  nativeBinding?: string;
}

export interface BackupResult extends ImageReport {
  file: string;
  /** Size of the backup file on disk. */
  bytes: number;
  createdAt: string;
}

export async function createBackup(
  db: Db,
  secrets: Record<string, string>,
  options: BackupOptions,
): Promise<BackupResult> {
  const to = resolve(options.to);
  if (!existsSync(dirname(to))) {
    throw new BackupError(`The folder ${dirname(to)} does not exist`, 'BACKUP_SOURCE_MISSING');
  }
  const refuseExisting = () => {
    if (!options.overwrite && existsSync(to)) {
      throw new BackupError(`${to} already exists (pass --force to replace it)`, 'BACKUP_TARGET_EXISTS');
    }
  };
  refuseExisting();
  // Working files beside the target, so the final rename stays on one file system.
  const stem = `${to}.${randomBytes(6).toString('hex')}`;
  const snapshot = `${stem}.snapshot`;
  const packed = `${stem}.part`;
  const check = `${stem}.verify`;
  const binding = options.nativeBinding ? { nativeBinding: options.nativeBinding } : {};
  try {
    // Created owner-only up front: SQLite would create it with the umask's mode.
    closeSync(openSync(snapshot, 'wx', 0o600));
    await db.backup(snapshot, options.copyInOneStep ? { progress: () => ALL_PAGES } : undefined);
    const copy = new Database(snapshot, { fileMustExist: true, ...binding });
    let schemaVersion: number;
    try {
      // The copy carries the live database's WAL flag; a rollback-journal image opens read-only on its own.
      copy.pragma('journal_mode = DELETE');
      schemaVersion =
        (copy.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null }).v ??
        0;
    } finally {
      copy.close();
    }
    const image = await sha256File(snapshot);
    const base = {
      createdAt: new Date().toISOString(),
      serverVersion: SERVER_VERSION,
      schemaVersion,
      database: image,
    };
    const sealed = await sealSecrets(secrets, options.passphrase, authenticatedData(base));
    await writeContainer(packed, { ...base, secrets: sealed }, snapshot);
    rmSync(snapshot, { force: true });

    const verified = await verifyBackup(packed, options.passphrase, check, options.nativeBinding);
    rmSync(check, { force: true });
    refuseExisting();
    renameSync(packed, to);
    return { file: to, bytes: statSync(to).size, createdAt: base.createdAt, ...verified.report };
  } finally {
    for (const file of [snapshot, `${snapshot}-journal`, packed, check]) rmSync(file, { force: true });
  }
}
