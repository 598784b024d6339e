import { statement, type Db } from '../../db/connection';

// The reads password sign-in and the sign-in page make of single sign-on (rules 13 and 14). Kept apart from the
// rest of the module so the auth and passwords modules can ask them without importing the sign-in flow.

/**
 * Whether an active provider with enforceSSO governs the user: a provider of an organization they belong to, or
 * a partner provider of the partner whose technician they are.
 */
export function enforcedFor(db: Db, userId: string): boolean {
  return (
    statement(
      db,
      `SELECT 1 FROM sso_providers p
        WHERE p.status = 'active' AND p.enforce_sso = 1 AND (
          (p.owner_scope = 'organization' AND p.org_id IN (SELECT org_id FROM organization_users WHERE user_id = ?))
          OR (p.owner_scope = 'partner' AND p.partner_id IN (SELECT partner_id FROM partner_users WHERE user_id = ?)))
        LIMIT 1`,
    ).get(userId, userId) !== undefined
  );
}

/** The live organizations that proved ownership of an email domain by DNS. */
export function organizationsWithVerifiedDomain(db: Db, domain: string): string[] {
  return (
    statement(
      db,
      `SELECT DISTINCT d.org_id FROM sso_domains d JOIN organizations o ON o.id = d.org_id
        WHERE d.domain = ? AND d.verified_at IS NOT NULL AND o.deleted_at IS NULL`,
    ).all(domain) as Array<{ org_id: string }>
  ).map((r) => r.org_id);
}

/** Whether the organization proved ownership of the domain (rule 12: first sign-in without email_verified). */
export function domainVerifiedFor(db: Db, orgId: string, domain: string): boolean {
  return (
    statement(
      db,
      'SELECT 1 FROM sso_domains WHERE org_id = ? AND domain = ? AND verified_at IS NOT NULL',
    ).get(orgId, domain) !== undefined
  );
}
