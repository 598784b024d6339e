import type {
  AgentArch,
  AgentPlatform,
  AgentVersion,
  AgentVersionList,
  AgentVersionRollout,
  DeviceFacets,
} from '../../../../server/contract';
import { api } from '../../lib/api/client';
import { queryClient, useApiQuery, type QueryState } from '../../lib/query';

// The agent builds (spec 3 GET|POST /agent-versions), their staged rollout (PUT /agent-versions/:version/rollout)
// and how many devices in the caller's scope run each build, counted by one GET /devices/facets.

export interface RegisterVersionBody {
  version: string;
  platform: AgentPlatform;
  architecture: AgentArch;
  downloadUrl: string;
  checksum: string;
  releaseNotes?: string;
}

export const agentVersionsApi = {
  list: () => api<AgentVersionList>('/agent-versions'),
  register: (body: RegisterVersionBody) => api<AgentVersion>('/agent-versions', { method: 'POST', body }),
  setRollout: (version: string, percent: number) =>
    api<AgentVersionRollout>(`/agent-versions/${encodeURIComponent(version)}/rollout`, {
      method: 'PUT',
      body: { percent },
    }),
  adoption: () => api<DeviceFacets>('/devices/facets?by=agentBuild'),
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
