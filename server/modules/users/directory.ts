import type { UserProfile, UserSummary } from '../../contract';
import type { Db } from '../../db/connection';
import type { UserAuth } from '../../http/auth-context';
import { forbidden } from '../../http/errors';
import { requireOrgAccess, resolveOrgScope, scopeFilter } from '../../http/scope';
import type { DirectoryEntry, Visibility } from './directory-store';
import type { UserRow } from './store';

// The user directory: which accounts a caller may see and administer, each with the one association that puts
// it in the caller's tenant. Every /users and /roles query that touches people goes through `userVisibility`, so
// tenant isolation for people is decided here; its SQL is in directory-store.ts.

/**
 * The associations a caller sees. System scope: every association, optionally narrowed to one partner (its
 * partner users and the users of its organizations) or one organization. Partner scope: the partner's own
 * partner users and the organization users of the organizations the caller may access. Organization scope: the
 * users of that organization. Filters naming a tenant outside the caller's scope are refused, never ignored.
 */
export function userVisibility(
  db: Db,
  auth: UserAuth,
  filter: { partnerId?: string | undefined; orgId?: string | undefined } = {},
): Visibility {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (auth.scope === 'system') {
    parts.push('1 = 1');
  } else if (auth.scope === 'partner') {
    const orgs = scopeFilter(resolveOrgScope(db, auth), 'a.a_org_id');
    parts.push(
      `((a.a_scope = 'partner' AND a.a_partner_id = ?) OR (a.a_scope = 'organization' AND ${orgs.clause}))`,
    );
    params.push(auth.partnerId, ...orgs.params);
  } else {
    parts.push(`(a.a_scope = 'organization' AND a.a_org_id = ?)`);
    params.push(auth.orgId);
  }
  if (filter.partnerId) {
    if (auth.scope !== 'system' && filter.partnerId !== auth.partnerId)
      throw forbidden('Access denied to this partner');
    parts.push('a.a_partner_id = ?');
    params.push(filter.partnerId);
  }
  if (filter.orgId) {
    requireOrgAccess(db, auth, filter.orgId);
    parts.push('a.a_org_id = ?');
    params.push(filter.orgId);
  }
  return { clause: parts.join(' AND '), params };
}

export function toUserSummary(entry: DirectoryEntry): UserSummary {
  const { user, association } = entry;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    avatarUrl: user.avatar_url,
    status: user.status,
    mfaEnabled: user.mfa_enabled === 1,
    mfaMethod: user.mfa_method,
    lastLoginAt: user.last_login_at,
    createdAt: user.created_at,
    association,
  };
}

export function toUserProfile(user: UserRow): UserProfile {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    avatarUrl: user.avatar_url,
    status: user.status,
    mfaEnabled: user.mfa_enabled === 1,
    mfaMethod: user.mfa_method,
    phoneNumber: user.phone_number,
    phoneVerified: user.phone_verified === 1,
    lastLoginAt: user.last_login_at,
    passwordChangedAt: user.password_changed_at,
    createdAt: user.created_at,
    updatedAt: user.updated_at,
  };
}
