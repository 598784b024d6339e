import { randomUUID } from 'node:crypto';
import type { ImportMode, OrgImportError, OrgImportErrorCode, OrgImportResult } from '../../contract/imports';
import { transaction } from '../../db/after-commit';
import type { Db } from '../../db/connection';
import {
  countOrganizations,
  insertOrganization,
  insertSite,
  partnerById,
  updateOrganizationRow,
  updateSiteRow,
  type OrganizationRow,
  type SiteRow,
} from '../tenancy';
import { matchOrgRows, type OrgRowMatch } from './org-match';
import { addLink, addOrganization, addSite, nameKey, readOrgState, type OrgState } from './org-state';
import type { OrgCommitRow } from './schemas';
import { insertOrganizationLink } from './store';

// Commit of an organization import (spec 3): one transaction that re-derives every annotation from fresh state,
// checks each row's echo (expectedAnnotation, expectedOrganizationId, reactivate, forceCreate) against it, and
// writes the rows that pass, each in its own savepoint so a row that fails to write is reported and undone alone.
// Imports never clear stored data: `update` patches only the fields a row carries.

class RowRefused extends Error {
  constructor(
    readonly code: OrgImportErrorCode,
    message: string,
  ) {
    super(message);
  }
}

type Target = { kind: 'create' } | { kind: 'existing'; org: OrganizationRow; reactivate: boolean };

/** What the row's echo allows, given the annotation derived now. */
function targetOf(row: OrgCommitRow, match: OrgRowMatch): Target {
  if (match.annotation === 'conflict')
    throw new RowRefused('row-conflict', match.conflictReason ?? 'Conflict');
  if (row.expectedAnnotation !== undefined && row.expectedAnnotation !== match.annotation)
    throw new RowRefused(
      'annotation-changed',
      `The row is now ${match.annotation}; the preview said ${row.expectedAnnotation}`,
    );
  if (row.expectedOrganizationId !== undefined && row.expectedOrganizationId !== match.matched?.id)
    throw new RowRefused(
      'match-changed',
      match.matched
        ? `The row now matches ${match.matched.name} (${match.matched.id}), not ${row.expectedOrganizationId}`
        : `The row no longer matches organization ${row.expectedOrganizationId}`,
    );
  const org = match.matched;
  if (match.annotation === 'create' || !org) return { kind: 'create' };
  if (match.annotation === 'link-match') return { kind: 'existing', org, reactivate: false };
  if (row.forceCreate) return { kind: 'create' };
  if (match.annotation === 'name-match') {
    if (row.expectedAnnotation !== 'name-match')
      throw new RowRefused(
        'match-unconfirmed',
        `Matched ${org.name} by name only: echo expectedAnnotation 'name-match' to attach, or forceCreate`,
      );
    return { kind: 'existing', org, reactivate: false };
  }
  if (!row.reactivate)
    throw new RowRefused(
      'reactivate-required',
      `Matched the deleted organization ${org.name}: send reactivate: true to restore it, or forceCreate`,
    );
  return { kind: 'existing', org, reactivate: true };
}

/** A slug from the name, made unique among the partner's live organizations with a numeric suffix. */
function freeSlug(state: OrgState, name: string): string {
  const base =
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 90) || 'organization';
  for (let n = 1; ; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    if (!state.liveSlugs.has(slug)) return slug;
  }
}

function capOf(db: Db, partnerId: string): { remaining: number | null } {
  const partner = partnerById(db, partnerId);
  if (!partner) throw new RowRefused('write-failed', 'Partner not found');
  return {
    remaining:
      partner.max_organizations === null
        ? null
        : partner.max_organizations - countOrganizations(db, partnerId),
  };
}

interface CommitInput {
  db: Db;
  partnerId: string;
  rows: readonly OrgCommitRow[];
  mode: ImportMode;
}

export interface OrgCommitOutcome extends OrgImportResult {
  /** Organizations created or restored, for the audit log. */
  created: Array<{ id: string; name: string }>;
  reactivated: Array<{ id: string; name: string }>;
}

export function commitOrgImport({ db, partnerId, rows, mode }: CommitInput): OrgCommitOutcome {
  return transaction(db, () => {
    const state = readOrgState(db, partnerId);
    const matches = matchOrgRows(state, rows);
    const out: OrgCommitOutcome = {
      imported: [],
      updated: [],
      skipped: [],
      errors: [],
      created: [],
      reactivated: [],
    };
    /** Per group: the organization this import created for it (rows after the first attach to it). */
    const createdFor = new Map<string, OrganizationRow>();
    const at = new Date().toISOString();
    rows.forEach((row, index) => {
      const match = matches[index]!;
      try {
        transaction(db, () =>
          applyRow({ db, partnerId, mode, state, createdFor, at, out }, row, index, match),
        );
      } catch (err) {
        const refused = err instanceof RowRefused;
        const error: OrgImportError = {
          row: index,
          organization: row.organization,
          code: refused ? err.code : 'write-failed',
          message: refused || err instanceof Error ? (err as Error).message : 'Write failed',
          annotation: match.annotation,
        };
        out.errors.push(error);
      }
    });
    return out;
  });
}

interface RowContext {
  /** How many more organizations the partner may have (null: no cap); read on the first create. */
  cap?: { remaining: number | null };
  db: Db;
  partnerId: string;
  mode: ImportMode;
  state: OrgState;
  createdFor: Map<string, OrganizationRow>;
  at: string;
  out: OrgCommitOutcome;
}

