import type { PostureDevices, PostureDrill, PostureSummary } from '../../../../server/contract';
import { call } from '../../lib/api/endpoints';
import { useApiQuery, type QueryState } from '../../lib/query';

export type { PostureDrill };

// The management posture report (spec 3): third-party management products the agents report, counted per
// organization, and the devices behind one product and status.

export const DRILL_PAGE = 100;

export const postureApi = {
  summary: (stalenessDays: number) =>
    call('GET /devices/management-posture/summary', { query: { stalenessDays } }),
  devices: (drill: PostureDrill, page: number) =>
    call('GET /devices/management-posture/devices', { query: { ...drill, page, limit: DRILL_PAGE } }),
};

export const postureKeys = {
  summary: (stalenessDays: number) => ['posture', 'summary', stalenessDays] as const,
  devices: (drill: PostureDrill, page: number) => ['posture', 'devices', drill, page] as const,
};

export function usePostureSummary(stalenessDays: number): QueryState<PostureSummary> {
  return useApiQuery(postureKeys.summary(stalenessDays), () => postureApi.summary(stalenessDays));
}

export function usePostureDevices(drill: PostureDrill | null, page: number): QueryState<PostureDevices> {
  return useApiQuery(drill ? postureKeys.devices(drill, page) : null, () =>
    drill ? postureApi.devices(drill, page) : Promise.reject(new Error('no product chosen')),
  );
}
