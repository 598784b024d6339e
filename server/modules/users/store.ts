import type { AuthUser, Scope } from '../../contract';
import type { Db } from '../../db/connection';

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

export const PLATFORM_ADMIN_ROLE_ID = '00000000-0000-4000-8000-000000000001';

export class UserStore {
  constructor(
    private readonly db: Db,
    /** Told whenever a user's tokens are invalidated, so live console sockets can be closed at once too. */
    private readonly onSessionsRevoked: (userId: string) => void = () => {},
  ) {}

  count(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM users').get() as { n: number }).n;
  }

  byId(id: string): UserRow | undefined {
    return this.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
  }

  /** Emails are unique and compared case-insensitively (the column is COLLATE NOCASE). */
  byEmail(email: string): UserRow | undefined {
    return this.db.prepare('SELECT * FROM users WHERE email = ?').get(email.trim()) as UserRow | undefined;
  }

  /**
   * A user holds one association; platform administration outranks partner membership, which outranks
   * organization membership. Returns null for a user with no association (they cannot sign in).
   */
  membership(userId: string): Membership | null {
    const platform = this.db
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
    const partner = this.db
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
    const org = this.db
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

  touchLogin(userId: string, at: string): void {
    this.db.prepare('UPDATE users SET last_login_at = ?, updated_at = ? WHERE id = ?').run(at, at, userId);
  }

  /** Invalidates every access token already issued to the user. */
  bumpTokenVersion(userId: string): void {
    this.db
      .prepare('UPDATE users SET token_version = token_version + 1, updated_at = ? WHERE id = ?')
      .run(new Date().toISOString(), userId);
    this.onSessionsRevoked(userId);
  }
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
