import type { OrgImportAnnotation, OrgImportPreviewRow } from '../../contract/imports';
import { canonicalTimeZone, type OrganizationRow } from '../tenancy';
import { linkKey, nameKey, type OrgState } from './org-state';
import type { OrgRowInput } from './schemas';

// Annotations of organization import rows (spec 3, States and transitions), derived from one snapshot of the
// partner's organizations. Preview returns them; commit derives them again from fresh state and compares. Rows
// sharing an organization name are one group: they share one annotation, except rows that conflict on their own.

/** Source system of an external id given without one (the spec's default for contacts, applied alike here). */
export const DEFAULT_EXTERNAL_SYSTEM = 'csv';

export interface OrgLink {
  system: string;
  id: string;
}

export interface OrgRowMatch {
  annotation: OrgImportAnnotation;
  matched: OrganizationRow | null;
  conflictReason: string | null;
  /** The group's external link, when one of its rows carries one. */
  link: OrgLink | null;
  /** The row's time zone in canonical spelling. */
  timezone: string | undefined;
  /** The group's key and whether any row of the group names a site (else the group gets a default site). */
  group: string;
  groupHasSites: boolean;
}

const linkOf = (row: OrgRowInput): OrgLink | null =>
  row.externalId ? { system: row.externalSystem ?? DEFAULT_EXTERNAL_SYSTEM, id: row.externalId } : null;

interface GroupMatch {
  annotation: OrgImportAnnotation;
  matched: OrganizationRow | null;
  conflictReason: string | null;
}

const conflictOf = (reason: string): GroupMatch => ({
  annotation: 'conflict',
  matched: null,
  conflictReason: reason,
});

/** A name match stands only when the organization is not already linked to a different id in the same system. */
function byName(state: OrgState, org: OrganizationRow, link: OrgLink | null): GroupMatch {
  const linked = link ? state.linksOf.get(org.id)?.get(link.system) : undefined;
  if (link && linked !== undefined && linked !== link.id)
    return conflictOf(`${org.name} is linked to ${link.system} id ${linked}, not ${link.id}`);
  return {
    annotation: org.deleted_at ? 'matched-soft-deleted' : 'name-match',
    matched: org,
    conflictReason: null,
  };
}

function matchGroup(state: OrgState, name: string, links: OrgLink[]): GroupMatch {
  if (links.length > 1) return conflictOf(`Rows of ${name} carry different external ids`);
  const link = links[0] ?? null;
  if (link) {
    const orgId = state.byLink.get(linkKey(link.system, link.id));
    const org = orgId ? state.byId.get(orgId) : undefined;
    if (org)
      return {
        annotation: org.deleted_at ? 'matched-soft-deleted' : 'link-match',
        matched: org,
        conflictReason: null,
      };
  }
  const candidates = state.byName.get(nameKey(name)) ?? [];
  const live = candidates.filter((o) => !o.deleted_at);
  const deleted = candidates.filter((o) => o.deleted_at);
  if (live.length > 1) return conflictOf(`${live.length} organizations are named ${name}`);
  if (live[0]) return byName(state, live[0], link);
  if (deleted.length > 1) return conflictOf(`${deleted.length} deleted organizations are named ${name}`);
  if (deleted[0]) return byName(state, deleted[0], link);
  return { annotation: 'create', matched: null, conflictReason: null };
}

export function matchOrgRows(state: OrgState, rows: readonly OrgRowInput[]): OrgRowMatch[] {
  // Resolving a zone builds an Intl.DateTimeFormat (about a millisecond): a file repeats a handful of zones.
  const zones = new Map<string, string | null>();
  const zoneOf = (value: string) => {
    if (!zones.has(value)) zones.set(value, canonicalTimeZone(value));
    return zones.get(value)!;
  };
  const groups = new Map<string, number[]>();
  rows.forEach((row, i) => {
    const key = nameKey(row.organization);
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  const result: OrgRowMatch[] = new Array<OrgRowMatch>(rows.length);
  for (const [group, indexes] of groups) {
    const members = indexes.map((i) => rows[i]!);
    const links = [
      ...new Map(
        members
          .map(linkOf)
          .filter((l): l is OrgLink => l !== null)
          .map((l) => [linkKey(l.system, l.id), l]),
      ).values(),
    ];
    const match = matchGroup(state, members[0]!.organization, links);
    const groupHasSites = members.some((r) => r.site !== undefined);
    const seenSites = new Set<string>();
    for (const i of indexes) {
      const row = rows[i]!;
      const timezone = row.timezone === undefined ? undefined : zoneOf(row.timezone);
      const siteKey = row.site === undefined ? null : nameKey(row.site);
      let own: string | null = null;
      if (timezone === null) own = `Unknown IANA time zone: ${row.timezone}`;
      else if (siteKey !== null && seenSites.has(siteKey)) own = `Site ${row.site} appears more than once`;
      if (siteKey !== null) seenSites.add(siteKey);
      result[i] = {
        ...(own ? conflictOf(own) : match),
        link: links[0] ?? null,
        timezone: timezone ?? undefined,
        group,
        groupHasSites,
      };
    }
  }
  return result;
}

export function toPreviewRow(row: OrgRowInput, index: number, match: OrgRowMatch): OrgImportPreviewRow {
  return {
    row: index,
    annotation: match.annotation,
    organization: row.organization,
    site: row.site ?? null,
    matchedOrganizationId: match.matched?.id ?? null,
    matchedOrganizationName: match.matched?.name ?? null,
    conflictReason: match.conflictReason,
  };
}
