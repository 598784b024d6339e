import { randomUUID } from 'node:crypto';
import type { BackupRun } from '../contract';
import type { Db } from '../db/connection';
import { transaction } from '../db/after-commit';

// backup_runs (migration 0006), as free functions of the database: one row per finished run. A run is written once it has ended, never while it is
// under way, so a backup never contains a row describing itself as running, and a run cut short by a crash
// simply is not there (the schedule then runs again at start).

export type BackupOrigin = BackupRun['origin'];

interface RunRow {
  id: string;
  origin: BackupOrigin;
  status: 'succeeded' | 'failed';
  started_at: string;
  finished_at: string;
  file: string | null;
  size_bytes: number | null;
  verified: number;
  error: string | null;
}

/** Runs kept in the table; older ones are history nobody reads. */
const KEEP_ROWS = 500;

const toRun = (row: RunRow): BackupRun => ({
  id: row.id,
  origin: row.origin,
  status: row.status,
  startedAt: row.started_at,
  finishedAt: row.finished_at,
  file: row.file,
  sizeBytes: row.size_bytes,
  verified: row.verified === 1,
  error: row.error,
});

export type RunOutcome =
  { status: 'succeeded'; file: string; sizeBytes: number } | { status: 'failed'; error: string };

/** Whether the database has the table (a CLI may face a database an older release has not migrated). */
export function hasBackupRuns(db: Db): boolean {
  return (
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'backup_runs'").get() !==
    undefined
  );
}

export function recordBackupRun(
  db: Db,
  origin: BackupOrigin,
  startedAt: Date,
  outcome: RunOutcome,
): BackupRun {
  const row: RunRow = {
    id: randomUUID(),
    origin,
    status: outcome.status,
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    file: outcome.status === 'succeeded' ? outcome.file : null,
    size_bytes: outcome.status === 'succeeded' ? outcome.sizeBytes : null,
    verified: outcome.status === 'succeeded' ? 1 : 0,
    error: outcome.status === 'failed' ? outcome.error.slice(0, 2000) : null,
  };
  transaction(db, () => {
    db.prepare(
      `INSERT INTO backup_runs (id, origin, status, started_at, finished_at, file, size_bytes, verified, error)
         VALUES (@id, @origin, @status, @started_at, @finished_at, @file, @size_bytes, @verified, @error)`,
    ).run(row);
    db.prepare(
      'DELETE FROM backup_runs WHERE id NOT IN (SELECT id FROM backup_runs ORDER BY started_at DESC LIMIT ?)',
    ).run(KEEP_ROWS);
  });
  return toRun(row);
}

export function latestBackupRun(db: Db, status?: 'succeeded'): BackupRun | null {
  const row = (
    status
      ? db.prepare('SELECT * FROM backup_runs WHERE status = ? ORDER BY started_at DESC LIMIT 1').get(status)
      : db.prepare('SELECT * FROM backup_runs ORDER BY started_at DESC LIMIT 1').get()
  ) as RunRow | undefined;
  return row ? toRun(row) : null;
}

/** When the schedule last started a run, whatever its outcome: the next one is due an interval later. */
export function lastScheduledBackupStart(db: Db): Date | null {
  const row = db
    .prepare("SELECT started_at FROM backup_runs WHERE origin = 'scheduled' ORDER BY started_at DESC LIMIT 1")
    .get() as { started_at: string } | undefined;
  return row ? new Date(row.started_at) : null;
}
