// Backup keeps its own SQL (lint allows server/backup/): it copies and checks the database as a whole, not one module's rows.
import Database from 'better-sqlite3';
import { loadMigrations } from '../db/migrate';
import { allChainRefs, verifyChain } from '../modules/audit';
import { BackupError } from './errors';

// The checks a copied database must pass before anyone calls it a backup: SQLite's own integrity check, every
// audit hash chain verified exactly as GET /audit-logs/verify does, and a schema this release can open.

export interface ImageReport {
  schemaVersion: number;
  chains: number;
  auditEntries: number;
}

/** Opens the image read-only (it is in rollback-journal mode, so nothing is written beside it). */
export function checkImage(file: string, nativeBinding?: string): ImageReport {
  try {
    return inspect(file, nativeBinding);
  } catch (err) {
    if (err instanceof BackupError) throw err;
    // SQLite refusing the file at all ("file is not a database", "database disk image is malformed").
    throw new BackupError(
      `The database copy cannot be read: ${(err as Error).message}`,
      'BACKUP_INTEGRITY_FAILED',
    );
  }
}

function inspect(file: string, nativeBinding: string | undefined): ImageReport {
  const db = new Database(file, {
    readonly: true,
    fileMustExist: true,
    ...(nativeBinding ? { nativeBinding } : {}),
  });
  try {
    const integrity = db.pragma('integrity_check') as Array<{ integrity_check: string }>;
    if (integrity.length !== 1 || integrity[0]?.integrity_check !== 'ok') {
      const problems = integrity.slice(0, 3).map((row) => row.integrity_check);
      throw new BackupError(
        `The database copy fails SQLite's integrity check: ${problems.join('; ')}`,
        'BACKUP_INTEGRITY_FAILED',
      );
    }
    const schemaVersion = (
      db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null }
    ).v;
    const known = loadMigrations().length;
    if (schemaVersion === null) throw new BackupError('The database copy has no schema', 'BACKUP_INVALID');
    if (schemaVersion > known) {
      throw new BackupError(
        `The backup is at schema version ${schemaVersion}, newer than this release knows (${known}); restore it with the release that took it`,
        'BACKUP_SCHEMA_TOO_NEW',
      );
    }
    let auditEntries = 0;
    const chains = allChainRefs(db).map((ref) => verifyChain(db, ref));
    for (const chain of chains) {
      if (!chain.valid) {
        const at =
          chain.problem?.seq === null || chain.problem === undefined ? '' : ` at entry ${chain.problem.seq}`;
        throw new BackupError(
          `The audit chain ${chain.chain} does not verify (${chain.problem?.reason ?? 'invalid'}${at})`,
          'BACKUP_AUDIT_CHAIN_BROKEN',
        );
      }
      auditEntries += chain.checked;
    }
    return { schemaVersion, chains: chains.length, auditEntries };
  } finally {
    db.close();
  }
}
