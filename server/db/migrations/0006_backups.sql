-- Online backups of this install (server/backup/): one row per finished run, scheduled by the server or taken
-- with `npm run backup`. The schedule reads its last run from here, so a restart neither skips nor repeats a
-- backup, and the console's Backups card shows the newest run and its verification. A row is written when its
-- run ends, so a backup never holds a row describing itself as under way.

CREATE TABLE backup_runs (
  id TEXT PRIMARY KEY,
  -- Who took it: the server's schedule, or `npm run backup`.
  origin TEXT NOT NULL CHECK (origin IN ('scheduled', 'cli')),
  status TEXT NOT NULL CHECK (status IN ('succeeded', 'failed')),
  started_at TEXT NOT NULL,
  finished_at TEXT NOT NULL,
  -- The backup file, verified and in place; null after a failure.
  file TEXT,
  size_bytes INTEGER,
  -- 1 only after the copy passed its checksum, integrity check and audit chain verification.
  verified INTEGER NOT NULL DEFAULT 0 CHECK (verified IN (0, 1)),
  error TEXT
) STRICT;
CREATE INDEX backup_runs_started ON backup_runs (started_at);
CREATE INDEX backup_runs_origin_started ON backup_runs (origin, started_at);
