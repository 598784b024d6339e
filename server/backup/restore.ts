import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { fileSecretStore } from '../secrets';
import { BackupError } from './errors';
import { runningServer, LOCK_FILE } from './lock';
import { verifyBackup, type VerifiedBackup } from './verify';

// Puts a verified backup in place as a data directory's database and secrets. Nothing in the directory changes
// until the backup has passed every check; then the secrets and the database each arrive by rename, so a reader
// sees the old file or the new one, never half of either.

export interface RestoreOptions {
  from: string;
  dataDir: string;
  /** DATA_DIR/gatehouse.db, as the config names it. */
  databaseFile: string;
  passphrase: string;
  /** Replace an existing database and secrets. */
  force?: boolean;
}

/** The files of the data directory that a restore replaces. */
function targets(options: RestoreOptions) {
  return {
    database: options.databaseFile,
    secrets: join(options.dataDir, 'secrets.json'),
    sealed: join(options.dataDir, 'secrets.sealed'),
  };
}

function refuseWhileServed(dataDir: string): void {
  const server = runningServer(dataDir);
  if (server) {
    throw new BackupError(
      `A server is running on ${dataDir} (pid ${server.pid} on ${server.hostname}, since ${server.startedAt}); ` +
        `stop it first. If none is, remove ${join(dataDir, LOCK_FILE)}.`,
      'SERVER_RUNNING',
    );
  }
}

function syncDirectory(dir: string): void {
  // Makes the renames durable; some platforms cannot open a directory for syncing, where this is best effort.
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // not supported here (Windows)
  }
}

export async function restoreBackup(options: RestoreOptions): Promise<VerifiedBackup> {
  const files = targets(options);
  refuseWhileServed(options.dataDir);
  const existing = [files.database, files.secrets, files.sealed].filter((file) => existsSync(file));
  if (existing.length && !options.force) {
    throw new BackupError(
      `${options.dataDir} already holds ${existing.map((f) => basename(f)).join(', ')}; pass --force to replace ${existing.length > 1 ? 'them' : 'it'}`,
      'BACKUP_TARGET_EXISTS',
    );
  }
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  // Extracted beside the database so the final rename stays on one file system.
  const incoming = `${files.database}.restore-${randomBytes(6).toString('hex')}`;
  try {
    const verified = await verifyBackup(options.from, options.passphrase, incoming);
    // A server may have started while the backup was being verified.
    refuseWhileServed(options.dataDir);
    fileSecretStore(options.dataDir).write(verified.secrets);
    // The desktop reads secrets.sealed before secrets.json; the restored keys must win (it re-seals them).
    rmSync(files.sealed, { force: true });
    // A WAL left by the old database would be replayed into the restored one.
    rmSync(`${files.database}-wal`, { force: true });
    rmSync(`${files.database}-shm`, { force: true });
    chmodSync(incoming, 0o600);
    renameSync(incoming, files.database);
    syncDirectory(options.dataDir);
    return verified;
  } finally {
    rmSync(incoming, { force: true });
  }
}
