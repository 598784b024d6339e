import { keepPreviousData, useQuery, type InfiniteData } from '@tanstack/react-query';
import { useCallback } from 'react';
import { LIVE_EVENT_LEVELS, type LiveEventLevel } from '../../../../server/contract';
import type {
  AgentVersion,
  DeviceCommand,
  DeviceCommandBody,
  DeviceDetail,
  DeviceFacet,
  DeviceFacets,
  DeviceFilterQuery,
  DeviceStatus,
  DeviceSummary,
  DeviceLiveEvent,
  DeviceEventLogEntry,
  DiagnosticLogEntry,
  DiagnosticLogQuery,
  EventLogQuery,
  Paginated,
  SimulatorElevationBody,
  SimulatorStartBody,
  SimulatorStatus,
  DeviceLabelsBody,
} from '../../../../server/contract';
import { call } from '../../lib/api/endpoints';
import { onLiveEvent } from '../../lib/live/socket';
import { asList, queryClient, useApiQuery, type QueryState } from '../../lib/query';
import { usePagedList, type PagedList } from '../../lib/paged-list';
import { STATUS_LABEL } from './format';

export type { DeviceCommandBody };

// The device endpoints (spec 2, Devices) typed by the contract, their cached queries, and what a `device.*`
// push does to the cache: the device's row and detail are patched in place, an enrolment or a decommission
// marks the lists stale (one refetch for a burst), and nothing else is re-read.

export const PAGE_SIZE = 500;
const REFRESH_MS = 30_000;

export const devicesApi = {
  /** One page of GET /devices under the list's filters and sort (list-url.ts `listQuery`). */
  list: (filter: DeviceFilterQuery, page: number, limit = PAGE_SIZE) =>
    call('GET /devices', { query: { ...filter, page, limit } }),
  detail: (id: string) => call('GET /devices/:id', { params: { id } }),
  update: (id: string, body: DeviceLabelsBody) => call('PATCH /devices/:id', { params: { id }, body }),
  decommission: (id: string) => call('DELETE /devices/:id', { params: { id } }),
  command: (id: string, body: DeviceCommandBody) =>
    call('POST /devices/:id/commands', { params: { id }, body }),
  commands: (id: string) => call('GET /devices/:id/commands', { params: { id } }).then(asList),
  /** GET /devices/facets under the list's filters (as for `list`). */
  facets: (filter: DeviceFilterQuery, by: readonly DeviceFacet[]) =>
    call('GET /devices/facets', { query: { ...filter, by: by.join(',') } }),
  agentVersions: () => call('GET /agent-versions').then(asList),
  /** Stored event logs under the tab's filters and page (empty filters are left out). */
  eventLogs: (deviceId: string, query: EventLogQuery) =>
    call('GET /devices/:deviceId/eventlogs', { params: { deviceId }, query }),
  diagnosticLogs: (deviceId: string, query: DiagnosticLogQuery) =>
    call('GET /devices/:deviceId/diagnostic-logs', { params: { deviceId }, query }),
};

/** How the tab ranks the contract's live levels, most severe first (a Record: a new level must be ranked). */
const SEVERITY: Record<LiveEventLevel, number> = {
  critical: 0,
  error: 1,
  warning: 2,
  information: 3,
  verbose: 4,
};

/** The levels a live event query filters by, in the order the tab offers them. */
export const LIVE_LEVELS: readonly LiveEventLevel[] = [...LIVE_EVENT_LEVELS].sort(
  (a, b) => SEVERITY[a] - SEVERITY[b],
);

/** The live tab's filters as its controls hold them: text, empty for none. */
export interface LiveEventsFilter {
  page: number;
  limit: number;
  level: string;
  source: string;
  eventId: string;
  startTime: string;
  endTime: string;
}

/**
 * The live event-log endpoints: each one asks the device itself over the agent's socket (nothing is stored) and
 * may take up to 30 s; `signal` cancels the wait when the viewer moves on.
 */
export const liveLogApi = {
  logs: (deviceId: string, signal?: AbortSignal) =>
    call('GET /system-tools/devices/:deviceId/eventlogs', { params: { deviceId }, signal }),
  events: (deviceId: string, name: string, filter: LiveEventsFilter, signal?: AbortSignal) =>
    call('GET /system-tools/devices/:deviceId/eventlogs/:name/events', {
      params: { deviceId, name },
      // The level select offers only these; '' (all levels) is left out.
      query: { ...filter, level: LIVE_LEVELS.find((level) => level === filter.level) },
      signal,
    }),
  event: (deviceId: string, name: string, recordId: number, signal?: AbortSignal) =>
    call('GET /system-tools/devices/:deviceId/eventlogs/:name/events/:recordId', {
      params: { deviceId, name, recordId: String(recordId) },
      signal,
    }).then((r) => r.data),
};

