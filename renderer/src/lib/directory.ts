import { useQuery } from '@tanstack/react-query';
import type {
  Organization,
  OrganizationListResponse,
  Paginated,
  Partner,
  Site,
  SiteListQuery,
} from '../../../server/contract';
import { call } from './api/endpoints';
import { errorMessage } from './errors';
import { useApiQuery, type QueryState } from './query';

// The tenancy directory every screen names things from: organizations, sites and device groups in the caller's
// scope. One typed endpoint function each and one cached query each, so the console asks GET /orgs/ once
// however many screens show organization names; writes to tenancy invalidate `['directory']`.

/** The fields of a device group (GET /groups) the screens need. */
export interface GroupRef {
  id: string;
  orgId: string;
  name: string;
}

const SITE_PAGE = 100;

export const directoryApi = {
  organizations: () => call('GET /orgs/'),
  sites: (query: SiteListQuery = {}) =>
    call('GET /orgs/sites', { query: { orgId: query.orgId, limit: query.limit, page: query.page } }),
  groups: () => call('GET /groups', { query: { limit: 500 } }),
  partners: (limit = 100) => call('GET /orgs/partners', { query: { limit } }),
  ownPartner: () => call('GET /orgs/partners/me'),
  /** Every site in scope (pages of 100, at most 2,000). */
  async allSites(): Promise<Site[]> {
    const out: Site[] = [];
    for (let page = 1; page <= 20; page += 1) {
      const res = await directoryApi.sites({ limit: SITE_PAGE, page });
      out.push(...res.data);
      if (out.length >= res.pagination.total || res.data.length === 0) break;
    }
    return out;
  },
};

export const directoryKeys = {
  all: ['directory'] as const,
  organizations: ['directory', 'organizations'] as const,
  sites: (orgId: string | null) => ['directory', 'sites', orgId ?? 'any'] as const,
  groups: ['directory', 'groups'] as const,
  everySite: ['directory', 'sites', 'every'] as const,
  partners: ['directory', 'partners'] as const,
  ownPartner: ['directory', 'partners', 'me'] as const,
};

export interface OrgsState {
  orgs: Organization[];
  loading: boolean;
  error: string | null;
}

/** Organizations in the caller's scope (GET /orgs/), ordered by name by the server. */
export function useOrganizations(): OrgsState {
  const q = useQuery({ queryKey: directoryKeys.organizations, queryFn: directoryApi.organizations });
  return {
    orgs: q.data?.data ?? [],
    loading: q.isPending,
    error: q.error ? errorMessage(q.error) : null,
  };
}

/** Sites of one organization (or of every organization in scope), up to 100; null until loaded. */
export function useSites(orgId: string | null, enabled = true) {
  return useQuery({
    queryKey: directoryKeys.sites(orgId),
    queryFn: () => directoryApi.sites({ orgId: orgId ?? undefined, limit: 100 }).then((r) => r.data),
    enabled,
  });
}

export function orgName(orgs: Organization[], id: string): string {
  return orgs.find((o) => o.id === id)?.name ?? 'Unknown organization';
}

export interface Lookups {
  orgs: Organization[];
  sites: Site[];
  groups: GroupRef[];
  loaded: boolean;
}

/**
 * Organizations, sites and device groups: names for ids in tables, and the choices of the Hierarchy fields. A
 * failure leaves a list empty (ids are then shown as they are).
 */
export function useLookups(): Lookups {
  const orgs = useQuery({
    queryKey: directoryKeys.organizations,
    queryFn: directoryApi.organizations,
  });
  const sites = useQuery({ queryKey: directoryKeys.everySite, queryFn: directoryApi.allSites });
  const groups = useQuery({ queryKey: directoryKeys.groups, queryFn: directoryApi.groups });
  return {
    orgs: orgs.data?.data ?? [],
    sites: sites.data ?? [],
    groups: groups.data?.data ?? [],
    loaded: !orgs.isPending && !sites.isPending && !groups.isPending,
  };
}

export function nameOf(
  list: Array<{ id: string; name: string }>,
  id: string | null | undefined,
): string | null {
  if (!id) return null;
  return list.find((x) => x.id === id)?.name ?? null;
}

/** GET /orgs/ as a cached read with its load state (null `when`: not needed by this caller). */
export function useOrganizationList(when = true): QueryState<OrganizationListResponse> {
  return useApiQuery(when ? directoryKeys.organizations : null, directoryApi.organizations);
}

/** The partners a system administrator sees (first 100). */
export function usePartnerList(when = true): QueryState<Paginated<Partner>> {
  return useApiQuery(when ? directoryKeys.partners : null, () => directoryApi.partners(100));
}

/** The caller's own partner (partner scope). */
export function useOwnPartner(when = true): QueryState<Partner> {
  return useApiQuery(when ? directoryKeys.ownPartner : null, directoryApi.ownPartner);
}
