import type {
  ContactImportAnnotation,
  ContactImportErrorCode,
  ContactImportPreviewRow,
} from '../../contract/imports';
import { CONTACT_ROLES, type ContactRole } from '../../contract/contacts';
import type { Db } from '../../db/connection';
import { contactLinksOfOrgs, contactsOfOrgs, type ContactRow } from '../contacts';
import {
  partnerOrganizationRows,
  sitesOfOrganizations,
  type OrganizationRow,
  type SiteRow,
} from '../tenancy';
import { nameKey } from './org-state';
import { DEFAULT_EXTERNAL_SYSTEM } from './org-match';
import type { ContactCommitRow } from './schemas';

// Annotations of contact import rows (spec 3, States and transitions), from one snapshot of the partner's live
// organizations, their sites, contacts and contact links. An external link is the stable match and its own
// acknowledgement; an email or name match is only a hint that commit applies when the caller echoes both the
// annotation and the contact id. A hint that matches several contacts is a conflict, unless the row has its own
// externalId: then it resolves to `create` with a non-fatal warning.

export interface RowProblem {
  code: ContactImportErrorCode;
  message: string;
}

export interface ContactRowMatch {
  annotation: ContactImportAnnotation;
  warning: string | null;
  org: OrganizationRow | null;
  site: SiteRow | null;
  matched: ContactRow | null;
  /** Why the row cannot be committed (conflict and org-not-found rows), with the commit's error code. */
  problem: RowProblem | null;
  roles: ContactRole[];
  link: { system: string; id: string } | null;
}

interface ContactState {
  orgById: Map<string, OrganizationRow>;
  orgsByName: Map<string, OrganizationRow[]>;
  sitesByOrg: Map<string, Map<string, SiteRow>>;
  contactsByOrg: Map<string, ContactRow[]>;
  contactByLink: Map<string, ContactRow>;
}

const linkKey = (orgId: string, system: string, id: string) => `${orgId}\u0000${system}\u0000${id}`;
const emailKey = (email: string) => email.trim().toLowerCase();
/** Names compare without case and with runs of spaces as one. */
const personKey = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

function readContactState(db: Db, partnerId: string): ContactState {
  const orgs = partnerOrganizationRows(db, partnerId).filter((o) => !o.deleted_at);
  const ids = orgs.map((o) => o.id);
  const state: ContactState = {
    orgById: new Map(orgs.map((o) => [o.id, o])),
    orgsByName: new Map(),
    sitesByOrg: new Map(),
    contactsByOrg: new Map(),
    contactByLink: new Map(),
  };
  for (const org of orgs)
    state.orgsByName.set(nameKey(org.name), [...(state.orgsByName.get(nameKey(org.name)) ?? []), org]);
  for (const site of sitesOfOrganizations(db, ids)) {
    const sites = state.sitesByOrg.get(site.org_id) ?? new Map<string, SiteRow>();
    sites.set(nameKey(site.name), site);
    state.sitesByOrg.set(site.org_id, sites);
  }
  const contacts = contactsOfOrgs(db, ids);
  const byId = new Map(contacts.map((c) => [c.id, c]));
  for (const c of contacts)
    state.contactsByOrg.set(c.org_id, [...(state.contactsByOrg.get(c.org_id) ?? []), c]);
  for (const l of contactLinksOfOrgs(db, ids)) {
    const contact = byId.get(l.contact_id);
    if (contact) state.contactByLink.set(linkKey(l.org_id, l.external_system, l.external_id), contact);
  }
  return state;
}

const blank = (
  org: OrganizationRow | null,
  annotation: ContactImportAnnotation,
  problem: RowProblem | null,
) => ({
  annotation,
  warning: null,
  org,
  site: null,
  matched: null,
  problem,
  roles: [],
  link: null,
});

function resolveOrg(state: ContactState, row: ContactCommitRow): ContactRowMatch | OrganizationRow {
  if (row.organizationId) {
    // Another partner's organization is answered exactly like a missing one.
    const org = state.orgById.get(row.organizationId);
    return (
      org ??
      blank(null, 'org-not-found', {
        code: 'org-not-found',
        message: `Organization ${row.organizationId} not found`,
      })
    );
  }
  const named = state.orgsByName.get(nameKey(row.organization!)) ?? [];
  if (named.length > 1)
    return blank(null, 'conflict', {
      code: 'row-conflict',
      message: `${named.length} organizations are named ${row.organization}`,
    });
  return (
    named[0] ??
    blank(null, 'org-not-found', {
      code: 'org-not-found',
      message: `Organization ${row.organization} not found`,
    })
  );
}

