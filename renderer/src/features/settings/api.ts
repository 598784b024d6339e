import type { BackupStatus, Partner } from '../../../../server/contract';
import { api } from '../../lib/api/client';
import { useApiQuery, type QueryState } from '../../lib/query';

// The settings endpoints (spec 1: partner settings; the install's backups), typed by the contract. The partner
// itself is read through the tenancy directory (lib/directory.ts, `useOwnPartner`).

export const settingsKeys = {
  backups: ['settings', 'backups'] as const,
};

export const settingsApi = {
  /** PATCH /orgs/partners/me with only what changed (model.ts buildPatch). */
  updateOwnPartner: (patch: Record<string, unknown>) =>
    api<Partner>('/orgs/partners/me', { method: 'PATCH', body: patch }),
  backups: () => api<BackupStatus>('/system/backups'),
};

export function useBackups(): QueryState<BackupStatus> {
  return useApiQuery(settingsKeys.backups, settingsApi.backups);
}
