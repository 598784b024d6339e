import type { AuthUser, Scope } from '../../contract';
import { statement, type Db } from '../../db/connection';
import { transaction } from '../../db/after-commit';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  avatar_url: string | null;
  password_hash: string | null;
  status: 'active' | 'invited' | 'disabled';
  mfa_enabled: 0 | 1;
  mfa_method: 'totp' | 'sms' | null;
  mfa_secret: string | null;
  mfa_last_time_step: number | null;
  phone_number: string | null;
  phone_verified: 0 | 1;
  token_version: number;
  last_login_at: string | null;
  password_changed_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Where a user stands in the tenant tree; decides the scope of every token issued to them. */
export interface Membership {
  scope: Scope;
  partnerId: string | null;
  orgId: string | null;
  roleId: string | null;
  roleName: string | null;
}

/** Which association row of a user a change addresses. */
export interface AssociationKey {
  scope: Scope;
  partnerId: string | null;
  orgId: string | null;
}

export const PLATFORM_ADMIN_ROLE_ID = '00000000-0000-4000-8000-000000000001';

export function countUsers(db: Db): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM users').get() as { n: number }).n;
}

export function userById(db: Db, id: string): UserRow | undefined {
  return db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
}

/** Emails are unique and compared case-insensitively (the column is COLLATE NOCASE). */
export function userByEmail(db: Db, email: string): UserRow | undefined {
  return db.prepare('SELECT * FROM users WHERE email = ?').get(email.trim()) as UserRow | undefined;
}

/**
 * A user holds one association; platform administration outranks partner membership, which outranks
 * organization membership. Returns null for a user with no association (they cannot sign in).
 */
export function membershipOf(db: Db, userId: string): Membership | null {
  const platform = db
    .prepare(
      'SELECT p.role_id, r.name FROM platform_admins p JOIN roles r ON r.id = p.role_id WHERE p.user_id = ?',
    )
    .get(userId) as { role_id: string; name: string } | undefined;
  if (platform)
    return {
      scope: 'system',
      partnerId: null,
      orgId: null,
      roleId: platform.role_id,
      roleName: platform.name,
    };
  const partner = db
    .prepare(
      `SELECT pu.partner_id, pu.role_id, r.name FROM partner_users pu JOIN roles r ON r.id = pu.role_id
       JOIN partners p ON p.id = pu.partner_id WHERE pu.user_id = ? AND p.deleted_at IS NULL ORDER BY pu.created_at LIMIT 1`,
    )
    .get(userId) as { partner_id: string; role_id: string; name: string } | undefined;
  if (partner) {
    return {
      scope: 'partner',
      partnerId: partner.partner_id,
      orgId: null,
      roleId: partner.role_id,
      roleName: partner.name,
    };
  }
  const org = db
    .prepare(
      `SELECT ou.org_id, o.partner_id, ou.role_id, r.name FROM organization_users ou JOIN roles r ON r.id = ou.role_id
       JOIN organizations o ON o.id = ou.org_id WHERE ou.user_id = ? AND o.deleted_at IS NULL ORDER BY ou.created_at LIMIT 1`,
    )
    .get(userId) as { org_id: string; partner_id: string; role_id: string; name: string } | undefined;
  if (org) {
    return {
      scope: 'organization',
      partnerId: org.partner_id,
      orgId: org.org_id,
      roleId: org.role_id,
      roleName: org.name,
    };
  }
  return null;
}

export function touchLogin(db: Db, userId: string, at: string): void {
  db.prepare('UPDATE users SET last_login_at = ?, updated_at = ? WHERE id = ?').run(at, at, userId);
}

// ---- account changes (profile, invitations, administration, password, first administrator) ----------------

/** Sets the given columns (from a fixed list in the caller, never from input) and updated_at. */
export function updateProfileRow(
  db: Db,
  userId: string,
  changes: ReadonlyArray<[column: 'name' | 'avatar_url', value: string | null]>,
  at: string,
): void {
  db.prepare(
    `UPDATE users SET ${changes.map(([c]) => `${c} = ?`).join(', ')}, updated_at = ? WHERE id = ?`,
  ).run(...changes.map(([, v]) => v), at, userId);
}

export function setNameAndStatus(
  db: Db,
  userId: string,
  name: string | null,
  status: UserRow['status'],
  at: string,
): void {
  statement(db, 'UPDATE users SET name = ?, status = ?, updated_at = ? WHERE id = ?').run(
    name,
    status,
    at,
    userId,
  );
}

export function insertInvitedUser(db: Db, id: string, email: string, name: string | null, at: string): void {
  statement(
    db,
    `INSERT INTO users (id, email, name, status, created_at, updated_at) VALUES (?, ?, ?, 'invited', ?, ?)`,
  ).run(id, email, name, at, at);
}

/** An account whose association was removed, invited again: back to invited, its old access tokens end. */
export function markReinvited(db: Db, userId: string, at: string): void {
  statement(
    db,
    "UPDATE users SET status = 'invited', token_version = token_version + 1, updated_at = ? WHERE id = ?",
  ).run(at, userId);
}

/** Accepting an invitation: the password is set and the account active; false when it is no longer invited. */
export function activateInvitedUser(
  db: Db,
  userId: string,
  passwordHash: string,
  name: string | null,
  at: string,
): boolean {
  return (
    statement(
      db,
      `UPDATE users SET password_hash = ?, status = 'active', password_changed_at = ?, name = COALESCE(?, name),
         updated_at = ? WHERE id = ? AND status = 'invited'`,
    ).run(passwordHash, at, name, at, userId).changes === 1
  );
}

