import type { Db } from '../../db/connection';
import {
  partnerOrganizationRows,
  sitesOfOrganizations,
  type OrganizationRow,
  type SiteRow,
} from '../tenancy';
import { organizationLinksOfPartner } from './store';

// What an organization import matches against, read once per request: the partner's organizations (soft-deleted
// ones too), their external links and their sites, indexed for lookups by link, by name and by site name.
// Names compare case-insensitively and trimmed, as a person reading the two lists would compare them.

export const nameKey = (name: string): string => name.trim().toLowerCase();
export const linkKey = (system: string, id: string): string => `${system}\u0000${id}`;

export interface OrgState {
  byId: Map<string, OrganizationRow>;
  byName: Map<string, OrganizationRow[]>;
  byLink: Map<string, string>;
  /** Per organization: its links, system to id. */
  linksOf: Map<string, Map<string, string>>;
  /** Per organization: its sites by name key. */
  sitesOf: Map<string, Map<string, SiteRow>>;
  /** Slugs of the live organizations: new slugs are chosen against this set rather than a query per row. */
  liveSlugs: Set<string>;
}

export function readOrgState(db: Db, partnerId: string): OrgState {
  const orgs = partnerOrganizationRows(db, partnerId);
  const state: OrgState = {
    byId: new Map(),
    byName: new Map(),
    byLink: new Map(),
    linksOf: new Map(),
    sitesOf: new Map(),
    liveSlugs: new Set(),
  };
  for (const org of orgs) addOrganization(state, org);
  for (const link of organizationLinksOfPartner(db, partnerId)) {
    addLink(state, link.org_id, link.external_system, link.external_id);
  }
  for (const site of sitesOfOrganizations(
    db,
    orgs.map((o) => o.id),
  ))
    addSite(state, site);
  return state;
}

export function addOrganization(state: OrgState, org: OrganizationRow): void {
  state.byId.set(org.id, org);
  const key = nameKey(org.name);
  state.byName.set(key, [...(state.byName.get(key) ?? []), org]);
  if (!org.deleted_at) state.liveSlugs.add(org.slug);
}

export function addLink(state: OrgState, orgId: string, system: string, id: string): void {
  state.byLink.set(linkKey(system, id), orgId);
  const links = state.linksOf.get(orgId) ?? new Map<string, string>();
  links.set(system, id);
  state.linksOf.set(orgId, links);
}

export function addSite(state: OrgState, site: SiteRow): void {
  const sites = state.sitesOf.get(site.org_id) ?? new Map<string, SiteRow>();
  sites.set(nameKey(site.name), site);
  state.sitesOf.set(site.org_id, sites);
}
