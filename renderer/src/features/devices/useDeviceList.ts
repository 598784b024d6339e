import { useCallback, useEffect, useRef, useState } from 'react';
import type { DeviceStatus, DeviceSummary, Paginated } from '../../../../server/contract';
import { api } from '../../lib/api/client';
import { useLive } from '../../lib/live/socket';

// The device list: pages of 500 from GET /devices (the spec's default page) appended as the technician scrolls,
// so a fleet of thousands opens fast and scrolls without paging buttons. Live device events patch rows in place;
// enrolments and decommissions refetch what is loaded (debounced, so an enrolling fleet is one refetch).

export const PAGE_SIZE = 500;
const REFRESH_MS = 30_000;

export interface ListState {
  query: string;
  rows: DeviceSummary[];
  total: number;
  pages: number;
  error: unknown;
}

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

async function fetchPages(query: string, pages: number): Promise<{ rows: DeviceSummary[]; total: number }> {
  const sep = query ? '&' : '?';
  const results = await Promise.all(
    Array.from({ length: Math.max(1, pages) }, (_, i) =>
      api<Paginated<DeviceSummary>>(`/devices${query}${sep}page=${i + 1}&limit=${PAGE_SIZE}`),
    ),
  );
  const seen = new Set<string>();
  const rows: DeviceSummary[] = [];
  for (const r of results) {
    for (const d of r.data) {
      if (!seen.has(d.id)) {
        seen.add(d.id);
        rows.push(d);
      }
    }
  }
  return { rows, total: results[results.length - 1]?.pagination.total ?? rows.length };
}

/** Fields a live `device.*` event may carry that the list shows. */
const PATCHABLE: Array<keyof DeviceSummary> = [
  'hostname',
  'displayName',
  'status',
  'health',
  'osType',
  'osVersion',
  'agentVersion',
  'lastUser',
  'lastSeenAt',
  'metrics',
  'tags',
  'siteId',
  'deviceRole',
];

function patchFrom(event: string, data: Record<string, unknown>, receivedAt: number): Partial<DeviceSummary> {
  const patch: Partial<DeviceSummary> = {};
  for (const key of PATCHABLE) {
    if (key in data && data[key] !== undefined) (patch as Record<string, unknown>)[key] = data[key];
  }
  if (event === 'device.online') {
    patch.status = 'online';
    if (!patch.lastSeenAt) patch.lastSeenAt = new Date(receivedAt).toISOString();
  }
  if (event === 'device.offline') patch.status = 'offline' as DeviceStatus;
  return patch;
}

export function deviceIdOf(data: unknown): string | null {
  if (!data || typeof data !== 'object') return null;
  const d = data as Record<string, unknown>;
  const id = d.deviceId ?? d.id;
  return typeof id === 'string' ? id : null;
}

/**
 * Calls `onEvent` for every console-socket `device.*` event that arrives from now on. The socket buffer holds
 * the latest 50 events; we follow its sequence numbers so nothing is handled twice.
 */
export function useDeviceEvents(
  onEvent: (event: string, data: Record<string, unknown>, receivedAt: number) => void,
) {
  const handler = useRef(onEvent);
  useEffect(() => {
    handler.current = onEvent;
  });
  useEffect(() => {
    let last = useLive.getState().events[0]?.seq ?? 0;
    return useLive.subscribe((state) => {
      const fresh = state.events.filter((e) => e.seq > last);
      if (fresh.length === 0) return;
      last = fresh[0]?.seq ?? last;
      for (const e of fresh.reverse()) {
        if (e.event.startsWith('device.') && e.data && typeof e.data === 'object')
          handler.current(e.event, e.data as Record<string, unknown>, e.receivedAt);
      }
    });
  }, []);
}

export function useDeviceList(query: string): DeviceList {
  const [state, setState] = useState<ListState | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [tick, setTick] = useState(0);
  const busy = useRef(false);
  const refetchTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const pagesRef = useRef(1);
  const loadedQuery = useRef<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    // A refetch of the same list keeps as many pages as the technician has scrolled through.
    const pages = loadedQuery.current === query ? pagesRef.current : 1;
    fetchPages(query, pages).then(
      ({ rows, total }) => {
        if (cancelled) return;
        pagesRef.current = pages;
        loadedQuery.current = query;
        setState({ query, rows, total, pages, error: null });
      },
      (error: unknown) => {
        if (cancelled) return;
        setState((prev) =>
          prev && prev.query === query ? { ...prev, error } : { query, rows: [], total: 0, pages: 1, error },
        );
      },
    );
    return () => {
      cancelled = true;
    };
  }, [query, tick]);

  const current = state !== null && state.query === query ? state : null;

  const loadMore = useCallback(() => {
    if (!current || busy.current || current.rows.length >= current.total) return;
    busy.current = true;
    setLoadingMore(true);
    const page = current.pages + 1;
    const sep = query ? '&' : '?';
    api<Paginated<DeviceSummary>>(`/devices${query}${sep}page=${page}&limit=${PAGE_SIZE}`)
      .then((res) => {
        setState((prev) => {
          if (!prev || prev.query !== query) return prev;
          const have = new Set(prev.rows.map((r) => r.id));
          pagesRef.current = page;
          return {
            ...prev,
            rows: [...prev.rows, ...res.data.filter((d) => !have.has(d.id))],
            total: res.pagination.total,
            pages: page,
          };
        });
      })
      .catch((error: unknown) => setState((prev) => (prev ? { ...prev, error } : prev)))
      .finally(() => {
        busy.current = false;
        setLoadingMore(false);
      });
  }, [current, query]);

  const reload = useCallback(() => setTick((t) => t + 1), []);

  useDeviceEvents((event, data, receivedAt) => {
    if (event === 'device.enrolled' || event === 'device.decommissioned') {
      if (event === 'device.decommissioned') {
        const id = deviceIdOf(data);
        if (id)
          setState((prev) =>
            prev
              ? { ...prev, rows: prev.rows.filter((r) => r.id !== id), total: Math.max(0, prev.total - 1) }
              : prev,
          );
      }
      if (refetchTimer.current === undefined)
        refetchTimer.current = setTimeout(() => {
          refetchTimer.current = undefined;
          setTick((t) => t + 1);
        }, 1200);
      return;
    }
    const id = deviceIdOf(data);
    if (!id) return;
    const patch = patchFrom(event, data, receivedAt);
    setState((prev) => {
      if (!prev || !prev.rows.some((r) => r.id === id)) return prev;
      return { ...prev, rows: prev.rows.map((r) => (r.id === id ? { ...r, ...patch } : r)) };
    });
  });

  useEffect(() => () => clearTimeout(refetchTimer.current), []);

  // Heartbeats update metrics and "last seen" without a console event each: refresh what is loaded now and then.
  useEffect(() => {
    const id = setInterval(() => {
      if (document.visibilityState === 'visible') setTick((t) => t + 1);
    }, REFRESH_MS);
    return () => clearInterval(id);
  }, []);

  return {
    rows: state?.rows ?? [],
    total: state?.total ?? 0,
    loading: state === null,
    switching: state !== null && current === null,
    loadingMore,
    error: current?.error ?? null,
    loadMore,
    reload,
  };
}
