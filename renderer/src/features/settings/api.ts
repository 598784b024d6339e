import type { BackupStatus, OwnPartnerPatch } from '../../../../server/contract';
import { call } from '../../lib/api/endpoints';
import { useApiQuery, type QueryState } from '../../lib/query';

// The settings endpoints (spec 1: partner settings; the install's backups), typed by the contract. The partner
// itself is read through the tenancy directory (lib/directory.ts, `useOwnPartner`).

export const settingsKeys = {
  backups: ['settings', 'backups'] as const,
};

export const settingsApi = {
  /** PATCH /orgs/partners/me with only what changed (model.ts buildPatch). */
  updateOwnPartner: (body: OwnPartnerPatch) => call('PATCH /orgs/partners/me', { body }),
  backups: () => call('GET /system/backups'),
};

export function useBackups(): QueryState<BackupStatus> {
  return useApiQuery(settingsKeys.backups, settingsApi.backups);
}
