import type { PostureDevices, PostureSummary } from '../../../../server/contract';
import { api } from '../../lib/api/client';
import { qs } from '../../lib/forms';
import { useApiQuery, type QueryState } from '../../lib/query';

// The management posture report (spec 3): third-party management products the agents report, counted per
// organization, and the devices behind one product and status.

export interface PostureDrill {
  orgId: string;
  product: string;
  status: string;
}

export const DRILL_PAGE = 100;

export const postureApi = {
  summary: (stalenessDays: number) =>
    api<PostureSummary>(`/devices/management-posture/summary${qs({ stalenessDays })}`),
  devices: (drill: PostureDrill, page: number) =>
    api<PostureDevices>(`/devices/management-posture/devices${qs({ ...drill, page, limit: DRILL_PAGE })}`),
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
