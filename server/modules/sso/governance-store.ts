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

/**
 * Active accounts with a password that a provider of this owner would govern: the organization's users, or the
 * partner's own technicians. At most `limit`, by email, with the total.
 */
export function passwordUsersOf(
  db: Db,
  owner: { orgId: string } | { partnerId: string },
  limit: number,
): { total: number; users: Array<{ id: string; email: string; name: string }> } {
  const [table, column, id] =
    'orgId' in owner
      ? (['organization_users', 'org_id', owner.orgId] as const)
      : (['partner_users', 'partner_id', owner.partnerId] as const);
  // Table and column come from the two literals above, never from request data.
  const from = `FROM ${table} m JOIN users u ON u.id = m.user_id
    WHERE m.${column} = ? AND u.status = 'active' AND u.password_hash IS NOT NULL`;
  const { n } = statement(db, `SELECT COUNT(*) AS n ${from}`).get(id) as { n: number };
  const users = statement(db, `SELECT u.id, u.email, u.name ${from} ORDER BY u.email LIMIT ?`).all(
    id,
    limit,
  ) as Array<{
    id: string;
    email: string;
    name: string;
  }>;
  return { total: n, users };
}

/**
 * The partner a sign-in page names (rule 15): by slug, case-insensitively; without a slug, the only live partner
 * of a single-partner deployment. Only an active, undeleted partner counts.
 */
export function signInPartner(db: Db, slug: string | null): { id: string } | undefined {
  if (slug !== null)
    return statement(
      db,
      `SELECT id FROM partners WHERE lower(slug) = lower(?) AND status = 'active' AND deleted_at IS NULL`,
    ).get(slug) as { id: string } | undefined;
  const live = statement(
    db,
    'SELECT id, status FROM partners WHERE deleted_at IS NULL LIMIT 2',
  ).all() as Array<{
    id: string;
    status: string;
  }>;
  return live.length === 1 && live[0]?.status === 'active' ? { id: live[0].id } : undefined;
}