export function setPasswordHash(db: Db, userId: string, passwordHash: string, at: string): void {
  statement(
    db,
    'UPDATE users SET password_hash = ?, password_changed_at = ?, updated_at = ? WHERE id = ?',
  ).run(passwordHash, at, at, userId);
}

/** The first platform administrator (setup, bootstrap), active with a password. */
export function insertPlatformAdmin(
  db: Db,
  user: { id: string; email: string; name: string; passwordHash: string },
  at: string,
): void {
  transaction(db, () => {
    statement(
      db,
      `INSERT INTO users (id, email, name, password_hash, status, password_changed_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'active', ?, ?, ?)`,
    ).run(user.id, user.email, user.name, user.passwordHash, at, at, at);
    statement(db, 'INSERT INTO platform_admins (user_id, role_id, created_at) VALUES (?, ?, ?)').run(
      user.id,
      PLATFORM_ADMIN_ROLE_ID,
      at,
    );
  });
}

export function addPartnerUser(
  db: Db,
  partnerId: string,
  userId: string,
  roleId: string,
  access: { orgAccess: string; orgIds: readonly string[] },
  at: string,
): void {
  statement(
    db,
    `INSERT INTO partner_users (partner_id, user_id, role_id, org_access, org_ids, created_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(partnerId, userId, roleId, access.orgAccess, JSON.stringify(access.orgIds), at);
}

export function addOrganizationUser(
  db: Db,
  orgId: string,
  userId: string,
  roleId: string,
  access: { siteIds: readonly string[] | null; deviceGroupIds: readonly string[] | null },
  at: string,
): void {
  statement(
    db,
    `INSERT INTO organization_users (org_id, user_id, role_id, site_ids, device_group_ids, created_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(
    orgId,
    userId,
    roleId,
    access.siteIds && JSON.stringify(access.siteIds),
    access.deviceGroupIds && JSON.stringify(access.deviceGroupIds),
    at,
  );
}

/** Deletes the user's association (organization, partner or platform); the account itself stays. */
export function removeAssociationRow(db: Db, userId: string, association: AssociationKey): void {
  if (association.scope === 'organization')
    statement(db, 'DELETE FROM organization_users WHERE org_id = ? AND user_id = ?').run(
      association.orgId,
      userId,
    );
  else if (association.scope === 'partner')
    statement(db, 'DELETE FROM partner_users WHERE partner_id = ? AND user_id = ?').run(
      association.partnerId,
      userId,
    );
  else statement(db, 'DELETE FROM platform_admins WHERE user_id = ?').run(userId);
}

export function setAssociationRole(
  db: Db,
  userId: string,
  association: AssociationKey,
  roleId: string,
): void {
  if (association.scope === 'organization')
    statement(db, 'UPDATE organization_users SET role_id = ? WHERE org_id = ? AND user_id = ?').run(
      roleId,
      association.orgId,
      userId,
    );
  else if (association.scope === 'partner')
    statement(db, 'UPDATE partner_users SET role_id = ? WHERE partner_id = ? AND user_id = ?').run(
      roleId,
      association.partnerId,
      userId,
    );
  else statement(db, 'UPDATE platform_admins SET role_id = ? WHERE user_id = ?').run(roleId, userId);
}

// ---- what an association may point at --------------------------------------------------------------------

/** The partner of a live organization. */
export function organizationPartner(db: Db, orgId: string): string | undefined {
  return (
    statement(db, 'SELECT partner_id FROM organizations WHERE id = ? AND deleted_at IS NULL').get(orgId) as
      { partner_id: string } | undefined
  )?.partner_id;
}

export function siteOrganization(db: Db, siteId: string): string | undefined {
  return (
    statement(db, 'SELECT org_id FROM sites WHERE id = ?').get(siteId) as { org_id: string } | undefined
  )?.org_id;
}

export function deviceGroupOrganization(db: Db, groupId: string): string | undefined {
  return (
    statement(db, 'SELECT org_id FROM device_groups WHERE id = ?').get(groupId) as
      { org_id: string } | undefined
  )?.org_id;
}

export function livePartnerExists(db: Db, partnerId: string): boolean {
  return (
    statement(db, 'SELECT 1 FROM partners WHERE id = ? AND deleted_at IS NULL').get(partnerId) !== undefined
  );
}

/** The name of an organization or partner, deleted or not (invitation emails and the acceptance page). */
export function tenantNameRow(db: Db, tenant: { orgId: string } | { partnerId: string }): string | undefined {
  const row =
    'orgId' in tenant
      ? statement(db, 'SELECT name FROM organizations WHERE id = ?').get(tenant.orgId)
      : statement(db, 'SELECT name FROM partners WHERE id = ?').get(tenant.partnerId);
  return (row as { name: string } | undefined)?.name;
}

/** Invalidates every access token already issued to the user (revokeUserSessions also tells live sockets). */
export function bumpTokenVersion(db: Db, userId: string): void {
  db.prepare('UPDATE users SET token_version = token_version + 1, updated_at = ? WHERE id = ?').run(
    new Date().toISOString(),
    userId,
  );
}

export function toAuthUser(user: UserRow, membership: Membership, permissions: string[]): AuthUser {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    status: user.status,
    mfaEnabled: user.mfa_enabled === 1,
    mfaMethod: user.mfa_method,
    phoneNumber: user.phone_number,
    phoneVerified: user.phone_verified === 1,
    scope: membership.scope,
    partnerId: membership.partnerId,
    orgId: membership.orgId,
    roleId: membership.roleId,
    roleName: membership.roleName,
    lastLoginAt: user.last_login_at,
    permissions,
  };
}
