import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createBackup } from '../backup/create';
import { lastScheduledBackupStart, latestBackupRun, recordBackupRun } from '../backup/store';
import type { AppContext } from '../context';
import type { BackupStatus } from '../contract';

// Scheduled backups (BACKUP_DIR, BACKUP_EVERY_HOURS, BACKUP_KEEP): every interval the server copies its own live
// database with the secrets sealed under BACKUP_PASSPHRASE, verifies the file and keeps the newest BACKUP_KEEP.
// The schedule's state is backup_runs: the next run is due an interval after the last scheduled start, so a
// restart neither repeats nor skips one, and a run cut short by a crash is taken again at start.
//
// Without a passphrase there is nothing to seal the secrets with, and a backup without them cannot decrypt MFA
// secrets after a restore: scheduling stays off and says so in the log and on the console's Backups card.

const HOUR_MS = 3_600_000;
/** The first backup of an install waits this long after start (or one interval, if shorter). */
const FIRST_RUN_DELAY_MS = 60_000;
/** setTimeout's ceiling (about 24.8 days); longer waits re-arm. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Names the schedule writes and prunes; anything else in the folder is left alone. */
const BACKUP_NAME = /^gatehouse-\d{8}T\d{9}Z\.gbak$/;

/** `gatehouse-20260501T120000000Z.gbak`: sorts by time as text. */
export function backupFileName(at: Date): string {
  return `gatehouse-${at.toISOString().replace(/[-:.]/g, '')}.gbak`;
}

/** Deletes all but the newest `keep` scheduled backups in `dir`, and working files a crash left; returns the deleted names. */
export function pruneBackups(dir: string, keep: number): string[] {
  const names = readdirSync(dir);
  const backups = names
    .filter((name) => BACKUP_NAME.test(name))
    .sort()
    .reverse();
  const leftovers = names.filter((name) => /^gatehouse-\d{8}T\d{9}Z\.gbak\.[0-9a-f]{12}\./.test(name));
  const doomed = [...backups.slice(keep), ...leftovers];
  for (const name of doomed) rmSync(join(dir, name), { force: true });
  return doomed;
}

export class BackupScheduler {
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> | null = null;
  private nextAt: Date | null = null;
  /** When the install's first scheduled backup is due, fixed at start (no run recorded yet). */
  private firstDueMs = 0;
  private stopped = false;
  private problem: string | null = null;

  constructor(
    private readonly ctx: AppContext,
    /** What the backups carry so a restore can decrypt (portableSecrets). */
    private readonly secrets: Record<string, string>,
    private readonly nativeBinding?: string,
  ) {}

  /** Starts the schedule when configured; returns its stop function. */
  start(): () => void {
    const { dir, passphrase } = this.ctx.config.backup;
    if (dir === null) return () => undefined;
    if (passphrase === null) {
      this.problem = 'BACKUP_PASSPHRASE is not set; scheduled backups need it to seal the secrets';
      this.ctx.log.error(`scheduled backups are off: BACKUP_DIR is set but ${this.problem}`);
      return () => undefined;
    }
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      pruneBackups(dir, this.ctx.config.backup.keep);
    } catch (err) {
      this.problem = `BACKUP_DIR ${dir} is not usable: ${(err as Error).message}`;
      this.ctx.log.error({ err }, `scheduled backups are off: ${this.problem}`);
      return () => undefined;
    }
    this.firstDueMs = Date.now() + Math.min(this.everyMs(), FIRST_RUN_DELAY_MS);
    this.arm();
    this.ctx.log.info(
      { dir, everyHours: this.ctx.config.backup.everyHours, nextAt: this.nextAt?.toISOString() },
      'scheduled backups on',
    );
    return () => {
      this.stopped = true;
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      this.nextAt = null;
    };
  }

  /** Resolves when no backup is being taken (shutdown waits for it before closing the database). */
  async idle(): Promise<void> {
    await this.inFlight;
  }

  status(): BackupStatus {
    const { dir, everyHours, keep } = this.ctx.config.backup;
    return {
      schedule: {
        enabled: this.nextAt !== null || this.inFlight !== null,
        directory: dir,
        everyHours,
        keep,
        nextAt: this.nextAt?.toISOString() ?? null,
        running: this.inFlight !== null,
        problem: this.problem,
      },
      last: latestBackupRun(this.ctx.db),
      lastSucceeded: latestBackupRun(this.ctx.db, 'succeeded'),
    };
  }

  private everyMs(): number {
    return this.ctx.config.backup.everyHours * HOUR_MS;
  }

  private dueAt(): number {
    const last = lastScheduledBackupStart(this.ctx.db);
    return last ? last.getTime() + this.everyMs() : this.firstDueMs;
  }

  private arm(): void {
    if (this.stopped) return;
    const now = Date.now();
    const due = this.dueAt();
    this.nextAt = new Date(Math.max(due, now));
    this.timer = setTimeout(() => this.tick(), Math.min(Math.max(due - now, 0), MAX_TIMER_MS));
    this.timer.unref();
  }

  private tick(): void {
    this.timer = null;
    if (this.stopped) return;
    if (this.dueAt() > Date.now()) return this.arm();
    this.inFlight = this.run().finally(() => {
      this.inFlight = null;
      this.arm();
    });
  }

  private async run(): Promise<void> {
    const { dir, keep, passphrase } = this.ctx.config.backup;
    if (dir === null || passphrase === null) return;
    const startedAt = new Date();
    try {
      const result = await createBackup(this.ctx.db, this.secrets, {
        to: join(dir, backupFileName(startedAt)),
        passphrase,
        ...(this.nativeBinding ? { nativeBinding: this.nativeBinding } : {}),
      });
      recordBackupRun(this.ctx.db, 'scheduled', startedAt, {
        status: 'succeeded',
        file: result.file,
        sizeBytes: result.bytes,
      });
      const pruned = pruneBackups(dir, keep);
      this.ctx.log.info(
        { file: result.file, bytes: result.bytes, auditEntries: result.auditEntries, pruned: pruned.length },
        'scheduled backup written and verified',
      );
    } catch (err) {
      this.ctx.log.error({ err }, 'scheduled backup failed');
      try {
        recordBackupRun(this.ctx.db, 'scheduled', startedAt, {
          status: 'failed',
          error: (err as Error).message,
        });
      } catch (recordErr) {
        this.ctx.log.error({ err: recordErr }, 'could not record the failed backup');
      }
    }
  }
}
