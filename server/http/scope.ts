import type { Db } from '../db/connection';
import {
  liveOrg,
  liveOrgIdsOfPartner,
  liveSite,
  orgUserLimits,
  partnerLinkOf,
} from '../modules/tenancy/access-store';
import type { AuthContext } from './auth-context';
import { forbidden, notFound } from './errors';

// The one scope resolver: which organizations a caller may see. Every scoped query and every console push asks
// it, so tenant isolation is decided in one place.

export type OrgScope = { kind: 'all' } | { kind: 'some'; orgIds: ReadonlySet<string> };

export function resolveOrgScope(db: Db, auth: AuthContext): OrgScope {
  if (auth.scope === 'system') return { kind: 'all' };
  if (auth.kind === 'api_key' || auth.scope === 'organization')
    return { kind: 'some', orgIds: new Set(auth.orgId ? [auth.orgId] : []) };
  const link = partnerLinkOf(db, auth.partnerId, auth.userId);
  if (!link || link.org_access === 'none') return { kind: 'some', orgIds: new Set() };
  const partnerOrgs = liveOrgIdsOfPartner(db, auth.partnerId);
  if (link.org_access === 'all') return { kind: 'some', orgIds: new Set(partnerOrgs) };
  const selected = new Set(JSON.parse(link.org_ids) as string[]);
  return { kind: 'some', orgIds: new Set(partnerOrgs.filter((id) => selected.has(id))) };
}

/** Platform-level entries (orgId null) are visible to system scope only. */
export function scopeCovers(scope: OrgScope, orgId: string | null): boolean {
  if (scope.kind === 'all') return true;
  return orgId !== null && scope.orgIds.has(orgId);
}

/**
 * The SQL form of a scope, for list queries: `WHERE ${clause}` with `params` bound in order. One JSON array
 * parameter keeps the statement text fixed however many organizations the caller sees.
 */
export function scopeFilter(scope: OrgScope, column: string): { clause: string; params: string[] } {
  if (scope.kind === 'all') return { clause: '1 = 1', params: [] };
  return {
    clause: `${column} IN (SELECT value FROM json_each(?))`,
    params: [JSON.stringify([...scope.orgIds])],
  };
}

/**
 * An organization the caller may act on, or the spec's refusal: partner-scoped callers get 404 for organizations
 * outside their access (so they cannot probe for them), organization-scoped callers 403.
 */
export function requireOrgAccess(
  db: Db,
  auth: AuthContext,
  orgId: string,
): { id: string; partner_id: string } {
  const org = liveOrg(db, orgId);
  const covered = org !== undefined && scopeCovers(resolveOrgScope(db, auth), org.id);
  if (covered) return org;
  if (auth.scope === 'organization') throw forbidden('Access to this organization denied');
  throw notFound('Organization not found');
}

/** A site the caller may act on: 404 when it does not exist, 403 when its organization is outside the scope. */
export function requireSiteAccess(db: Db, auth: AuthContext, siteId: string): { id: string; org_id: string } {
  const site = liveSite(db, siteId);
  if (!site) throw notFound('Site not found');
  if (!scopeCovers(resolveOrgScope(db, auth), site.org_id)) throw forbidden('Access to this site denied');
  const only = siteRestriction(db, auth);
  if (only && !only.has(site.id)) throw forbidden('Access to this site denied');
  return site;
}

/**
 * What an organization user is limited to (the association's `siteIds` and `deviceGroupIds`); null for no limit.
 * An omitted or empty list means no restriction, as the spec says of omitted restrictions. Anything else is a
 * restriction even when none of its ids still names a site or group (one was deleted): it then grants nothing,
 * never everything. Read on every request, so a narrowed association takes effect at once.
 */
export interface Restrictions {
  sites: ReadonlySet<string> | null;
  deviceGroups: ReadonlySet<string> | null;
}

const UNRESTRICTED: Restrictions = { sites: null, deviceGroups: null };

/** One stored id list (JSON text) as a restriction: null when absent or empty. */
export function parseRestriction(json: string | null): ReadonlySet<string> | null {
  const ids = json ? (JSON.parse(json) as unknown) : null; // the column is CHECKed json_valid
  if (ids === null || (Array.isArray(ids) && ids.length === 0)) return null;
  // Anything but a list of ids (never written by the API) restricts to nothing rather than opening everything.
  return new Set(Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : []);
}

export function restrictionsOf(db: Db, auth: AuthContext): Restrictions {
  if (auth.kind !== 'user' || auth.scope !== 'organization' || !auth.orgId) return UNRESTRICTED;
  const row = orgUserLimits(db, auth.orgId, auth.userId);
  if (!row) return UNRESTRICTED;
  return { sites: parseRestriction(row.site_ids), deviceGroups: parseRestriction(row.device_group_ids) };
}

/** The sites an organization user is limited to, or null for every site of the organization. */
export function siteRestriction(db: Db, auth: AuthContext): ReadonlySet<string> | null {
  return restrictionsOf(db, auth).sites;
}

/** The device groups an organization user is limited to, or null for every device of their sites. */
export function deviceGroupRestriction(db: Db, auth: AuthContext): ReadonlySet<string> | null {
  return restrictionsOf(db, auth).deviceGroups;
}

/**
 * Actions whose effect reaches a whole organization (organization-wide rules, signer groups, configuration, keys
 * that place new devices) are refused to anyone limited to part of it: 403, naming the limit that stops them.
 */
export function requireUnrestricted(db: Db, auth: AuthContext): void {
  const { sites, deviceGroups } = restrictionsOf(db, auth);
  if (sites) throw forbidden(SITE_DENIED);
  if (deviceGroups) throw forbidden(DEVICE_GROUP_DENIED);
}

export const SITE_DENIED = 'Access to this site denied';
export const DEVICE_GROUP_DENIED = 'Access limited to device groups';

/** Users, roles and reviews are administered in a partner or an organization (spec 1 errors table). */
export function requireTenantContext(auth: AuthContext): void {
  if (!auth.partnerId && !auth.orgId) throw forbidden('Partner or organization context required');
}

/**
 * A partner user administers users, roles and reviews only when their organization access covers every
 * organization of the partner; otherwise they could grant themselves what they cannot see.
 */
export function requireFullPartnerAccess(db: Db, auth: AuthContext): void {
  if (auth.scope !== 'partner' || !auth.partnerId) return;
  const scope = resolveOrgScope(db, auth);
  const all = liveOrgIdsOfPartner(db, auth.partnerId);
  const link = auth.kind === 'user' ? partnerLinkOf(db, auth.partnerId, auth.userId) : undefined;
  // `all` covers organizations created later too; `selected` must list every current one; `none` never does.
  if (link?.org_access === 'all') return;
  if (link?.org_access === 'selected' && all.length > 0 && all.every((id) => scopeCovers(scope, id))) return;
  throw forbidden('Full partner organization access required');
}
