import { randomUUID } from 'node:crypto';
import { statement, type Db } from '../../db/connection';
import { pagedQuery } from '../../db/paged';
import type { PageRequest } from '../../http/pagination';
import { scopeFilter, type OrgScope } from '../../http/scope';
import type {
  OrganizationColumns,
  OrganizationRow,
  PartnerColumns,
  PartnerRow,
  SiteColumns,
  SiteRow,
} from './rows';

// SQL of /orgs, as free functions of the database: partners, organizations and sites, and the revocations that partner offboarding and deletion
// perform. Column names in dynamic UPDATEs come from the typed maps below, never from request input.

/** `UPDATE table SET a = @a, b = @b WHERE id = @id`, with the column list taken from the typed object's keys. */
function updateRow(db: Db, table: string, id: string, columns: Record<string, unknown>): void {
  const keys = Object.keys(columns).filter((k) => columns[k] !== undefined);
  if (keys.length === 0) return;
  for (const key of keys) {
    if (!/^[a-z_]+$/.test(key)) throw new Error(`bad column name ${key}`);
  }
  const values: Record<string, unknown> = { id };
  for (const key of keys) values[key] = columns[key];
  db.prepare(`UPDATE ${table} SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`).run(values);
}

export const PARTNER_ADMIN_ROLE_NAME = 'Partner Admin';

// ---- partners -----------------------------------------------------------------------------------------------

export function listPartnerRows(db: Db, page: PageRequest): { rows: PartnerRow[]; total: number } {
  return pagedQuery<PartnerRow>(db, {
    select: '*',
    from: 'partners',
    where: ['deleted_at IS NULL'],
    orderBy: 'name COLLATE NOCASE, id',
    page,
  });
}

/** A live partner (not soft-deleted). */
export function partnerById(db: Db, id: string): PartnerRow | undefined {
  return db.prepare('SELECT * FROM partners WHERE id = ? AND deleted_at IS NULL').get(id) as
    PartnerRow | undefined;
}

/** Slugs stay reserved after a soft delete (the column is UNIQUE), so deleted partners count here. */
export function partnerSlugTaken(db: Db, slug: string, exceptId?: string): boolean {
  return (
    db.prepare('SELECT 1 FROM partners WHERE slug = ? AND id IS NOT ?').get(slug, exceptId ?? null) !==
    undefined
  );
}

/** The partner and its own `Partner Admin` role (scope partner, system, `*:*`); call inside a transaction. */
export function insertPartner(
  db: Db,
  row: Omit<PartnerRow, 'deleted_at' | 'offboarding_started_at'>,
): string {
  db.prepare(
    `INSERT INTO partners (id, name, slug, type, plan, max_organizations, max_devices, settings,
         service_management_mode, service_management_psa_connection_id, sso_config, billing_email, status,
         created_at, updated_at)
       VALUES (@id, @name, @slug, @type, @plan, @max_organizations, @max_devices, @settings,
         @service_management_mode, @service_management_psa_connection_id, @sso_config, @billing_email, @status,
         @created_at, @updated_at)`,
  ).run(row);
  const roleId = randomUUID();
  db.prepare(
    `INSERT INTO roles (id, partner_id, scope, name, description, is_system, created_at, updated_at)
       VALUES (?, ?, 'partner', ?, ?, 1, ?, ?)`,
  ).run(
    roleId,
    row.id,
    PARTNER_ADMIN_ROLE_NAME,
    'Full administration of the partner and all of its organizations',
    row.created_at,
    row.created_at,
  );
  db.prepare("INSERT INTO role_permissions (role_id, resource, action) VALUES (?, '*', '*')").run(roleId);
  return roleId;
}

export function updatePartnerRow(db: Db, id: string, columns: PartnerColumns): void {
  updateRow(db, 'partners', id, columns);
}

/** Partners whose offboarding began at or before `cutoff` (ISO). */
export function partnersOffboardingSince(db: Db, cutoff: string): PartnerRow[] {
  return db
    .prepare(
      `SELECT * FROM partners WHERE status = 'offboarding' AND deleted_at IS NULL
         AND offboarding_started_at IS NOT NULL AND offboarding_started_at <= ?`,
    )
    .all(cutoff) as PartnerRow[];
}

/** Flips one partner from offboarding to churned; false when something else changed its status first. */
export function churnPartner(db: Db, id: string, at: string): boolean {
  return (
    db
      .prepare(
        "UPDATE partners SET status = 'churned', updated_at = ? WHERE id = ? AND status = 'offboarding' AND deleted_at IS NULL",
      )
      .run(at, id).changes === 1
  );
}

