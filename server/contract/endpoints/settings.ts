import type { BackupStatus } from '../backups';
import type { Partner, ServiceManagementMode } from '../tenancy';
import type { Endpoint } from './endpoint';

// The settings page's endpoints (spec 1 partner settings; the install's backups).

/**
 * The caller's own partner, only what changed. `settings` carries just the changed leaves (the server merges them
 * key by key) as the form holds them; the server checks each and names the one it refuses.
 */
export interface OwnPartnerPatch {
  name?: string;
  billingEmail?: string | null;
  settings?: Record<string, unknown>;
  serviceManagementMode?: ServiceManagementMode;
  serviceManagementPsaConnectionId?: string | null;
}

export interface SettingsEndpoints {
  'PATCH /orgs/partners/me': Endpoint<Partner, OwnPartnerPatch>;
  'GET /system/backups': Endpoint<BackupStatus>;
}
