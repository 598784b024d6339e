import type {
  Contact,
  ContactPatch,
  NewOrganizationBody,
  NewPartnerBody,
  NewSiteBody,
  Organization,
  OrganizationPatch,
  Paginated,
  Partner,
  PartnerPatch,
  Site,
  SitePatch,
} from '../../../../server/contract';
import { call } from '../../lib/api/endpoints';
import { directoryKeys } from '../../lib/directory';
import { qs } from '../../lib/forms';
import { staleAfter, useApiQuery, type QueryState } from '../../lib/query';

// The tenancy endpoints (spec 1: partners, organizations, sites), typed by the contract. Every write marks the
// shared directory (organization, partner and site names used across the console) stale.

const write = <T>(work: Promise<T>): Promise<T> => staleAfter(work, directoryKeys.all);

export const tenantsApi = {
  createPartner: (body: NewPartnerBody) => write(call('POST /orgs/partners', { body })),
  updatePartner: (id: string, body: PartnerPatch) =>
    write(call('PATCH /orgs/partners/:id', { params: { id }, body })),
  deletePartner: (id: string) => write(call('DELETE /orgs/partners/:id', { params: { id } })),

  createOrganization: (body: NewOrganizationBody) => write(call('POST /orgs/organizations', { body })),
  updateOrganization: (id: string, body: OrganizationPatch) =>
    write(call('PATCH /orgs/organizations/:id', { params: { id }, body })),
  deleteOrganization: (id: string) => write(call('DELETE /orgs/organizations/:id', { params: { id } })),

  createSite: (body: NewSiteBody) => write(call('POST /orgs/sites', { body })),
  updateSite: (id: string, body: SitePatch) => write(call('PATCH /orgs/sites/:id', { params: { id }, body })),
  deleteSite: (id: string) => write(call('DELETE /orgs/sites/:id', { params: { id } })),

  /** PATCH: absent fields stay, an explicit null clears the field. */
  updateContact: (contactId: string, body: ContactPatch) =>
    call('PATCH /orgs/contacts/:contactId', { params: { contactId }, body }),
};

/** Reads are cached under their path (with its query), so each page and record is its own entry. */
function useRead<T>(path: string | null, read: () => Promise<T>): QueryState<T> {
  return useApiQuery<T>(path === null ? null : ['tenants', path], read);
}

export function usePartnerPage(q: { page: number; limit: number }): QueryState<Paginated<Partner>> {
  return useRead(`/orgs/partners${qs(q)}`, () => call('GET /orgs/partners', { query: q }));
}

export function usePartner(id: string | null): QueryState<Partner> {
  return useRead(id === null ? null : `/orgs/partners/${id}`, () =>
    call('GET /orgs/partners/:id', { params: { id: id ?? '' } }),
  );
}

export function useOrganization(id: string | null): QueryState<Organization> {
  return useRead(id === null ? null : `/orgs/organizations/${id}`, () =>
    call('GET /orgs/organizations/:id', { params: { id: id ?? '' } }),
  );
}

export function useSitePage(q: { orgId: string; page: number; limit: number }): QueryState<Paginated<Site>> {
  return useRead(`/orgs/sites${qs(q)}`, () => call('GET /orgs/sites', { query: q }));
}

export function useContactPage(q: {
  orgId: string;
  page: number;
  limit: number;
}): QueryState<Paginated<Contact>> {
  const { orgId: id, ...page } = q;
  return useRead(`/orgs/organizations/${id}/contacts${qs(page)}`, () =>
    call('GET /orgs/organizations/:id/contacts', { params: { id }, query: page }),
  );
}