/** Every user who works under the partner: its own technicians and the users of each of its organizations. */
export function partnerUserIds(db: Db, partnerId: string): string[] {
  return (
    db
      .prepare(
        `SELECT user_id FROM partner_users WHERE partner_id = ?
         UNION
         SELECT ou.user_id FROM organization_users ou JOIN organizations o ON o.id = ou.org_id
         WHERE o.partner_id = ?`,
      )
      .all(partnerId, partnerId) as Array<{ user_id: string }>
  ).map((r) => r.user_id);
}

/** Revokes the active API keys of every organization of the partner; returns how many. */
export function revokePartnerApiKeys(db: Db, partnerId: string, reason: string, at: string): number {
  return db
    .prepare(
      `UPDATE api_keys SET status = 'revoked', revoked_at = @at, revoked_reason = @reason, updated_at = @at
       WHERE status = 'active' AND org_id IN (SELECT id FROM organizations WHERE partner_id = @partnerId)`,
    )
    .run({ at, reason, partnerId }).changes;
}

// ---- organizations ------------------------------------------------------------------------------------------

/** Every live organization in the scope, ordered by name (`GET /orgs/`). */
export function organizationRowsInScope(db: Db, scope: OrgScope): OrganizationRow[] {
  const filter = scopeFilter(scope, 'id');
  return db
    .prepare(
      `SELECT * FROM organizations WHERE deleted_at IS NULL AND ${filter.clause}
       ORDER BY name COLLATE NOCASE, id`,
    )
    .all(...filter.params) as OrganizationRow[];
}

export function pageOrganizations(
  db: Db,
  scope: OrgScope,
  partnerId: string | undefined,
  page: PageRequest,
): { rows: OrganizationRow[]; total: number } {
  const filter = scopeFilter(scope, 'id');
  return pagedQuery<OrganizationRow>(db, {
    select: '*',
    from: 'organizations',
    where: ['deleted_at IS NULL', filter.clause, '(? IS NULL OR partner_id = ?)'],
    params: [...filter.params, partnerId ?? null, partnerId ?? null],
    orderBy: 'name COLLATE NOCASE, id',
    page,
  });
}

export function organizationById(db: Db, id: string): OrganizationRow | undefined {
  return db.prepare('SELECT * FROM organizations WHERE id = ? AND deleted_at IS NULL').get(id) as
    OrganizationRow | undefined;
}

export function countOrganizations(db: Db, partnerId: string): number {
  return (
    db
      .prepare('SELECT COUNT(*) AS n FROM organizations WHERE partner_id = ? AND deleted_at IS NULL')
      .get(partnerId) as { n: number }
  ).n;
}

/** Organization slugs are unique among a partner's live organizations. */
export function organizationSlugTaken(db: Db, partnerId: string, slug: string, exceptId?: string): boolean {
  return (
    statement(
      db,
      'SELECT 1 FROM organizations WHERE partner_id = ? AND slug = ? AND deleted_at IS NULL AND id IS NOT ?',
    ).get(partnerId, slug, exceptId ?? null) !== undefined
  );
}

/** Through the statement cache: an import creates hundreds in one request. */
export function insertOrganization(db: Db, row: Omit<OrganizationRow, 'deleted_at'>): void {
  statement(
    db,
    `INSERT INTO organizations (id, partner_id, name, slug, type, status, max_devices, settings, sso_config,
         contract_start, contract_end, billing_contact, created_at, updated_at)
       VALUES (@id, @partner_id, @name, @slug, @type, @status, @max_devices, @settings, @sso_config,
         @contract_start, @contract_end, @billing_contact, @created_at, @updated_at)`,
  ).run(row);
}

export function updateOrganizationRow(db: Db, id: string, columns: OrganizationColumns): void {
  updateRow(db, 'organizations', id, columns);
}

/** Soft-deletes the partner's live organizations; returns them (id and name) for the audit log. */
export function softDeletePartnerOrganizations(
  db: Db,
  partnerId: string,
  at: string,
): Array<{ id: string; name: string }> {
  const orgs = db
    .prepare('SELECT id, name FROM organizations WHERE partner_id = ? AND deleted_at IS NULL')
    .all(partnerId) as Array<{ id: string; name: string }>;
  db.prepare(
    'UPDATE organizations SET deleted_at = ?, updated_at = ? WHERE partner_id = ? AND deleted_at IS NULL',
  ).run(at, at, partnerId);
  return orgs;
}

export function organizationUserIds(db: Db, orgId: string): string[] {
  return (
    db.prepare('SELECT user_id FROM organization_users WHERE org_id = ?').all(orgId) as Array<{
      user_id: string;
    }>
  ).map((r) => r.user_id);
}

export function revokeOrganizationApiKeys(db: Db, orgId: string, reason: string, at: string): number {
  return db
    .prepare(
      `UPDATE api_keys SET status = 'revoked', revoked_at = @at, revoked_reason = @reason, updated_at = @at
       WHERE status = 'active' AND org_id = @orgId`,
    )
    .run({ at, reason, orgId }).changes;
}

