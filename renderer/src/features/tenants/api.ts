import type { Contact, Organization, Paginated, Partner, Site } from '../../../../server/contract';
import { api } from '../../lib/api/client';
import { directoryKeys } from '../../lib/directory';
import { qs } from '../../lib/forms';
import { apiKey, queryClient, useApiQuery, type QueryState } from '../../lib/query';

// The tenancy endpoints (spec 1: partners, organizations, sites), typed by the contract. Every write marks the
// shared directory (organization, partner and site names used across the console) stale.

type Body = Record<string, unknown>;

async function write<T>(work: Promise<T>): Promise<T> {
  const result = await work;
  void queryClient.invalidateQueries({ queryKey: directoryKeys.all });
  return result;
}

export const tenantsApi = {
  partners: (q: { page: number; limit: number }) => `/orgs/partners${qs(q)}`,
  createPartner: (body: Body) => write(api<Partner>('/orgs/partners', { method: 'POST', body })),
  updatePartner: (id: string, body: Body) =>
    write(api<Partner>(`/orgs/partners/${id}`, { method: 'PATCH', body })),
  deletePartner: (id: string) => write(api<void>(`/orgs/partners/${id}`, { method: 'DELETE' })),

  createOrganization: (body: Body) =>
    write(api<Organization>('/orgs/organizations', { method: 'POST', body })),
  updateOrganization: (id: string, body: Body) =>
    write(api<Organization>(`/orgs/organizations/${id}`, { method: 'PATCH', body })),
  deleteOrganization: (id: string) => write(api<void>(`/orgs/organizations/${id}`, { method: 'DELETE' })),

  createSite: (body: Body) => write(api<Site>('/orgs/sites', { method: 'POST', body })),
  updateSite: (id: string, body: Body) => write(api<Site>(`/orgs/sites/${id}`, { method: 'PATCH', body })),
  deleteSite: (id: string) => write(api<void>(`/orgs/sites/${id}`, { method: 'DELETE' })),

  /** PATCH: absent fields stay, an explicit null clears the field. */
  updateContact: (id: string, body: Body) => api<Contact>(`/orgs/contacts/${id}`, { method: 'PATCH', body }),
};

function useGet<T>(path: string | null): QueryState<T> {
  return useApiQuery<T>(path === null ? null : apiKey(path), () => api<T>(path ?? ''));
}

export function usePartnerPage(q: { page: number; limit: number }): QueryState<Paginated<Partner>> {
  return useGet(tenantsApi.partners(q));
}

export function usePartner(id: string | null): QueryState<Partner> {
  return useGet(id === null ? null : `/orgs/partners/${id}`);
}

export function useOrganization(id: string | null): QueryState<Organization> {
  return useGet(id === null ? null : `/orgs/organizations/${id}`);
}

export function useSitePage(q: { orgId: string; page: number; limit: number }): QueryState<Paginated<Site>> {
  return useGet(`/orgs/sites${qs(q)}`);
}

export function useContactPage(q: {
  orgId: string;
  page: number;
  limit: number;
}): QueryState<Paginated<Contact>> {
  return useGet(`/orgs/organizations/${q.orgId}/contacts${qs({ page: q.page, limit: q.limit })}`);
}
