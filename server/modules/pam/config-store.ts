import type { PamConfig } from '../../contract';
import { statement, type Db } from '../../db/connection';

// The store of the organization's PAM configuration (spec 2): `require_approval` when no row exists.

interface PamConfigRow {
  org_id: string;
  default_unmatched_verdict: PamConfig['defaultUnmatchedVerdict'];
  default_approval_duration_minutes: number;
  actuator_enabled: number;
}

export const DEFAULT_APPROVAL_MINUTES = 15;

export function pamConfigFor(db: Db, orgId: string): PamConfig {
  const row = statement(db, 'SELECT * FROM pam_config WHERE org_id = ?').get(orgId) as
    PamConfigRow | undefined;
  return {
    orgId,
    defaultUnmatchedVerdict: row?.default_unmatched_verdict ?? 'require_approval',
    defaultApprovalDurationMinutes: row?.default_approval_duration_minutes ?? DEFAULT_APPROVAL_MINUTES,
    actuatorEnabled: row ? row.actuator_enabled === 1 : true,
  };
}
