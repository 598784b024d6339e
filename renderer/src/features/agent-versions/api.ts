import type { AgentVersionList, DeviceSummary, Paginated } from '../../../../server/contract';
import { api } from '../../lib/api/client';
import { qs } from '../../lib/forms';
import { useApiQuery, type QueryState } from '../../lib/query';

// The agent builds (spec 3 GET /agent-versions) and how many devices in the caller's scope run a version, counted
// by the device list with an `agentVersion equals` condition group (the API offers no rollout aggregate).

/** The condition group of the devices running `version`; also what the devices page takes as `conditions`. */
export const runningVersion = (version: string) =>
  JSON.stringify({
    operator: 'AND',
    conditions: [{ field: 'agentVersion', operator: 'equals', value: version }],
  });

/** Counts of devices per version, and all devices in scope, from one-row pages (their totals). */
export async function deviceCounts(
  versions: string[],
): Promise<{ all: number; byVersion: Record<string, number> }> {
  const total = (conditions?: string) =>
    api<Paginated<DeviceSummary>>(`/devices${qs({ conditions, limit: 1 })}`).then((r) => r.pagination.total);
  const [all, ...counts] = await Promise.all(
    [undefined, ...versions].map((v) => total(v && runningVersion(v))),
  );
  return { all: all ?? 0, byVersion: Object.fromEntries(versions.map((v, i) => [v, counts[i] ?? 0])) };
}

export function useAgentVersions(): QueryState<AgentVersionList> {
  return useApiQuery(['agent-versions', 'list'], () => api<AgentVersionList>('/agent-versions'));
}

export function useVersionCounts(
  versions: string[] | null,
): QueryState<Awaited<ReturnType<typeof deviceCounts>>> {
  return useApiQuery(versions ? ['agent-versions', 'device-counts', versions] : null, () =>
    deviceCounts(versions ?? []),
  );
}
