import { parseArgs } from 'node:util';
import { backupCommand, restoreCommand } from './backup/commands';
import { loadConfig } from './config';
import { openDatabase } from './db/connection';
import { loadMigrations, migrate, migrationStatus } from './db/migrate';

// Maintenance commands on a data directory: `migrate` applies migrations by hand (for AUTO_MIGRATE=false
// installs); `backup` and `restore` copy a data directory to and from one verified file (server/backup/). The
// server itself runs from app/serve.ts, which composes it with the simulated demo fleet.

const USAGE = `Usage: gatehouse migrate [--data-dir DIR]
       gatehouse backup --to FILE [--data-dir DIR] [--passphrase-file FILE] [--force]
       gatehouse restore --from FILE [--data-dir DIR] [--passphrase-file FILE] [--force]
The backup passphrase comes from --passphrase-file or BACKUP_PASSPHRASE.
The server itself runs with npm run serve (app/serve.ts).`;

const COMMANDS = ['migrate', 'backup', 'restore'];

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      to: { type: 'string' },
      from: { type: 'string' },
      'passphrase-file': { type: 'string' },
      force: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals[0] ?? '';
  if (values.help || !COMMANDS.includes(command)) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    console.error(`gatehouse: --port must be a whole number from 0 to 65535 (got "${values.port}")`);
    process.exit(2);
  }
  const overrides = {
    ...(port !== undefined ? { port } : {}),
    ...(values.host !== undefined ? { host: values.host } : {}),
    ...(values['data-dir'] !== undefined ? { dataDir: values['data-dir'] } : {}),
  };

  if (command === 'backup' || command === 'restore') {
    const file = command === 'backup' ? values.to : values.from;
    if (!file) {
      console.error(`gatehouse: ${command} needs ${command === 'backup' ? '--to FILE' : '--from FILE'}`);
      process.exit(2);
    }
    const args = {
      dataDir: values['data-dir'],
      passphraseFile: values['passphrase-file'],
      force: values.force,
    };
    await (command === 'backup'
      ? backupCommand({ ...args, to: file })
      : restoreCommand({ ...args, from: file }));
    return;
  }

  if (command === 'migrate') {
    const config = loadConfig(process.env, overrides);
    const db = openDatabase(config.databaseFile);
    const migrations = loadMigrations();
    const before = migrationStatus(db, migrations).current;
    const applied = migrate(db, migrations);
    db.close();
    console.log(
      applied.length
        ? `Migrated ${config.databaseFile} from version ${before} to ${applied.at(-1)}.`
        : 'Database is up to date.',
    );
    return;
  }
}

main().catch((err: unknown) => {
  console.error(`gatehouse: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
