import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { InviteResendResponse, Role, UserListResponse, UserProfile, UserSummary } from '../../contract';
import type { AppContext } from '../../context';
import { randomToken, sha256Hex } from '../../crypto';
import { type UserAuth } from '../../http/auth-context';
import { badRequest, forbidden, HttpError, notFound, unauthorized } from '../../http/errors';
import { paginated, type PageRequest } from '../../http/pagination';
import { effectivePermissions } from '../../http/permissions';
import type { LimitRule } from '../../http/rate-limit';
import {
  DEVICE_GROUP_DENIED,
  resolveOrgScope,
  restrictionsOf,
  scopeCovers,
  SITE_DENIED,
} from '../../http/scope';
import { auditCaller } from '../audit/caller';
import { assertCovered, assignableRole, RoleService } from '../roles/service';
import {
  findUser,
  hasAssociation,
  listUsers,
  toUserProfile,
  toUserSummary,
  userVisibility,
  type DirectoryEntry,
} from './directory';
import type { InviteBody } from './schemas';
import {
  auditChainOf,
  requireAdminContext,
  resolveTenant,
  tenantName,
  tenantOfAssociation,
  type Tenant,
} from './tenant';

// User administration (spec 1, /users): invitations, status, removal and role assignment inside the caller's
// tenant. A change that narrows someone's access takes effect on their next request: their token_version is
// bumped, which ends every access token already issued (the console then refreshes into the new claims), and a
// disable or removal also revokes their refresh tokens.

export const INVITE_TTL_MS = 7 * 24 * 3600 * 1000;
/** Re-sending is cheap for the caller and noisy for the recipient's mailbox: a few per hour per invitee. */
const RESEND_LIMIT: LimitRule = { bucket: 'invite-resend:user', limit: 5, windowSeconds: 3600 };
const MANAGE_REFUSED = 'Cannot manage a user who holds permissions you do not hold';

/** A requested restriction (null, undefined or empty: none) stays inside the caller's own. */
const within = (requested: string[] | null | undefined, own: ReadonlySet<string>): boolean =>
  !!requested?.length && requested.every((id) => own.has(id));

interface Invitation {
  /** The raw token: goes into the email link only, never into storage or the audit log. */
  token: string;
  expiresAt: string;
}

export class UserService {
  private readonly roles: RoleService;

  constructor(private readonly ctx: AppContext) {
    this.roles = new RoleService(ctx);
  }

  private audit(
    auth: UserAuth,
    req: Request,
    entry: { user: { id: string; email: string }; tenant: Tenant },
    action: string,
    details: Record<string, unknown>,
  ): void {
    auditCaller(this.ctx, req, auth, {
      ...auditChainOf(entry.tenant),
      action,
      resourceType: 'user',
      resourceId: entry.user.id,
      resourceName: entry.user.email,
      details,
    });
  }

  /** A user inside the caller's administration scope, or 404 (others do not exist for the caller). */
  private target(auth: UserAuth, userId: string): DirectoryEntry {
    const entry = findUser(this.ctx.db, userVisibility(this.ctx.db, auth), userId);
    if (!entry) throw notFound('User not found');
    return entry;
  }

  private summary(auth: UserAuth, userId: string): UserSummary {
    return toUserSummary(this.target(auth, userId));
  }

  /** Nobody disables, removes or re-roles someone who holds more than they do. */
  /**
   * A restricted organization user grants at most their own sites and device groups, never "all" by omission:
   * not by inviting someone, and not by giving a role to someone who sees more devices than they do.
   */
  private assertWithinOwnRestrictions(
    auth: UserAuth,
    target: { siteIds?: string[] | null | undefined; deviceGroupIds?: string[] | null | undefined },
  ): void {
    const own = restrictionsOf(this.ctx.db, auth);
    if (own.sites && !within(target.siteIds, own.sites))
      throw forbidden(SITE_DENIED, 'PERMISSION_ESCALATION', { allowedSiteIds: [...own.sites] });
    if (own.deviceGroups && !within(target.deviceGroupIds, own.deviceGroups))
      throw forbidden(DEVICE_GROUP_DENIED, 'PERMISSION_ESCALATION', {
        allowedDeviceGroupIds: [...own.deviceGroups],
      });
  }

