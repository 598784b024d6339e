// GET /system/backups: the platform administrator's view of this install's own backups (not the device backups
// of spec 3's catalog).

export interface BackupRun {
  id: string;
  /** `scheduled` by the server (BACKUP_DIR), or `cli` for `npm run backup`. */
  origin: 'scheduled' | 'cli';
  status: 'succeeded' | 'failed';
  startedAt: string;
  finishedAt: string;
  /** The backup file on the server's disk; null when the run failed. */
  file: string | null;
  sizeBytes: number | null;
  /** True only when the copy passed its checksum, SQLite's integrity check and the audit chain verification. */
  verified: boolean;
  error: string | null;
}

export interface BackupSchedule {
  /** Scheduled backups are running (BACKUP_DIR and BACKUP_PASSPHRASE set, the folder usable). */
  enabled: boolean;
  directory: string | null;
  everyHours: number;
  keep: number;
  /** When the next scheduled backup is due; null while scheduling is off. */
  nextAt: string | null;
  /** A backup is being taken right now. */
  running: boolean;
  /** Why scheduling is off although BACKUP_DIR is set. */
  problem: string | null;
}

export interface BackupStatus {
  schedule: BackupSchedule;
  /** The newest run, scheduled or by hand, whatever its outcome. */
  last: BackupRun | null;
  /** The newest run that produced a verified backup. */
  lastSucceeded: BackupRun | null;
}
