import type { AuditResult } from '../../../server/contract';

/**
 * Each audit result's tone, in the kit's tone names: the audit log's result pill and the Overview's activity dots.
 * It lives here rather than in the audit feature so that the Overview, the first screen, does not pull the audit
 * page's chunk.
 */
export const RESULT_TONE = { success: 'ok', failure: 'bad', denied: 'warn' } as const satisfies Record<
  AuditResult,
  'ok' | 'bad' | 'warn'
>;
