import type { DeviceFilterQuery, FilterConditionGroup } from '../../../../server/contract';
import { navigate } from '../../lib/router';
import { SORT_LABELS, type SortKey } from './DeviceTable';

// The device list's state as it lives in the URL (search, status, organization, sort, a saved filter or ad-hoc
// conditions), so reloads and shared links show the same list; and the GET /devices query it makes.

export interface UrlState {
  q: string;
  status: string;
  orgId: string;
  sort: SortKey;
  order: 'asc' | 'desc';
  filterId: string;
  conditions: string;
}

export function readUrl(search: string): UrlState {
  const p = new URLSearchParams(search);
  const sort = p.get('sort') as SortKey | null;
  return {
    q: p.get('q') ?? '',
    status: p.get('status') ?? '',
    orgId: p.get('orgId') ?? '',
    sort: sort && sort in SORT_LABELS ? sort : 'hostname',
    order: p.get('order') === 'desc' ? 'desc' : 'asc',
    filterId: p.get('filterId') ?? '',
    conditions: p.get('conditions') ?? '',
  };
}

export function writeUrl(next: UrlState): void {
  const p = new URLSearchParams();
  if (next.q) p.set('q', next.q);
  if (next.status) p.set('status', next.status);
  if (next.orgId) p.set('orgId', next.orgId);
  if (next.sort !== 'hostname') p.set('sort', next.sort);
  if (next.order !== 'asc') p.set('order', next.order);
  if (next.filterId) p.set('filterId', next.filterId);
  if (next.conditions) p.set('conditions', next.conditions);
  const text = p.toString();
  navigate(text ? `/devices?${text}` : '/devices', { replace: true });
}

export function parseConditions(raw: string): FilterConditionGroup | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as FilterConditionGroup;
    return value && Array.isArray(value.conditions) ? value : null;
  } catch {
    return null;
  }
}

/** The list query without paging: what GET /devices filters and sorts by (empty filters are left out). */
export function listQuery(u: UrlState, overrides: Partial<Record<'status', string>> = {}): DeviceFilterQuery {
  const status = overrides.status ?? u.status;
  return {
    search: u.q.trim() || undefined,
    status: status || undefined,
    orgId: u.orgId || undefined,
    filterId: u.filterId || undefined,
    conditions: u.conditions && parseConditions(u.conditions) ? u.conditions : undefined,
    sort: u.sort,
    order: u.order,
  };
}
