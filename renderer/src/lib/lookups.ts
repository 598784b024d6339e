import { useEffect, useState } from 'react';
import type { Organization, OrganizationListResponse, Paginated, Site } from '../../../server/contract';
import { api } from './api/client';

// Organizations, sites and device groups in the caller's scope: names for ids in tables, and the choices of the Hierarchy
// fields. Loaded once per page; a failure leaves the lists empty (ids are then shown as they are).

/** The fields of a device group (GET /groups) the builder needs. */
export interface GroupRef {
  id: string;
  orgId: string;
  name: string;
}

export interface Lookups {
  orgs: Organization[];
  sites: Site[];
  groups: GroupRef[];
  loaded: boolean;
}

const SITE_PAGE = 100;

async function allSites(): Promise<Site[]> {
  const out: Site[] = [];
  for (let page = 1; page <= 20; page += 1) {
    const res = await api<Paginated<Site>>(`/orgs/sites?limit=${SITE_PAGE}&page=${page}`);
    out.push(...res.data);
    if (out.length >= res.pagination.total || res.data.length === 0) break;
  }
  return out;
}

export function useLookups(): Lookups {
  const [state, setState] = useState<Lookups>({ orgs: [], sites: [], groups: [], loaded: false });
  useEffect(() => {
    let cancelled = false;
    Promise.all([
      api<OrganizationListResponse>('/orgs/').then(
        (r) => r.data,
        () => [] as Organization[],
      ),
      allSites().catch(() => [] as Site[]),
      api<Paginated<GroupRef>>('/groups?limit=500').then(
        (r) => r.data,
        () => [] as GroupRef[],
      ),
    ]).then(
      ([orgs, sites, groups]) => {
        if (!cancelled) setState({ orgs, sites, groups, loaded: true });
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, []);
  return state;
}

export function nameOf(
  list: Array<{ id: string; name: string }>,
  id: string | null | undefined,
): string | null {
  if (!id) return null;
  return list.find((x) => x.id === id)?.name ?? null;
}