function applyRow(c: RowContext, row: OrgCommitRow, index: number, match: OrgRowMatch): void {
  const target = targetOf(row, match);
  let org: OrganizationRow;
  let organizationCreated = false;
  let changed = false;
  if (target.kind === 'create') {
    const earlier = c.createdFor.get(match.group);
    if (earlier) org = earlier;
    else {
      org = createOrganization(c, row.organization, match);
      organizationCreated = true;
    }
  } else {
    org = target.org;
    if (target.reactivate && org.deleted_at) {
      if (c.state.liveSlugs.has(org.slug))
        throw new RowRefused(
          'write-failed',
          `Cannot restore ${org.name}: its slug ${org.slug} is now in use`,
        );
      updateOrganizationRow(c.db, org.id, { deleted_at: null, updated_at: c.at });
      org = { ...org, deleted_at: null };
      c.state.byId.set(org.id, org);
      c.state.liveSlugs.add(org.slug);
      c.out.reactivated.push({ id: org.id, name: org.name });
      changed = true;
    }
    if (c.mode === 'update' && match.annotation === 'link-match' && org.name !== row.organization) {
      updateOrganizationRow(c.db, org.id, { name: row.organization, updated_at: c.at });
      org = { ...org, name: row.organization };
      c.state.byId.set(org.id, org);
      changed = true;
    }
    // A confirmed match learns the row's external id, so the next import of the same file is a link-match.
    if (match.link && c.state.linksOf.get(org.id)?.get(match.link.system) === undefined) {
      insertOrganizationLink(c.db, { partnerId: c.partnerId, orgId: org.id, ...linkFields(match), at: c.at });
      addLink(c.state, org.id, match.link.system, match.link.id);
      changed = true;
    }
  }
  const site = applySite(c, org, row, match);
  // Only once the row's writes all went through: a row undone by its savepoint leaves no organization behind.
  if (organizationCreated) c.createdFor.set(match.group, org);
  const result = { row: index, organizationId: org.id, organization: org.name, siteId: site.row?.id ?? null };
  const siteName = site.row?.name ?? null;
  if (target.kind === 'existing' && target.reactivate)
    c.out.updated.push({ ...result, site: siteName, reactivated: true });
  else if (organizationCreated || site.created)
    c.out.imported.push({ ...result, site: siteName, organizationCreated });
  else if (changed || site.updated) c.out.updated.push({ ...result, site: siteName, reactivated: false });
  else
    c.out.skipped.push({
      row: index,
      organization: row.organization,
      reason: c.mode === 'skip' ? 'Already exists (mode skip)' : 'Nothing to change',
    });
}

const linkFields = (match: OrgRowMatch) => ({ system: match.link!.system, externalId: match.link!.id });

function createOrganization(c: RowContext, name: string, match: OrgRowMatch): OrganizationRow {
  // The cap is read once per commit and counted down as rows create organizations (all inside the transaction,
  // so a concurrent create cannot slip under it).
  c.cap ??= capOf(c.db, c.partnerId);
  if (c.cap.remaining !== null && c.cap.remaining <= 0)
    throw new RowRefused('write-failed', 'Organization limit reached for this partner');
  const org: OrganizationRow = {
    id: randomUUID(),
    partner_id: c.partnerId,
    name,
    slug: freeSlug(c.state, name),
    type: 'customer',
    status: 'active',
    max_devices: null,
    settings: '{}',
    sso_config: '{}',
    contract_start: null,
    contract_end: null,
    billing_contact: '{}',
    created_at: c.at,
    updated_at: c.at,
    deleted_at: null,
  };
  insertOrganization(c.db, org);
  if (c.cap.remaining !== null) c.cap.remaining--;
  if (match.link)
    insertOrganizationLink(c.db, { partnerId: c.partnerId, orgId: org.id, ...linkFields(match), at: c.at });
  addOrganization(c.state, org);
  if (match.link) addLink(c.state, org.id, match.link.system, match.link.id);
  c.out.created.push({ id: org.id, name: org.name });
  return org;
}

/**
 * The row's site: the one it names, or for a group without sites a default site named after the organization
 * (only while the organization has no site at all). Created when missing; patched in `update` mode with the
 * fields the row carries.
 */
function applySite(
  c: RowContext,
  org: OrganizationRow,
  row: OrgCommitRow,
  match: OrgRowMatch,
): { row: SiteRow | null; created: boolean; updated: boolean } {
  const sites = c.state.sitesOf.get(org.id);
  const name = row.site ?? (match.groupHasSites ? null : org.name);
  if (name === null) return { row: null, created: false, updated: false };
  const existing = sites?.get(nameKey(name));
  if (!existing && row.site === undefined && sites && sites.size > 0)
    return { row: null, created: false, updated: false };
  if (existing) {
    if (c.mode !== 'update') return { row: existing, created: false, updated: false };
    const patch = {
      timezone: match.timezone,
      address: row.address ? JSON.stringify(row.address) : undefined,
      contact: row.contact ? JSON.stringify(row.contact) : undefined,
    };
    const changed = Object.values(patch).some((v) => v !== undefined);
    if (!changed) return { row: existing, created: false, updated: false };
    updateSiteRow(c.db, existing.id, { ...patch, updated_at: c.at });
    return { row: existing, created: false, updated: true };
  }
  const site: SiteRow = {
    id: randomUUID(),
    org_id: org.id,
    name,
    timezone: match.timezone ?? 'UTC',
    address: JSON.stringify(row.address ?? {}),
    contact: JSON.stringify(row.contact ?? {}),
    settings: '{}',
    created_at: c.at,
    updated_at: c.at,
  };
  insertSite(c.db, site);
  addSite(c.state, site);
  return { row: site, created: true, updated: false };
}
