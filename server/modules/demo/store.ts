import { statement, type Db } from '../../db/connection';

// The SQL of the demo tenant (seed.ts creates it, simulator.ts runs agents in it): lookups by slug, the rows the
// seed writes beside the tenancy store's (a custom role, people and their links), and the enrollment keys both
// replace by name.

export function partnerBySlug(db: Db, slug: string): { id: string; deleted_at: string | null } | undefined {
  return statement(db, 'SELECT id, deleted_at FROM partners WHERE slug = ?').get(slug) as
    { id: string; deleted_at: string | null } | undefined;
}

/** The id of a live organization of a live partner, both named by slug. */
export function liveOrgIdBySlugs(db: Db, partnerSlug: string, orgSlug: string): string | null {
  const row = statement(
    db,
    `SELECT o.id FROM organizations o JOIN partners p ON p.id = o.partner_id
     WHERE p.slug = ? AND p.deleted_at IS NULL AND o.slug = ? AND o.deleted_at IS NULL`,
  ).get(partnerSlug, orgSlug) as { id: string } | undefined;
  return row?.id ?? null;
}

/** Whether the organization is live and belongs to the live partner named by slug. */
export function orgBelongsToPartnerSlug(db: Db, orgId: string, partnerSlug: string): boolean {
  return Boolean(
    statement(
      db,
      `SELECT 1 FROM organizations o JOIN partners p ON p.id = o.partner_id
       WHERE o.id = ? AND o.deleted_at IS NULL AND p.slug = ? AND p.deleted_at IS NULL`,
    ).get(orgId, partnerSlug),
  );
}

/** The partner's organization with this slug, deleted or not. */
export function orgIdOfPartner(db: Db, partnerId: string, orgSlug: string): string | undefined {
  const row = statement(db, 'SELECT id FROM organizations WHERE partner_id = ? AND slug = ?').get(
    partnerId,
    orgSlug,
  ) as { id: string } | undefined;
  return row?.id;
}

/** Whether the install has a platform administrator (the demo creates one when it has none). */
export function platformAdminExists(db: Db): boolean {
  return Boolean(statement(db, 'SELECT 1 FROM platform_admins LIMIT 1').get());
}

export function organizationName(db: Db, orgId: string): string | null {
  const row = statement(db, 'SELECT name FROM organizations WHERE id = ?').get(orgId) as
    { name: string } | undefined;
  return row?.name ?? null;
}

export function siteIdsOf(db: Db, orgId: string): string[] {
  return (
    statement(db, 'SELECT id FROM sites WHERE org_id = ? ORDER BY created_at, id').all(orgId) as Array<{
      id: string;
    }>
  ).map((s) => s.id);
}

export function insertPartnerRole(
  db: Db,
  role: {
    id: string;
    partnerId: string;
    parentRoleId: string;
    name: string;
    description: string;
    at: string;
  },
): void {
  statement(
    db,
    `INSERT INTO roles (id, partner_id, parent_role_id, scope, name, description, is_system, created_at, updated_at)
     VALUES (?, ?, ?, 'partner', ?, ?, 0, ?, ?)`,
  ).run(role.id, role.partnerId, role.parentRoleId, role.name, role.description, role.at, role.at);
}

export function insertActivePerson(
  db: Db,
  person: { id: string; email: string; name: string; passwordHash: string | null; at: string },
): void {
  statement(
    db,
    `INSERT INTO users (id, email, name, password_hash, status, password_changed_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'active', ?, ?, ?)`,
  ).run(person.id, person.email, person.name, person.passwordHash, person.at, person.at, person.at);
}

export function insertPartnerLink(
  db: Db,
  link: {
    partnerId: string;
    userId: string;
    roleId: string;
    orgAccess: 'all' | 'selected';
    /** JSON array of organization ids. */
    orgIds: string;
    at: string;
  },
): void {
  statement(
    db,
    'INSERT INTO partner_users (partner_id, user_id, role_id, org_access, org_ids, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  ).run(link.partnerId, link.userId, link.roleId, link.orgAccess, link.orgIds, link.at);
}

export function insertOrgLink(
  db: Db,
  link: { orgId: string | undefined; userId: string; roleId: string; at: string },
): void {
  statement(
    db,
    'INSERT INTO organization_users (org_id, user_id, role_id, created_at) VALUES (?, ?, ?, ?)',
  ).run(link.orgId, link.userId, link.roleId, link.at);
}

/** Removes the organization's enrollment keys of that name (the seed and the simulator replace their own). */
export function deleteEnrollmentKeysNamed(db: Db, orgId: string, name: string): void {
  statement(db, 'DELETE FROM enrollment_keys WHERE org_id = ? AND name = ?').run(orgId, name);
}