  private assertManageable(auth: UserAuth, entry: DirectoryEntry): void {
    assertCovered(
      this.ctx,
      auth,
      effectivePermissions(this.ctx.db, entry.association.roleId),
      MANAGE_REFUSED,
    );
  }

  // --- the signed-in user -------------------------------------------------------------------------------------

  me(auth: UserAuth): UserProfile {
    const user = this.ctx.users.byId(auth.userId);
    if (!user) throw unauthorized('Session has been revoked', 'TOKEN_REVOKED');
    return toUserProfile(user);
  }

  updateMe(
    auth: UserAuth,
    req: Request,
    body: { name?: string | undefined; avatarUrl?: string | null | undefined },
  ): UserProfile {
    const user = this.ctx.users.byId(auth.userId);
    if (!user) throw unauthorized('Session has been revoked', 'TOKEN_REVOKED');
    const changes: Array<[column: string, value: string | null, field: string]> = [];
    if (body.name !== undefined) changes.push(['name', body.name, 'name']);
    if (body.avatarUrl !== undefined) changes.push(['avatar_url', body.avatarUrl, 'avatarUrl']);
    if (changes.length === 0) throw badRequest('No updates provided');
    this.ctx.db
      .prepare(`UPDATE users SET ${changes.map(([c]) => `${c} = ?`).join(', ')}, updated_at = ? WHERE id = ?`)
      .run(...changes.map(([, v]) => v), new Date().toISOString(), user.id);
    const membership = this.ctx.users.membership(user.id);
    auditCaller(this.ctx, req, auth, {
      ...(membership?.orgId
        ? { orgId: membership.orgId, partnerId: null }
        : { orgId: null, partnerId: membership?.partnerId ?? null }),
      action: 'user.profile.update',
      resourceType: 'user',
      resourceId: user.id,
      resourceName: user.email,
      details: { changedFields: changes.map(([, , f]) => f) },
    });
    return toUserProfile(this.ctx.users.byId(user.id)!);
  }

  // --- directory ----------------------------------------------------------------------------------------------

  list(
    auth: UserAuth,
    query: PageRequest & {
      q?: string | undefined;
      status?: 'active' | 'invited' | 'disabled' | undefined;
      partnerId?: string | undefined;
      orgId?: string | undefined;
    },
  ): UserListResponse {
    requireAdminContext(this.ctx.db, auth, { fullPartnerAccess: true });
    const visibility = userVisibility(this.ctx.db, auth, query);
    const { rows, total } = listUsers(this.ctx.db, visibility, query, query);
    return paginated(rows.map(toUserSummary), query, total);
  }

  get(auth: UserAuth, userId: string): UserSummary {
    requireAdminContext(this.ctx.db, auth, { fullPartnerAccess: true });
    return this.summary(auth, userId);
  }

  availableRoles(
    auth: UserAuth,
    named: { partnerId?: string | undefined; orgId?: string | undefined },
  ): Role[] {
    requireAdminContext(this.ctx.db, auth, { fullPartnerAccess: true });
    return this.roles.list(auth, named);
  }

  // --- invitations --------------------------------------------------------------------------------------------

  /**
   * Replaces any pending invitation of the user with a new single-use token (stored as its hash). Runs inside the
   * caller's transaction when there is one, so an invited account never exists without its token.
   */
  private newInvitation(auth: UserAuth, user: { id: string; email: string }): Invitation {
    const token = randomToken(32);
    const now = new Date();
    const expiresAt = new Date(now.getTime() + INVITE_TTL_MS).toISOString();
    this.ctx.db.transaction(() => {
      this.consumeInvitations(user.id, now.toISOString());
      this.ctx.db
        .prepare(
          `INSERT INTO email_tokens (token_hash, purpose, email, user_id, payload, created_at, expires_at)
           VALUES (?, 'invite', ?, ?, ?, ?, ?)`,
        )
        .run(
          sha256Hex(token),
          user.email,
          user.id,
          JSON.stringify({ invitedBy: auth.userId }),
          now.toISOString(),
          expiresAt,
        );
    })();
    return { token, expiresAt };
  }

