import type { AgentVersionList, DeviceFacets, RegisterVersionBody } from '../../../../server/contract';
import { call } from '../../lib/api/endpoints';
import { queryClient, useApiQuery, type QueryState } from '../../lib/query';

// The agent builds (spec 3 GET|POST /agent-versions), their staged rollout (PUT /agent-versions/:version/rollout)
// and how many devices in the caller's scope run each build, counted by one GET /devices/facets.

export const agentVersionsApi = {
  list: () => call('GET /agent-versions'),
  register: (body: RegisterVersionBody) => call('POST /agent-versions', { body }),
  setRollout: (version: string, percent: number) =>
    call('PUT /agent-versions/:version/rollout', { params: { version }, body: { percent } }),
  adoption: () => call('GET /devices/facets', { query: { by: 'agentBuild' } }),
};

export const agentVersionsKeys = {
  all: ['agent-versions'] as const,
  list: ['agent-versions', 'list'] as const,
  adoption: ['agent-versions', 'adoption'] as const,
};

/** The condition group of the devices running `version`; also what the devices page takes as `conditions`. */
export const runningVersion = (version: string) =>
  JSON.stringify({
    operator: 'AND',
    conditions: [{ field: 'agentVersion', operator: 'equals', value: version }],
  });

export function useAgentVersions(): QueryState<AgentVersionList> {
  return useApiQuery(agentVersionsKeys.list, agentVersionsApi.list);
}

export function useAdoption(): QueryState<DeviceFacets> {
  return useApiQuery(agentVersionsKeys.adoption, agentVersionsApi.adoption);
}

/** After a registration or a rollout change: the builds and their counts are read again. */
export const refreshAgentVersions = () => queryClient.invalidateQueries({ queryKey: agentVersionsKeys.all });
