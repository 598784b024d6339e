import type { ElevationFlowType, ElevationStatus } from '../../../contract';
import { statement, type Db } from '../../../db/connection';

// The SQL of a rule preview (preview.ts): recent requests, newest first, as the rule matcher reads them.

export interface PreviewRow {
  id: string;
  requested_at: string;
  flow_type: ElevationFlowType;
  status: ElevationStatus;
  subject_username: string | null;
  subject_ad_groups: string | null;
  target_executable_path: string | null;
  target_executable_hash: string | null;
  target_executable_signer: string | null;
  target_signer_thumbprint: string | null;
  parent_image: string | null;
  command_line: string | null;
  tool_name: string | null;
  risk_tier: number | null;
}

/**
 * Requests of `elevation_requests r` narrowed by `where` (fixed SQL fragments; their values in `params`, the scan
 * cap last), read lazily: the preview stops at its cap.
 */
export function recentRequests(db: Db, where: string[], params: unknown[]): IterableIterator<PreviewRow> {
  return statement(
    db,
    `SELECT id, requested_at, flow_type, status, subject_username, subject_ad_groups, target_executable_path,
        target_executable_hash, target_executable_signer, target_signer_thumbprint, parent_image, command_line,
        tool_name, risk_tier
       FROM elevation_requests r WHERE ${where.join(' AND ')}
       ORDER BY r.requested_at DESC, r.id DESC LIMIT ?`,
  ).iterate(...params) as IterableIterator<PreviewRow>;
}