  /** Sent after the transaction commits: a mail for a rolled-back invitation would carry a dead link. */
  private mailInvitation(
    auth: UserAuth,
    email: string,
    tenant: Tenant,
    roleName: string,
    invitation: Invitation,
  ): void {
    const inviter = this.ctx.users.byId(auth.userId)?.name ?? auth.email;
    const where = tenantName(this.ctx.db, tenant);
    const link = `${this.ctx.publicOrigin}/accept-invite?token=${invitation.token}`;
    this.ctx.mailer.send({
      kind: 'email',
      to: email,
      subject: `You are invited to ${where} on Gatehouse`,
      text: [
        `${inviter} invited you to ${where} on Gatehouse as ${roleName}.`,
        '',
        `Accept the invitation and choose your password: ${link}`,
        '',
        'The link works once and expires in 7 days. If you did not expect this invitation, ignore this email.',
      ].join('\n'),
    });
  }

  private consumeInvitations(userId: string, at: string): void {
    this.ctx.db
      .prepare(
        "UPDATE email_tokens SET consumed_at = ? WHERE user_id = ? AND purpose = 'invite' AND consumed_at IS NULL",
      )
      .run(at, userId);
  }

  /** The association fields of the invitation, checked against the tenant they will live in. */
  private accessFor(
    auth: UserAuth,
    tenant: Tenant,
    body: InviteBody,
  ): { orgAccess: string; orgIds: string[] } | { siteIds: string[] | null; deviceGroupIds: string[] | null } {
    const unique = (list: string[]) => [...new Set(list)];
    if (tenant.scope === 'partner') {
      if (body.siteIds !== undefined || body.deviceGroupIds !== undefined)
        throw badRequest('siteIds and deviceGroupIds apply to organization users only');
      if (!body.orgAccess) throw badRequest('orgAccess is required when inviting a partner user');
      const orgIds = unique(body.orgIds ?? []);
      if (body.orgAccess !== 'selected') {
        if (orgIds.length > 0) throw badRequest('orgIds apply only when orgAccess is selected');
        return { orgAccess: body.orgAccess, orgIds: [] };
      }
      if (orgIds.length === 0)
        throw badRequest('orgIds must list at least one organization when orgAccess is selected');
      const scope = resolveOrgScope(this.ctx.db, auth);
      const owner = this.ctx.db.prepare(
        'SELECT partner_id FROM organizations WHERE id = ? AND deleted_at IS NULL',
      );
      for (const id of orgIds) {
        const org = owner.get(id) as { partner_id: string } | undefined;
        if (!org || org.partner_id !== tenant.partnerId || !scopeCovers(scope, id))
          throw badRequest(`orgIds: ${id} is not an organization of this partner`);
      }
      return { orgAccess: 'selected', orgIds };
    }
    if (body.orgAccess !== undefined || body.orgIds !== undefined)
      throw badRequest('orgAccess and orgIds apply to partner users only');
    const siteIds = body.siteIds?.length ? unique(body.siteIds) : null;
    const deviceGroupIds = body.deviceGroupIds?.length ? unique(body.deviceGroupIds) : null;
    this.assertWithinOwnRestrictions(auth, { siteIds, deviceGroupIds });
    const orgId = tenant.scope === 'organization' ? tenant.orgId : null;
    const site = this.ctx.db.prepare('SELECT org_id FROM sites WHERE id = ?');
    for (const id of siteIds ?? []) {
      const row = site.get(id) as { org_id: string } | undefined;
      if (!row || row.org_id !== orgId) throw badRequest(`siteIds: ${id} is not a site of this organization`);
    }
    const group = this.ctx.db.prepare('SELECT org_id FROM device_groups WHERE id = ?');
    for (const id of deviceGroupIds ?? []) {
      const row = group.get(id) as { org_id: string } | undefined;
      if (!row || row.org_id !== orgId)
        throw badRequest(`deviceGroupIds: ${id} is not a device group of this organization`);
    }
    return { siteIds, deviceGroupIds };
  }

