import type { BackupStatus } from '../contract';
import { defineRoute, type AnyRoute } from '../http/route';
import type { BackupScheduler } from '../jobs/backup';
import { requireSystemScope } from '../modules/agent-versions';

// The console's Backups card: what the install's own backups look like. Backups hold every tenant's data, so the
// status is for platform administrators only; it is read-only (backups are taken by the schedule or the CLI).

export function backupRoutes(scheduler: BackupScheduler): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/system/backups',
      tag: 'system',
      summary: "This install's backups: the schedule, the newest run and the newest verified backup",
      auth: 'user',
      responses: { 403: 'System scope required' },
      handler: ({ auth }): BackupStatus => {
        requireSystemScope(auth);
        return scheduler.status();
      },
    }),
  ];
}
