import { keepPreviousData, useInfiniteQuery, useQuery, type InfiniteData } from '@tanstack/react-query';
import type {
  DeviceDetail,
  DeviceStatus,
  DeviceSummary,
  DeviceLiveEvent,
  Paginated,
} from '../../../../server/contract';
import { api } from '../../lib/api/client';
import { onLiveEvent } from '../../lib/live/socket';
import { queryClient } from '../../lib/query';
import { STATUS_LABEL } from './format';

// The device endpoints (spec 2, Devices) typed by the contract, their cached queries, and what a `device.*`
// push does to the cache: the device's row and detail are patched in place, an enrolment or a decommission
// marks the lists stale (one refetch for a burst), and nothing else is re-read.

export const PAGE_SIZE = 500;
const REFRESH_MS = 30_000;

export const devicesApi = {
  /** One page of GET /devices; `query` is the list's query string (`?q=…&status=…`, or ''). */
  list: (query: string, page: number, limit = PAGE_SIZE) =>
    api<Paginated<DeviceSummary>>(`/devices${query}${query ? '&' : '?'}page=${page}&limit=${limit}`),
  detail: (id: string) => api<DeviceDetail>(`/devices/${encodeURIComponent(id)}`),
  update: (id: string, body: { displayName: string | null; tags: string[] }) =>
    api<DeviceDetail>(`/devices/${id}`, { method: 'PATCH', body }),
  decommission: (id: string) => api<void>(`/devices/${id}`, { method: 'DELETE' }),
  command: (id: string, type: string, payload: Record<string, unknown>) =>
    api<void>(`/devices/${id}/commands`, { method: 'POST', body: { type, payload } }),
};

export const devicesKeys = {
  all: ['devices'] as const,
  lists: ['devices', 'list'] as const,
  list: (query: string) => ['devices', 'list', query] as const,
  counts: (query: string) => ['devices', 'counts', query] as const,
  detail: (id: string) => ['devices', 'detail', id] as const,
};

export interface DeviceList {
  /** The rows of the current query, or of the previous one while the new one loads. */
  rows: DeviceSummary[];
  total: number;
  /** Nothing loaded yet at all. */
  loading: boolean;
  /** Showing the previous query's rows while the current one loads. */
  switching: boolean;
  loadingMore: boolean;
  error: unknown;
  loadMore: () => void;
  reload: () => void;
}

type DevicePages = InfiniteData<Paginated<DeviceSummary>>;

function rowsOf(data: DevicePages | undefined): DeviceSummary[] {
  const seen = new Set<string>();
  const rows: DeviceSummary[] = [];
  for (const page of data?.pages ?? []) {
    for (const d of page.data) {
      if (!seen.has(d.id)) {
        seen.add(d.id);
        rows.push(d);
      }
    }
  }
  return rows;
}

/**
 * The device list: pages of 500 appended as the technician scrolls, so a fleet of thousands opens fast. A
 * refetch (every 30 s while visible: heartbeats carry no push each) keeps as many pages as were scrolled.
 */
export function useDeviceList(query: string): DeviceList {
  const q = useInfiniteQuery({
    queryKey: devicesKeys.list(query),
    queryFn: ({ pageParam }) => devicesApi.list(query, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      pages.reduce((n, p) => n + p.data.length, 0) < last.pagination.total && last.data.length > 0
        ? pages.length + 1
        : undefined,
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
  const rows = rowsOf(q.data);
  const last = q.data?.pages[q.data.pages.length - 1];
  const { fetchNextPage, hasNextPage, isFetchingNextPage, refetch } = q;
  return {
    rows,
    total: last?.pagination.total ?? rows.length,
    loading: q.data === undefined && !q.error,
    switching: q.isPlaceholderData,
    loadingMore: isFetchingNextPage,
    error: q.error,
    loadMore: () => {
      if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
    },
    reload: () => void refetch(),
  };
}

/** Totals for `statuses` under the same search and filters (`query` without a status), for the chips. */
export function useStatusCounts(query: string, statuses: string[]): Record<string, number | null> {
  const q = useQuery({
    queryKey: devicesKeys.counts(query),
    queryFn: async () => {
      const totals = await Promise.all(
        statuses.map((s) =>
          api<Paginated<DeviceSummary>>(
            `/devices${query.replace(/^\?/, `?${s ? `status=${s}&` : ''}`)}&limit=1`,
          ).then(
            (r) => r.pagination.total,
            () => null,
          ),
        ),
      );
      return Object.fromEntries(statuses.map((s, i) => [s, totals[i] ?? null]));
    },
    placeholderData: keepPreviousData,
  });
  return q.data ?? {};
}

export function useDevice(id: string) {
  return useQuery({ queryKey: devicesKeys.detail(id), queryFn: () => devicesApi.detail(id) });
}

function statusOf(value: string): DeviceStatus | undefined {
  return value in STATUS_LABEL ? (value as DeviceStatus) : undefined;
}

/** What a push says about the device's row. */
function patchOf(event: string, data: DeviceLiveEvent, receivedAt: number): Partial<DeviceSummary> {
  const patch: Partial<DeviceSummary> = { hostname: data.hostname, siteId: data.siteId };
  const status = statusOf(data.status);
  if (status) patch.status = status;
  if (event === 'device.online') {
    patch.status = 'online';
    patch.lastSeenAt = new Date(receivedAt).toISOString();
  }
  if (event === 'device.offline') patch.status = 'offline';
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
  onLiveEvent('device.*', ({ event, data, receivedAt }) => {
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
    const patch = patchOf(event, data, receivedAt);
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
        ...(event === 'device.online'
          ? { connected: true }
          : event === 'device.offline'
            ? { connected: false }
            : {}),
      });
      // Fields a push does not carry (metrics, posture) come with one re-read of the detail.
      invalidateSoon(devicesKeys.detail(id), 800, true);
    }
  });
}