/** The demo server's bundled agent simulator (spec 1, demo mode). */
export const simulatorApi = {
  status: () => call('GET /demo/simulator'),
  start: (body: SimulatorStartBody) => call('POST /demo/simulator/start', { body }),
  stop: () => call('POST /demo/simulator/stop'),
  raiseElevation: (body: SimulatorElevationBody) => call('POST /demo/simulator/elevation-requests', { body }),
};

export const devicesKeys = {
  all: ['devices'] as const,
  lists: ['devices', 'list'] as const,
  list: (filter: DeviceFilterQuery) => ['devices', 'list', filter] as const,
  counts: (filter: DeviceFilterQuery, by: readonly DeviceFacet[]) =>
    ['devices', 'counts', filter, by] as const,
  detail: (id: string) => ['devices', 'detail', id] as const,
  commands: (id: string) => ['devices', 'commands', id] as const,
  agentVersions: ['agent-versions'] as const,
  eventLogs: (id: string, query: EventLogQuery) => ['devices', 'eventlogs', id, query] as const,
  diagnosticLogs: (id: string, query: DiagnosticLogQuery) =>
    ['devices', 'diagnostic-logs', id, query] as const,
  /** A live read of the device; `attempt` makes each retry a new question rather than a cached answer. */
  live: (id: string, attempt: number, ...what: unknown[]) =>
    ['devices', 'live', id, attempt, ...what] as const,
  simulator: ['demo', 'simulator'] as const,
};

export function useDeviceCommands(id: string): QueryState<DeviceCommand[]> {
  return useApiQuery(devicesKeys.commands(id), () => devicesApi.commands(id));
}

export function useAgentVersions(): QueryState<AgentVersion[]> {
  return useApiQuery(devicesKeys.agentVersions, devicesApi.agentVersions);
}

export function useEventLogs(id: string, query: EventLogQuery): QueryState<Paginated<DeviceEventLogEntry>> {
  return useApiQuery(devicesKeys.eventLogs(id, query), () => devicesApi.eventLogs(id, query));
}

export function useDiagnosticLogs(
  id: string,
  query: DiagnosticLogQuery,
): QueryState<Paginated<DiagnosticLogEntry>> {
  return useApiQuery(devicesKeys.diagnosticLogs(id, query), () => devicesApi.diagnosticLogs(id, query));
}

export interface LiveRead<T> {
  data: T | undefined;
  error: unknown;
  /** Asked and not answered yet. */
  waiting: boolean;
  /** Names this question: a new one (other key or a retry) restarts the waiting clock. */
  key: string;
}

/**
 * One live question to the device (`key: null`: not asked). Answers are not kept once the viewer moves on:
 * the device's logs change, so a retry or a return asks again.
 */
export function useLiveRead<T>(
  key: readonly unknown[] | null,
  fetch: (signal: AbortSignal) => Promise<T>,
): LiveRead<T> {
  const query = useQuery({
    queryKey: key ?? ['devices', 'live', 'off'],
    queryFn: ({ signal }) => fetch(signal),
    enabled: key !== null,
    gcTime: 0,
    staleTime: Infinity,
  });
  return {
    data: key === null ? undefined : query.data,
    error: key === null ? null : query.error,
    waiting: key !== null && query.isPending,
    key: JSON.stringify(key),
  };
}

/** The simulator's state, re-read every few seconds while it is available; null where there is none. */
export function useSimulatorStatus(pollMs: number): { status: SimulatorStatus | null; refresh: () => void } {
  const query = useQuery({
    queryKey: devicesKeys.simulator,
    queryFn: simulatorApi.status,
    refetchInterval: (q) => (q.state.status === 'success' && q.state.data?.available ? pollMs : false),
  });
  const { refetch } = query;
  const refresh = useCallback(() => void refetch(), [refetch]);
  return { status: query.isError ? null : (query.data ?? null), refresh };
}

type DevicePages = InfiniteData<Paginated<DeviceSummary>>;

/**
 * The device list: pages of 500 appended as the technician scrolls, so a fleet of thousands opens fast. A
 * refetch (every 30 s while visible: heartbeats carry no push each) keeps as many pages as were scrolled.
 */
