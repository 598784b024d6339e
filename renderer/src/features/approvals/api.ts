import type { ActiveElevations, ElevationRequestList } from '../../../../server/contract';
import { api } from '../../lib/api/client';
import { qs } from '../../lib/forms';

// The reads of the Approvals section, typed by the contract (the writes are in actions.ts). Each read is a
// `{key, fetch}` pair: the key names its entry in the query cache, which live pushes patch (useLiveList).

export interface Read<T> {
  key: readonly unknown[];
  fetch: () => Promise<T>;
}

export interface RequestListQuery {
  status?: string;
  flowType?: string;
  order?: 'newest' | 'oldest';
  limit: number;
  page: number;
}

export const approvalsKeys = {
  all: ['pam', 'requests'] as const,
};

export const approvalsApi = {
  requests: (q: RequestListQuery): Read<ElevationRequestList> => {
    const path = `/pam/elevation-requests${qs({ ...q })}`;
    return { key: [...approvalsKeys.all, path], fetch: () => api<ElevationRequestList>(path) };
  },
  active: (): Read<ActiveElevations> => ({
    key: [...approvalsKeys.all, '/pam/active'],
    fetch: () => api<ActiveElevations>('/pam/active'),
  }),
  pendingCount: (): Read<number> => ({
    key: [...approvalsKeys.all, 'pending-count'],
    fetch: () =>
      api<ElevationRequestList>('/pam/elevation-requests?status=pending&limit=1').then(
        (r) => r.pagination.total,
      ),
  }),
};
