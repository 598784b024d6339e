import type { AppContext } from '../../../context';
import type { AuthContext } from '../../../http/auth-context';
import { badRequest, forbidden, notFound } from '../../../http/errors';
import {
  DEVICE_GROUP_DENIED,
  requireOrgAccess,
  requireSiteAccess,
  requireUnrestricted,
  resolveOrgScope,
  restrictionsOf,
  scopeCovers,
  SITE_DENIED,
} from '../../../http/scope';
import { policyStore, type PamRuleRow, type SignerGroupRow } from './store';

// Who may read and write PAM policy where. Rules, signer groups and configuration belong to one organization:
// organization callers work in their own, partner and system callers name it (`orgId`), as for saved filters
// and webhooks. Site-restricted technicians (organization users with site ids) see organization-wide rules and
// the rules of their sites; they may write only rules of their sites. Organization-wide rules, signer groups and
// the organization configuration reach sites outside theirs, so writing them is 403 `Access to this site denied`.
// Device-group-restricted technicians read rules like their site restriction allows, and write none: every rule
// (of a site or of the organization) reaches devices outside their groups.

export const RULE_NOT_FOUND = 'PAM rule not found';
export const SIGNER_GROUP_NOT_FOUND = 'Signer group not found';

export function targetOrg(ctx: Pick<AppContext, 'db'>, auth: AuthContext, orgId: string | undefined): string {
  if (auth.scope === 'organization') {
    if (!auth.orgId) throw forbidden('Organization context required');
    // Naming another organization is refused rather than silently ignored.
    if (orgId !== undefined && orgId !== auth.orgId) requireOrgAccess(ctx.db, auth, orgId);
    return auth.orgId;
  }
  if (!orgId) throw badRequest(`orgId is required for ${auth.scope} scope`, 'VALIDATION_ERROR');
  return requireOrgAccess(ctx.db, auth, orgId).id;
}

/** Writes that reach every site of the organization (org-wide rules, signer groups, configuration). */
export function requireWholeOrgWrite(ctx: Pick<AppContext, 'db'>, auth: AuthContext): void {
  requireUnrestricted(ctx.db, auth);
}

/** The site a rule is written for: null (organization-wide) or a site of the rule's organization. */
export function requireRuleSite(
  ctx: Pick<AppContext, 'db'>,
  auth: AuthContext,
  orgId: string,
  siteId: string | null,
): void {
  if (siteId === null) {
    requireWholeOrgWrite(ctx, auth);
    return;
  }
  const site = requireSiteAccess(ctx.db, auth, siteId);
  if (restrictionsOf(ctx.db, auth).deviceGroups) throw forbidden(DEVICE_GROUP_DENIED);
  if (site.org_id !== orgId)
    throw badRequest("siteId: must be a site of the rule's organization", 'VALIDATION_ERROR');
}

/**
 * A rule the caller may see (404 otherwise). For writes, a site-restricted caller also needs the rule's site: a
 * rule of another site or an organization-wide rule is 403; a group-restricted caller writes no rule (403).
 */
export function ruleInScope(
  ctx: Pick<AppContext, 'db'>,
  auth: AuthContext,
  id: string,
  mode: 'read' | 'write',
): PamRuleRow {
  const row = policyStore(ctx.db).ruleById(id);
  if (!row || !scopeCovers(resolveOrgScope(ctx.db, auth), row.org_id)) throw notFound(RULE_NOT_FOUND);
  const { sites, deviceGroups } = restrictionsOf(ctx.db, auth);
  const ownSite = sites === null || (row.site_id !== null && sites.has(row.site_id));
  if (mode === 'read' && row.site_id !== null && !ownSite) throw notFound(RULE_NOT_FOUND);
  if (mode === 'write' && !ownSite) throw forbidden(SITE_DENIED);
  if (mode === 'write' && deviceGroups) throw forbidden(DEVICE_GROUP_DENIED);
  return row;
}

export function signerGroupInScope(
  ctx: Pick<AppContext, 'db'>,
  auth: AuthContext,
  id: string,
): SignerGroupRow {
  const row = policyStore(ctx.db).groupById(id);
  if (!row || !scopeCovers(resolveOrgScope(ctx.db, auth), row.org_id)) throw notFound(SIGNER_GROUP_NOT_FOUND);
  return row;
}

/** Who created_by and reapprovedByUserId name: the user, or the API key acting for the organization. */
export const callerId = (auth: AuthContext): string => (auth.kind === 'user' ? auth.userId : auth.apiKeyId);
