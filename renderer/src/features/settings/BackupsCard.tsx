import type { ReactNode } from 'react';
import type { BackupRun } from '../../../../server/contract';
import { formatDateTime } from '../../lib/format';
import { useBackups } from './api';
import { Card, Facts, LoadFailure, LoadingBlock, StatusPill } from '../../ui';

// The install's own backups, for platform administrators (GET /system/backups). Read-only: backups are taken by
// the server's schedule (BACKUP_DIR) or with `npm run backup`, and restored with `npm run restore` while the
// server is stopped, so the console only reports.

function size(bytes: number | null): string {
  if (bytes === null) return '—';
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

function every(hours: number): string {
  if (hours >= 24 && hours % 24 === 0) return hours === 24 ? 'daily' : `every ${hours / 24} days`;
  if (hours >= 1) return hours === 1 ? 'hourly' : `every ${+hours.toFixed(2)} hours`;
  return `every ${Math.max(1, Math.round(hours * 60))} minutes`;
}

function Outcome({ run }: { run: BackupRun }) {
  if (run.status === 'succeeded' && run.verified)
    return (
      <StatusPill tone="ok" testId="backup-outcome">
        Verified
      </StatusPill>
    );
  return (
    <span data-testid="backup-outcome">
      <StatusPill tone="bad">Failed</StatusPill> <span className="muted">{run.error ?? 'not verified'}</span>
    </span>
  );
}

export function BackupsCard() {
  const status = useBackups();
  if (status.loading) return <LoadingBlock label="Loading backups…" />;
  if (!status.data)
    return (
      <LoadFailure
        error={status.error}
        onRetry={status.reload}
        forbiddenTitle="Backups are for platform administrators"
        forbiddenText="The install's backups hold every tenant's data."
      />
    );
  const { schedule, last, lastSucceeded } = status.data;
  const scheduleText = schedule.enabled
    ? `${every(schedule.everyHours)} into ${schedule.directory ?? '—'}, keeping the newest ${schedule.keep}`
    : (schedule.problem ?? 'Off: set BACKUP_DIR and BACKUP_PASSPHRASE to schedule backups');
  const rows: Array<[string, ReactNode, string?]> = [
    ['Last backup', last ? formatDateTime(last.finishedAt) : 'None yet', 'backup-last'],
  ];
  if (last) {
    rows.push(['Result', <Outcome run={last} />]);
    rows.push(['Taken by', last.origin === 'scheduled' ? 'the schedule' : 'npm run backup']);
    if (last.file) rows.push(['File', <span className="mono">{last.file}</span>, 'backup-file']);
    rows.push(['Size', size(last.sizeBytes), 'backup-size']);
  }
  if (lastSucceeded && lastSucceeded.id !== last?.id)
    rows.push(['Last verified backup', formatDateTime(lastSucceeded.finishedAt), 'backup-last-good']);
  rows.push(['Schedule', scheduleText, 'backup-schedule']);
  rows.push([
    'Next backup',
    schedule.running ? 'Running now' : schedule.nextAt ? formatDateTime(schedule.nextAt) : '—',
    'backup-next',
  ]);
  return (
    <Card title="Backups" icon="server" testId="backups-card">
      <Facts rows={rows} />
      <p className="muted">
        Restore with <code>npm run restore -- --from FILE</code> while the server is stopped.
      </p>
    </Card>
  );
}