/** Adds an organization to a partner user's `selected` list (no-op for `all` and `none`). */
export function grantSelectedOrganization(db: Db, partnerId: string, userId: string, orgId: string): boolean {
  return (
    db
      .prepare(
        `UPDATE partner_users SET org_ids = json_insert(org_ids, '$[#]', @orgId)
         WHERE partner_id = @partnerId AND user_id = @userId AND org_access = 'selected'
           AND NOT EXISTS (SELECT 1 FROM json_each(org_ids) WHERE value = @orgId)`,
      )
      .run({ partnerId, userId, orgId }).changes === 1
  );
}

// ---- sites --------------------------------------------------------------------------------------------------

export function pageSites(
  db: Db,
  scope: OrgScope,
  onlySites: ReadonlySet<string> | null,
  orgId: string | undefined,
  page: PageRequest,
): { rows: SiteRow[]; total: number } {
  const filter = scopeFilter(scope, 's.org_id');
  const only = onlySites ? JSON.stringify([...onlySites]) : null;
  return pagedQuery<SiteRow>(db, {
    select: 's.*',
    from: 'sites s JOIN organizations o ON o.id = s.org_id',
    where: [
      'o.deleted_at IS NULL',
      filter.clause,
      '(? IS NULL OR s.org_id = ?)',
      '(? IS NULL OR s.id IN (SELECT value FROM json_each(?)))',
    ],
    params: [...filter.params, orgId ?? null, orgId ?? null, only, only],
    orderBy: 's.name COLLATE NOCASE, s.id',
    page,
  });
}

export function siteById(db: Db, id: string): SiteRow | undefined {
  return db.prepare('SELECT * FROM sites WHERE id = ?').get(id) as SiteRow | undefined;
}

export function insertSite(db: Db, row: SiteRow): void {
  statement(
    db,
    `INSERT INTO sites (id, org_id, name, address, timezone, contact, settings, created_at, updated_at)
       VALUES (@id, @org_id, @name, @address, @timezone, @contact, @settings, @created_at, @updated_at)`,
  ).run(row);
}

export function updateSiteRow(db: Db, id: string, columns: SiteColumns): void {
  updateRow(db, 'sites', id, columns);
}

export function deleteSiteRow(db: Db, id: string): void {
  db.prepare('DELETE FROM sites WHERE id = ?').run(id);
}

// ---- import and partner provisioning -------------------------------------------------------------------------

/** Every organization of the partner, soft-deleted ones too: what an import matches its rows against. */
export function partnerOrganizationRows(db: Db, partnerId: string): OrganizationRow[] {
  return statement(db, 'SELECT * FROM organizations WHERE partner_id = ? ORDER BY created_at, id').all(
    partnerId,
  ) as OrganizationRow[];
}

/** The sites of the organizations named, in one query. */
export function sitesOfOrganizations(db: Db, orgIds: readonly string[]): SiteRow[] {
  return statement(
    db,
    'SELECT * FROM sites WHERE org_id IN (SELECT value FROM json_each(?)) ORDER BY created_at, id',
  ).all(JSON.stringify(orgIds)) as SiteRow[];
}

/** A position in a keyset page ordered by (created_at, id). */
export interface KeysetPosition {
  createdAt: string;
  id: string;
}

/** The partner's live organizations after `after`, oldest first; `limit` rows at most. */
export function organizationsAfter(
  db: Db,
  partnerId: string,
  after: KeysetPosition | null,
  limit: number,
): OrganizationRow[] {
  return statement(
    db,
    `SELECT * FROM organizations WHERE partner_id = ? AND deleted_at IS NULL
       AND (? IS NULL OR (created_at, id) > (?, ?))
     ORDER BY created_at, id LIMIT ?`,
  ).all(
    partnerId,
    after?.createdAt ?? null,
    after?.createdAt ?? null,
    after?.id ?? null,
    limit,
  ) as OrganizationRow[];
}

/** The sites of the partner's live organizations after `after`, oldest first; `orgId` narrows to one. */
export function sitesAfter(
  db: Db,
  partnerId: string,
  orgId: string | null,
  after: KeysetPosition | null,
  limit: number,
): SiteRow[] {
  return statement(
    db,
    `SELECT s.* FROM sites s JOIN organizations o ON o.id = s.org_id
     WHERE o.partner_id = ? AND o.deleted_at IS NULL AND (? IS NULL OR s.org_id = ?)
       AND (? IS NULL OR (s.created_at, s.id) > (?, ?))
     ORDER BY s.created_at, s.id LIMIT ?`,
  ).all(
    partnerId,
    orgId,
    orgId,
    after?.createdAt ?? null,
    after?.createdAt ?? null,
    after?.id ?? null,
    limit,
  ) as SiteRow[];
}
