import { z } from 'zod';
import {
  AUDIT_CATEGORIES,
  AUDIT_REPORT_DEFAULT_DAYS,
  AUDIT_REPORT_MAX_DAYS,
  AUDIT_RESULTS,
  type AuditRange,
} from '../../contract';
import type { AppContext } from '../../context';
import type { AuthContext } from '../../http/auth-context';
import { badRequest, notFound } from '../../http/errors';
import { callerHolds, PERMISSIONS } from '../../http/permissions';
import { requireFullPartnerAccess, resolveOrgScope, restrictionsOf, scopeCovers } from '../../http/scope';
import type { AuditFilters, AuditScope } from './store';

// Who reads which audit entries, and the request fields every audit route shares (spec 2 list filters plus the
// console's `result` and `category`, and `orgId`), validated once here.

/**
 * What audit a caller reads: the organizations in scope, plus, for partner administrators with full organization
 * access who may administer users, their partner's own chain (partner settings, partner users and roles); an
 * organization user limited to sites or device groups does not read entries about devices outside them
 * (audit/visibility.ts).
 */
export function auditScope(ctx: AppContext, auth: AuthContext): AuditScope {
  const orgs = resolveOrgScope(ctx.db, auth);
  let partnerId: string | null = null;
  // The partner's own chain (its users, roles, settings and sign-ins) is administration: only callers who may
  // administer the partner's users read it. A partner user limited to some organizations, or a technician, reads
  // the entries of the organizations in scope only.
  if (auth.scope === 'partner' && auth.partnerId && callerHolds(ctx.db, auth, PERMISSIONS.USERS_WRITE)) {
    try {
      requireFullPartnerAccess(ctx.db, auth);
      partnerId = auth.partnerId;
    } catch {
      // limited organization access: organizations only
    }
  }
  return { orgs, partnerId, restrictions: restrictionsOf(ctx.db, auth) };
}

/** An `orgId` filter must name an organization of the caller's scope: others do not exist for the caller. */
export function requireOrgInScope(scope: AuditScope, orgId: string | undefined): void {
  if (orgId !== undefined && !scopeCovers(scope.orgs, orgId)) throw notFound('Organization not found');
}

export const isoDate = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' });

/**
 * A text filter. SQLite reads LIKE patterns and FTS queries up to a NUL character, so a NUL would silently widen
 * the match (or break the query): refused as bad input.
 */
const filterText = (name: string, max: number) =>
  z
    .string({ error: `${name} must be a string` })
    .max(max, `${name} must be at most ${max} characters`)
    .refine((v) => !v.includes('\0'), `${name} must not contain NUL characters`);

/** Spec 2 list filters (text filters are case-insensitive substrings) and the additive ones. */
export const filterFields = {
  user: filterText('user', 255).optional(),
  action: filterText('action', 100).optional(),
  resource: filterText('resource', 255).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
  result: z.enum(AUDIT_RESULTS, { error: `result must be one of ${AUDIT_RESULTS.join(', ')}` }).optional(),
  category: z
    .enum(AUDIT_CATEGORIES, { error: `category must be one of ${AUDIT_CATEGORIES.join(', ')}` })
    .optional(),
  orgId: z.uuid('orgId must be a UUID').optional(),
};

/** Search text: required, at least one character (spec 2), bounded like the other text filters. */
export const searchText = z
  .string({ error: 'q is required' })
  .min(1, 'q must be at least 1 character')
  .pipe(filterText('q', 200));

/** The caller's scope with its filters checked (an `orgId` outside the scope is a 404). */
export function scopedFilters<F extends AuditFilters>(
  ctx: AppContext,
  auth: AuthContext,
  filters: F,
): { scope: AuditScope; filters: F } {
  const scope = auditScope(ctx, auth);
  requireOrgInScope(scope, filters.orgId);
  return { scope, filters };
}

const DAY_MS = 24 * 3600 * 1000;

/** Report range: the last 30 days unless given; `from` before `to`; at most 366 days. */
export function reportRange(
  query: { from?: string | undefined; to?: string | undefined },
  now = new Date(),
): AuditRange {
  const to = query.to ? new Date(query.to) : now;
  const from = query.from
    ? new Date(query.from)
    : new Date(to.getTime() - AUDIT_REPORT_DEFAULT_DAYS * DAY_MS);
  if (from.getTime() >= to.getTime()) throw badRequest('from must be before to', 'VALIDATION_ERROR');
  if (to.getTime() - from.getTime() > AUDIT_REPORT_MAX_DAYS * DAY_MS)
    throw badRequest(`The range may span at most ${AUDIT_REPORT_MAX_DAYS} days`, 'VALIDATION_ERROR');
  return { from: from.toISOString(), to: to.toISOString() };
}
