import type { Request } from 'express';
import type { AppContext } from '../../context';
import type { UserAuth } from '../../http/auth-context';
import { badRequest, forbidden } from '../../http/errors';
import { requireFullPartnerAccess } from '../../http/scope';
import type { Db } from '../../db/connection';
import { auditCaller } from '../audit';

// Who may import (spec 3, Authentication): a partner administrator (organization and site write, full access to
// the partner's organizations, so matching never reveals or touches an organization the caller cannot see) with
// an MFA session; the route declares the MFA and permissions. A system-scoped caller may import contacts for a
// partner it names; the organization import has no partner field and is the partner's own.

export function importPartner(db: Db, auth: UserAuth, namedPartnerId?: string): string {
  if (auth.scope === 'system') {
    if (!namedPartnerId) throw badRequest('partnerId is required for system scope');
    return namedPartnerId;
  }
  if (auth.scope !== 'partner' || !auth.partnerId)
    throw forbidden('Partner scope required', 'PARTNER_SCOPE_REQUIRED');
  if (namedPartnerId && namedPartnerId !== auth.partnerId) throw forbidden('Access denied to this partner');
  requireFullPartnerAccess(db, auth);
  return auth.partnerId;
}

/**
 * The partner a partner administrator administers, for what belongs to that partner alone (the organization
 * import, partner provisioning keys): system scope has no partner of its own and is refused.
 */
export function administeredPartner(db: Db, auth: UserAuth): string {
  if (auth.scope === 'system') throw forbidden('Partner scope required', 'PARTNER_SCOPE_REQUIRED');
  return importPartner(db, auth);
}

/** What any import commit returned, as far as its audit entry counts it. */
interface ImportOutcome {
  imported: readonly unknown[];
  updated: readonly unknown[];
  skipped: readonly unknown[];
  errors: readonly unknown[];
}

/** The one audit entry that sums up an import commit on the partner's chain (`organization.import`, `contact.import`). */
export function auditImportSummary(
  ctx: AppContext,
  req: Request,
  auth: UserAuth,
  partnerId: string,
  action: 'organization.import' | 'contact.import',
  request: { mode: string; rows: readonly unknown[] },
  result: ImportOutcome,
): void {
  auditCaller(ctx, req, auth, {
    orgId: null,
    partnerId,
    action,
    resourceType: 'partner',
    resourceId: partnerId,
    details: {
      mode: request.mode,
      rows: request.rows.length,
      imported: result.imported.length,
      updated: result.updated.length,
      skipped: result.skipped.length,
      errors: result.errors.length,
    },
  });
}
