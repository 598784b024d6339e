import type { AuditReportQuery } from '../../../../server/contract';

// The reports' date range: the last 7, 30 or 90 days up to now (to the minute, so the cache key holds still
// while the page is open), and one organization or all of them.

export const RANGE_DAYS = [7, 30, 90] as const;
export type RangeDays = (typeof RANGE_DAYS)[number];

export function reportQuery(days: RangeDays, orgId: string, at = Date.now()): AuditReportQuery {
  const to = Math.ceil(at / 60_000) * 60_000;
  return {
    from: new Date(to - days * 86_400_000).toISOString(),
    to: new Date(to).toISOString(),
    ...(orgId ? { orgId } : {}),
  };
}
