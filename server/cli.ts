import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { backupCommand, restoreCommand } from './backup/commands';
import { loadConfig } from './config';
import { openDatabase } from './db/connection';
import { loadMigrations, migrate, migrationStatus } from './db/migrate';
import type { DemoSeedResponse } from './index';

// Headless entry: `serve` runs the server and console for any browser; `migrate` applies migrations by hand
// (for AUTO_MIGRATE=false installs); `backup` and `restore` copy a data directory to and from one verified file
// (server/backup/).

const USAGE = `Usage: gatehouse serve [--port N] [--host H] [--data-dir DIR] [--demo [--agents N] [--scenario steady|pam|pam-load|...]]
       gatehouse migrate [--data-dir DIR]
       gatehouse backup --to FILE [--data-dir DIR] [--passphrase-file FILE] [--force]
       gatehouse restore --from FILE [--data-dir DIR] [--passphrase-file FILE] [--force]
The backup passphrase comes from --passphrase-file or BACKUP_PASSPHRASE.`;

const COMMANDS = ['serve', 'migrate', 'backup', 'restore'];

/** The built console: out/renderer beside the sources, or beside the bundle. */
function findConsole(): string | null {
  const here = dirname(fileURLToPath(import.meta.url));
  return (
    [resolve(here, '../out/renderer'), resolve(here, '../renderer')].find((dir) =>
      existsSync(resolve(dir, 'index.html')),
    ) ?? null
  );
}

/** Demo credentials go to the operator's terminal, never to the structured log. */
function printDemo(url: string, demo: DemoSeedResponse): void {
  console.log(
    demo.created ? 'Demo tenant created: Northwind IT Services' : 'Demo tenant: Northwind IT Services',
  );
  for (const t of demo.technicians) console.log(`  technician ${t.name} <${t.email}>`);
  if (demo.password) console.log(`  technicians' password: ${demo.password} (shown once)`);
  console.log(`  fleet enrollment key (Contoso Dental, until ${demo.enrollmentKey.expiresAt}):`);
  console.log(
    `    npm run agent-sim -- --server ${url} --enrollment-key ${demo.enrollmentKey.key} --count 25`,
  );
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      demo: { type: 'boolean' },
      agents: { type: 'string' },
      scenario: { type: 'string' },
      to: { type: 'string' },
      from: { type: 'string' },
      'passphrase-file': { type: 'string' },
      force: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals[0] ?? 'serve';
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

  // Loaded for `serve` only: the whole server is a few seconds of start-up that backup and restore do not need.
  const { createServer } = await import('./index');
  const { demoSimulator } = await import('./modules/demo/simulator');
  const staticDir = findConsole();
  if (!staticDir)
    console.warn('gatehouse: the console is not built (run `npm run build`); serving the API only');
  const env: NodeJS.ProcessEnv = values.demo ? { ...process.env, SEED_DEMO: 'true' } : { ...process.env };
  if (values.agents !== undefined) {
    // `serve --demo --agents N` (DESIGN §2): N simulated agents run beside the demo server.
    const agents = Number(values.agents);
    if (!Number.isInteger(agents) || agents < 0 || agents > 2000) {
      console.error(`gatehouse: --agents must be a whole number from 0 to 2000 (got "${values.agents}")`);
      process.exit(2);
    }
    if (!values.demo && !/^(1|true|yes|on)$/.test(env.SEED_DEMO ?? '')) {
      console.error('gatehouse: --agents runs simulated agents in the demo tenant; add --demo');
      process.exit(2);
    }
    env.DEMO_AGENTS = String(agents);
  }
  // `--scenario pam`: the demo agents raise elevation requests now and then, so the approvals inbox fills.
  if (values.scenario !== undefined) env.DEMO_SCENARIO = values.scenario;
  const server = await createServer({ ...overrides, staticDir, env });
  console.log(`Gatehouse ${server.url}/ (data: ${server.config.dataDir})`);
  if (server.demo) printDemo(server.url, server.demo);
  const simulator = demoSimulator(server.context).status();
  if (simulator.running)
    console.log(`  ${simulator.agents} simulated agents running (stop or resize them from the Devices page)`);
  else if (server.config.demoAgents > 0 && server.config.seedDemo)
    console.warn(
      `gatehouse: the simulated agents did not start${simulator.lastError ? `: ${simulator.lastError}` : ''}`,
    );
  if (server.setupToken) {
    console.log(`First run: create the administrator at ${server.url}/setup#token=${server.setupToken}`);
    console.log(`Setup token: ${server.setupToken}`);
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`gatehouse: ${signal} received, shutting down`);
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(`gatehouse: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
