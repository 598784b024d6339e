import { useQuery } from '@tanstack/react-query';
import { call } from '../../lib/api/endpoints';

// The overview's endpoints, typed by the contract: the dashboard (issue 16) and the demo data offer (spec 1).

export const homeKeys = {
  /** Whether the install has any partner yet (one row is enough to know). */
  anyPartner: ['home', 'any-partner'] as const,
  dashboard: ['home', 'dashboard'] as const,
};

export const homeApi = {
  partnerCount: () =>
    call('GET /orgs/partners', { query: { limit: 1 } }).then((page) => page.pagination.total),
  seedDemo: () => call('POST /demo/seed'),
  dashboard: () => call('GET /dashboard'),
};

/** The Overview's numbers; refreshed by live pushes (live.ts) and once a minute for the clock-driven parts. */
export function useDashboard() {
  return useQuery({ queryKey: homeKeys.dashboard, queryFn: homeApi.dashboard, refetchInterval: 60_000 });
}