function matchRow(state: ContactState, row: ContactCommitRow): ContactRowMatch {
  const resolved = resolveOrg(state, row);
  if (!('partner_id' in resolved)) return resolved;
  const org = resolved;
  const unknown = (row.roles ?? []).filter((r) => !(CONTACT_ROLES as readonly string[]).includes(r));
  if (unknown.length > 0)
    return blank(org, 'conflict', {
      code: 'invalid-role',
      message: `Unknown role: ${unknown.join(', ')} (roles are ${CONTACT_ROLES.join(', ')})`,
    });
  const roles = [...new Set(row.roles ?? [])] as ContactRole[];
  let site: SiteRow | null = null;
  if (row.site) {
    site = state.sitesByOrg.get(org.id)?.get(nameKey(row.site)) ?? null;
    if (!site)
      return blank(org, 'conflict', {
        code: 'site-not-in-org',
        message: `${row.site} is not a site of ${org.name}`,
      });
  }
  const link = row.externalId
    ? { system: row.externalSystem ?? DEFAULT_EXTERNAL_SYSTEM, id: row.externalId }
    : null;
  const base = { warning: null, org, site, roles, link, problem: null };
  const linked = link ? state.contactByLink.get(linkKey(org.id, link.system, link.id)) : undefined;
  if (linked) return { ...base, annotation: 'link-match', matched: linked };
  const contacts = state.contactsByOrg.get(org.id) ?? [];
  const hints: Array<[ContactImportAnnotation, string, ContactRow[]]> = [];
  if (row.email)
    hints.push([
      'email-match',
      'email',
      contacts.filter((c) => c.email && emailKey(c.email) === emailKey(row.email!)),
    ]);
  if (row.name)
    hints.push([
      'name-match',
      'name',
      contacts.filter((c) => c.name && personKey(c.name) === personKey(row.name!)),
    ]);
  for (const [annotation, what, found] of hints) {
    if (found.length === 1) return { ...base, annotation, matched: found[0]! };
    if (found.length > 1) {
      const message = `The ${what} matches ${found.length} contacts of ${org.name}`;
      if (link)
        return {
          ...base,
          annotation: 'create',
          matched: null,
          warning: `${message}; created as new on its own externalId`,
        };
      return { ...blank(org, 'conflict', { code: 'row-conflict', message }), site };
    }
  }
  return { ...base, annotation: 'create', matched: null };
}

/** Matches every row; a row repeating an earlier row's email or external id in the same organization conflicts. */
export function matchContactRows(
  db: Db,
  partnerId: string,
  rows: readonly ContactCommitRow[],
): ContactRowMatch[] {
  const state = readContactState(db, partnerId);
  const seen = new Map<string, number>();
  return rows.map((row, i) => {
    const match = matchRow(state, row);
    if (!match.org || match.problem) return match;
    const keys = [
      row.email ? `e\u0000${match.org.id}\u0000${emailKey(row.email)}` : null,
      match.link ? `l\u0000${linkKey(match.org.id, match.link.system, match.link.id)}` : null,
    ].filter((k): k is string => k !== null);
    const earlier = keys.map((k) => seen.get(k)).find((n) => n !== undefined);
    for (const k of keys) if (!seen.has(k)) seen.set(k, i);
    if (earlier === undefined) return match;
    return {
      ...match,
      annotation: 'conflict',
      matched: null,
      problem: { code: 'row-conflict', message: `Same contact as row ${earlier}` },
    };
  });
}

export function toContactPreviewRow(index: number, match: ContactRowMatch): ContactImportPreviewRow {
  return {
    row: index,
    annotation: match.annotation,
    warning: match.warning,
    organizationId: match.org?.id ?? null,
    organizationName: match.org?.name ?? null,
    matchedContactId: match.matched?.id ?? null,
    matchedContactEmail: match.matched?.email ?? null,
    conflictReason: match.problem?.message ?? null,
  };
}