  invite(auth: UserAuth, req: Request, body: InviteBody): UserSummary {
    requireAdminContext(this.ctx.db, auth, { fullPartnerAccess: true });
    const tenant = resolveTenant(this.ctx.db, auth, body);
    if (tenant.scope === 'system') throw badRequest('partnerId or orgId is required for system scope');
    const access = this.accessFor(auth, tenant, body);
    const role = assignableRole(this.ctx, body.roleId, tenant);
    assertCovered(this.ctx, auth, effectivePermissions(this.ctx.db, role.id));
    const email = body.email.trim().toLowerCase();
    const at = new Date().toISOString();

    const { userId, reattached, invitation } = this.ctx.db.transaction(() => {
      const existing = this.ctx.users.byEmail(email);
      let id: string;
      if (existing) {
        // One account belongs to one tenant; an account whose association was removed may be invited again.
        if (hasAssociation(this.ctx.db, existing.id))
          throw new HttpError(409, 'User already exists in this scope', 'USER_EXISTS', {
            detail:
              'An account belongs to one partner or organization, and this email address already has one.',
          });
        id = existing.id;
        this.ctx.db
          .prepare(
            "UPDATE users SET status = 'invited', token_version = token_version + 1, updated_at = ? WHERE id = ?",
          )
          .run(at, id);
        this.ctx.tokens.revokeAllForUser(id, 'reinvited');
      } else {
        id = randomUUID();
        this.ctx.db
          .prepare(
            `INSERT INTO users (id, email, name, status, created_at, updated_at) VALUES (?, ?, ?, 'invited', ?, ?)`,
          )
          .run(id, email, body.name, at, at);
      }
      if (tenant.scope === 'partner' && 'orgAccess' in access) {
        this.ctx.db
          .prepare(
            `INSERT INTO partner_users (partner_id, user_id, role_id, org_access, org_ids, created_at)
             VALUES (?, ?, ?, ?, ?, ?)`,
          )
          .run(tenant.partnerId, id, role.id, access.orgAccess, JSON.stringify(access.orgIds), at);
      } else if (tenant.scope === 'organization' && 'siteIds' in access) {
        this.ctx.db
          .prepare(
            `INSERT INTO organization_users (org_id, user_id, role_id, site_ids, device_group_ids, created_at)
             VALUES (?, ?, ?, ?, ?, ?)`,
          )
          .run(
            tenant.orgId,
            id,
            role.id,
            access.siteIds && JSON.stringify(access.siteIds),
            access.deviceGroupIds && JSON.stringify(access.deviceGroupIds),
            at,
          );
      }
      return {
        userId: id,
        reattached: existing !== undefined,
        invitation: this.newInvitation(auth, { id, email: existing?.email ?? email }),
      };
    })();

    const user = this.ctx.users.byId(userId)!;
    this.mailInvitation(auth, user.email, tenant, role.name, invitation);
    const { expiresAt } = invitation;
    this.audit(auth, req, { user, tenant }, 'user.invite', {
      scope: tenant.scope,
      partnerId: tenant.partnerId,
      orgId: tenant.scope === 'organization' ? tenant.orgId : null,
      roleId: role.id,
      roleName: role.name,
      ...access,
      reattached,
      expiresAt,
    });
    return this.summary(auth, userId);
  }

  resendInvite(auth: UserAuth, req: Request, userId: string): InviteResendResponse {
    requireAdminContext(this.ctx.db, auth, { fullPartnerAccess: true });
    const entry = this.target(auth, userId);
    if (entry.user.status !== 'invited')
      throw badRequest('Only invited users can be sent a new invitation', 'NOT_INVITED');
    this.ctx.limiter.enforce(
      [[RESEND_LIMIT, entry.user.id]],
      'Too many invitations sent to this user. Try again later.',
    );
    const tenant = tenantOfAssociation(entry.association);
    const invitation = this.newInvitation(auth, entry.user);
    this.mailInvitation(auth, entry.user.email, tenant, entry.association.roleName, invitation);
    const { expiresAt } = invitation;
    this.audit(auth, req, { user: entry.user, tenant }, 'user.invite.resend', { expiresAt });
    return { success: true, expiresAt };
  }

  // --- changes to someone else --------------------------------------------------------------------------------

