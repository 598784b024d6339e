import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './connection';

// Numbered .sql files (0001_name.sql, ...) beside this module; the desktop build copies them next to the bundle.
// Each runs in its own transaction with its version recorded, so a crash mid-migration leaves nothing half-applied.

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export class MigrationError extends Error {}

export function defaultMigrationsDir(): string {
  return join(dirname(fileURLToPath(import.meta.url)), 'migrations');
}

export function loadMigrations(dir = defaultMigrationsDir()): Migration[] {
  const migrations = readdirSync(dir)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 4)),
      name: file.slice(5, -4),
      sql: readFileSync(join(dir, file), 'utf8'),
    }));
  migrations.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new MigrationError(`Migration numbering has a gap or duplicate at ${m.version}_${m.name}`);
  });
  return migrations;
}

function ensureTable(db: Db): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  ) STRICT`);
}

export function currentVersion(db: Db): number {
  ensureTable(db);
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
  return row.v ?? 0;
}

export interface MigrationStatus {
  current: number;
  latest: number;
  pending: Migration[];
}

export function migrationStatus(db: Db, migrations: Migration[]): MigrationStatus {
  const current = currentVersion(db);
  const latest = migrations.length;
  if (current > latest) {
    throw new MigrationError(
      `The database is at schema version ${current}, newer than this release knows (${latest}). ` +
        'Run the release that wrote it, or restore a backup taken before the upgrade.',
    );
  }
  return { current, latest, pending: migrations.filter((m) => m.version > current) };
}

/**
 * Applies pending migrations; returns the versions applied. Foreign-key enforcement is off while they run, as
 * SQLite's table-rebuild procedure requires (dropping a parent table would otherwise cascade into its
 * children); instead each migration must leave no dangling reference behind before it commits.
 */
export function migrate(db: Db, migrations: Migration[]): number[] {
  const { pending } = migrationStatus(db, migrations);
  if (pending.length === 0) return [];
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const enforced = db.pragma('foreign_keys', { simple: true }) === 1;
  // A no-op inside a transaction, so it is switched here, around them.
  db.pragma('foreign_keys = OFF');
  try {
    for (const m of pending) {
      db.transaction(() => {
        db.exec(m.sql);
        const dangling = db.pragma('foreign_key_check') as unknown[];
        if (dangling.length > 0) {
          throw new MigrationError(
            `Migration ${m.version}_${m.name} leaves ${dangling.length} broken foreign key reference(s)`,
          );
        }
        record.run(m.version, m.name, new Date().toISOString());
      })();
    }
  } finally {
    if (enforced) db.pragma('foreign_keys = ON');
  }
  return pending.map((m) => m.version);
}
