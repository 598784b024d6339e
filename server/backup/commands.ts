import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { loadConfig, type Config } from '../config';
import { fileSecretStore, portableSecrets, readSecrets } from '../secrets';
import { createBackup } from './create';
import { BackupError } from './errors';
import { restoreBackup } from './restore';
import { hasBackupRuns, recordBackupRun } from './store';

// `npm run backup -- --to FILE` and `npm run restore -- --from FILE` (server/cli.ts hands over here).

export interface BackupCommandArgs {
  dataDir?: string | undefined;
  passphraseFile?: string | undefined;
  force?: boolean | undefined;
}

const MIN_PASSPHRASE = 12;

/** `--passphrase-file` (its first line), else BACKUP_PASSPHRASE. Never a command-line value: `ps` shows those. */
function passphrase(config: Config, file: string | undefined): string {
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new BackupError(
        `Cannot read the passphrase file: ${(err as Error).message}`,
        'BACKUP_PASSPHRASE_MISSING',
      );
    }
    const value = text.split(/\r?\n/, 1)[0] ?? '';
    if (value.length < MIN_PASSPHRASE) {
      throw new BackupError(
        `The passphrase in ${file} is shorter than ${MIN_PASSPHRASE} characters`,
        'BACKUP_PASSPHRASE_MISSING',
      );
    }
    return value;
  }
  if (config.backup.passphrase) return config.backup.passphrase;
  throw new BackupError(
    'Give the passphrase that seals the secrets with --passphrase-file FILE or BACKUP_PASSPHRASE',
    'BACKUP_PASSPHRASE_MISSING',
  );
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export async function backupCommand(args: BackupCommandArgs & { to: string }): Promise<void> {
  const config = loadConfig(process.env, args.dataDir ? { dataDir: args.dataDir } : {});
  const secret = passphrase(config, args.passphraseFile);
  if (!existsSync(config.databaseFile)) {
    throw new BackupError(`No database at ${config.databaseFile}`, 'BACKUP_SOURCE_MISSING');
  }
  if (existsSync(join(config.dataDir, 'secrets.sealed'))) {
    // Only the desktop app can unseal them (the OS keychain); its own scheduled backups carry them.
    throw new BackupError(
      `${config.dataDir} belongs to the desktop app (its secrets are sealed with the OS keychain); ` +
        'set BACKUP_DIR and BACKUP_PASSPHRASE for the app to take scheduled backups instead',
      'BACKUP_SOURCE_MISSING',
    );
  }
  const secrets = portableSecrets(readSecrets(config, fileSecretStore(config.dataDir)));
  // The live database, opened beside the running server: WAL lets this reader copy while the server writes.
  const db = new Database(config.databaseFile, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  const startedAt = new Date();
  try {
    const result = await createBackup(db, secrets, {
      to: args.to,
      passphrase: secret,
      overwrite: args.force ?? false,
      copyInOneStep: true,
    });
    if (hasBackupRuns(db))
      recordBackupRun(db, 'cli', startedAt, {
        status: 'succeeded',
        file: result.file,
        sizeBytes: result.bytes,
      });
    console.log(`Backup written and verified: ${result.file} (${megabytes(result.bytes)})`);
    console.log(
      `  schema version ${result.schemaVersion}; integrity ok; ${result.chains} audit chains, ${result.auditEntries} entries verified`,
    );
  } catch (err) {
    if (hasBackupRuns(db))
      recordBackupRun(db, 'cli', startedAt, { status: 'failed', error: (err as Error).message });
    throw err;
  } finally {
    db.close();
  }
}

export async function restoreCommand(args: BackupCommandArgs & { from: string }): Promise<void> {
  const config = loadConfig(process.env, args.dataDir ? { dataDir: args.dataDir } : {});
  const verified = await restoreBackup({
    from: args.from,
    dataDir: config.dataDir,
    databaseFile: config.databaseFile,
    passphrase: passphrase(config, args.passphraseFile),
    force: args.force ?? false,
  });
  const { manifest, report } = verified;
  console.log(`Restored the backup of ${manifest.createdAt} into ${config.dataDir}`);
  console.log(
    `  schema version ${report.schemaVersion}; integrity ok; ${report.chains} audit chains, ${report.auditEntries} entries verified`,
  );
  // Keys in the environment win over the restored file; different ones would leave MFA secrets unreadable.
  for (const name of ['APP_ENCRYPTION_KEY', 'JWT_SECRET'] as const) {
    const fromEnv = config.secretOverrides[name];
    if (fromEnv && fromEnv !== verified.secrets[name])
      console.warn(
        `gatehouse: ${name} in this environment differs from the restored one; unset it (or set the original) before starting the server`,
      );
  }
}