export function useDeviceList(filter: DeviceFilterQuery): PagedList<DeviceSummary> {
  return usePagedList(devicesKeys.list(filter), (page) => devicesApi.list(filter, page), {
    refetchInterval: REFRESH_MS,
  });
}

/**
 * Counts of the devices matching `filter` (the list's) per value of each facet in `by`, from one
 * GET /devices/facets: the header's "N devices across M organizations" and the status chips. Kept under the
 * 'counts' key, so device pushes refresh it with the chips.
 */
export function useDeviceFacets(filter: DeviceFilterQuery, by: readonly DeviceFacet[]): DeviceFacets | null {
  const q = useQuery({
    queryKey: devicesKeys.counts(filter, by),
    queryFn: () => devicesApi.facets(filter, by),
    placeholderData: keepPreviousData,
  });
  return q.data ?? null;
}

export function useDevice(id: string) {
  return useQuery({ queryKey: devicesKeys.detail(id), queryFn: () => devicesApi.detail(id) });
}

function statusOf(value: string): DeviceStatus | undefined {
  return value in STATUS_LABEL ? (value as DeviceStatus) : undefined;
}

/** What a push says about the device's row (`presence`: it is one change of a presence batch). */
function patchOf(data: DeviceLiveEvent, receivedAt: number, presence: boolean): Partial<DeviceSummary> {
  const patch: Partial<DeviceSummary> = { hostname: data.hostname, siteId: data.siteId };
  const status = statusOf(data.status);
  if (status) patch.status = status;
  if (presence && status === 'online') patch.lastSeenAt = new Date(receivedAt).toISOString();
  return patch;
}

const timers = new Map<string, ReturnType<typeof setTimeout>>();

/**
 * Marks `key` stale once a burst of pushes is over: `ms` after the last one (`trailing`), or after the first one
 * (an enrolling fleet is one list refetch, not one per device).
 */
function invalidateSoon(key: readonly unknown[], ms: number, trailing = false): void {
  const id = JSON.stringify(key);
  const pending = timers.get(id);
  if (pending !== undefined) {
    if (!trailing) return;
    clearTimeout(pending);
  }
  timers.set(
    id,
    setTimeout(() => {
      timers.delete(id);
      void queryClient.invalidateQueries({ queryKey: key });
    }, ms),
  );
}

let registered = false;

/** Lets `device.*` pushes update the cached device lists, counts and details. Called once by the app. */
export function registerDeviceLiveCache(): void {
  if (registered) return;
  registered = true;
  onLiveEvent('device.*', (live) => {
    if (live.event === 'device.presence_changed') {
      // A batch of devices that went online or offline together: one patch per device.
      for (const change of live.data.changes) applyDeviceEvent(live.event, change, live.receivedAt);
      return;
    }
    applyDeviceEvent(live.event, live.data, live.receivedAt);
  });
}

function applyDeviceEvent(event: string, data: DeviceLiveEvent, receivedAt: number): void {
  const id = data.deviceId;
  if (event === 'device.enrolled' || event === 'device.decommissioned') {
    if (event === 'device.decommissioned')
      queryClient.setQueriesData<DevicePages>({ queryKey: devicesKeys.lists }, (old) =>
        old
          ? {
              ...old,
              pages: old.pages.map((p) => ({
                ...p,
                data: p.data.filter((r) => r.id !== id),
                pagination: { ...p.pagination, total: Math.max(0, p.pagination.total - 1) },
              })),
            }
          : old,
      );
    invalidateSoon(devicesKeys.lists, 1200);
    invalidateSoon(['devices', 'counts'], 1000, true);
    return;
  }
  const presence = event === 'device.presence_changed';
  const patch = patchOf(data, receivedAt, presence);
  queryClient.setQueriesData<DevicePages>({ queryKey: devicesKeys.lists }, (old) =>
    old && old.pages.some((p) => p.data.some((r) => r.id === id))
      ? {
          ...old,
          pages: old.pages.map((p) => ({
            ...p,
            data: p.data.map((r) => (r.id === id ? { ...r, ...patch } : r)),
          })),
        }
      : old,
  );
  if (event !== 'device.updated') invalidateSoon(['devices', 'counts'], 1000, true);
  const detail = queryClient.getQueryData<DeviceDetail>(devicesKeys.detail(id));
  if (detail) {
    queryClient.setQueryData<DeviceDetail>(devicesKeys.detail(id), {
      ...detail,
      ...patch,
      ...(presence ? { connected: data.status === 'online' } : {}),
    });
    // Fields a push does not carry (metrics, posture) come with one re-read of the detail.
    invalidateSoon(devicesKeys.detail(id), 800, true);
  }
}