  update(
    auth: UserAuth,
    req: Request,
    userId: string,
    body: { name?: string | undefined; status?: 'active' | 'disabled' | undefined },
  ): UserSummary {
    requireAdminContext(this.ctx.db, auth, { fullPartnerAccess: true });
    if (body.name === undefined && body.status === undefined) throw badRequest('No updates provided');
    const entry = this.target(auth, userId);
    const self = entry.user.id === auth.userId;
    if (self && body.status !== undefined) throw badRequest('You cannot change your own status');
    if (!self) this.assertManageable(auth, entry);
    if (body.status !== undefined && entry.user.status === 'invited')
      throw badRequest(
        'Invited users cannot be enabled or disabled; remove the user to withdraw the invitation',
      );
    const changedFields: string[] = [];
    if (body.name !== undefined && body.name !== entry.user.name) changedFields.push('name');
    if (body.status !== undefined && body.status !== entry.user.status) changedFields.push('status');
    if (changedFields.length > 0) {
      this.ctx.db.transaction(() => {
        this.ctx.db
          .prepare('UPDATE users SET name = ?, status = ?, updated_at = ? WHERE id = ?')
          .run(
            body.name ?? entry.user.name,
            body.status ?? entry.user.status,
            new Date().toISOString(),
            entry.user.id,
          );
        if (body.status === 'disabled' && entry.user.status !== 'disabled') {
          this.ctx.users.bumpTokenVersion(entry.user.id);
          this.ctx.tokens.revokeAllForUser(entry.user.id, 'disabled');
        }
      })();
      this.audit(
        auth,
        req,
        { user: entry.user, tenant: tenantOfAssociation(entry.association) },
        'user.update',
        {
          changedFields,
          ...(changedFields.includes('status')
            ? { previousStatus: entry.user.status, status: body.status }
            : {}),
        },
      );
    }
    return this.summary(auth, entry.user.id);
  }

  remove(auth: UserAuth, req: Request, userId: string): { success: true } {
    requireAdminContext(this.ctx.db, auth, { fullPartnerAccess: true });
    const entry = this.target(auth, userId);
    if (entry.user.id === auth.userId) throw badRequest('You cannot remove yourself');
    this.assertManageable(auth, entry);
    const { association } = entry;
    const at = new Date().toISOString();
    this.ctx.db.transaction(() => {
      if (association.scope === 'organization')
        this.ctx.db
          .prepare('DELETE FROM organization_users WHERE org_id = ? AND user_id = ?')
          .run(association.orgId, entry.user.id);
      else if (association.scope === 'partner')
        this.ctx.db
          .prepare('DELETE FROM partner_users WHERE partner_id = ? AND user_id = ?')
          .run(association.partnerId, entry.user.id);
      else this.ctx.db.prepare('DELETE FROM platform_admins WHERE user_id = ?').run(entry.user.id);
      this.consumeInvitations(entry.user.id, at);
      this.ctx.users.bumpTokenVersion(entry.user.id);
      this.ctx.tokens.revokeAllForUser(entry.user.id, 'removed');
    })();
    this.audit(auth, req, { user: entry.user, tenant: tenantOfAssociation(association) }, 'user.remove', {
      scope: association.scope,
      partnerId: association.partnerId,
      orgId: association.orgId,
      roleId: association.roleId,
      roleName: association.roleName,
    });
    return { success: true };
  }

  assignRole(auth: UserAuth, req: Request, userId: string, roleId: string): UserSummary {
    requireAdminContext(this.ctx.db, auth, { fullPartnerAccess: true });
    const entry = this.target(auth, userId);
    if (entry.user.id === auth.userId) throw badRequest('You cannot change your own role');
    this.assertManageable(auth, entry);
    const { association } = entry;
    this.assertWithinOwnRestrictions(auth, association);
    const tenant = tenantOfAssociation(association);
    const role = assignableRole(this.ctx, roleId, tenant);
    assertCovered(this.ctx, auth, effectivePermissions(this.ctx.db, role.id));
    if (role.id === association.roleId) return toUserSummary(entry);
    this.ctx.db.transaction(() => {
      if (association.scope === 'organization')
        this.ctx.db
          .prepare('UPDATE organization_users SET role_id = ? WHERE org_id = ? AND user_id = ?')
          .run(role.id, association.orgId, entry.user.id);
      else if (association.scope === 'partner')
        this.ctx.db
          .prepare('UPDATE partner_users SET role_id = ? WHERE partner_id = ? AND user_id = ?')
          .run(role.id, association.partnerId, entry.user.id);
      else
        this.ctx.db
          .prepare('UPDATE platform_admins SET role_id = ? WHERE user_id = ?')
          .run(role.id, entry.user.id);
      // Access tokens carry the role id: end them so the next request re-authenticates into the new role.
      this.ctx.users.bumpTokenVersion(entry.user.id);
    })();
    this.audit(auth, req, { user: entry.user, tenant }, 'user.role.assign', {
      previousRoleId: association.roleId,
      previousRoleName: association.roleName,
      roleId: role.id,
      roleName: role.name,
    });
    return this.summary(auth, entry.user.id);
  }
}
