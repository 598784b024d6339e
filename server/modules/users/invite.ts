import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { InviteResendResponse, UserSummary } from '../../contract';
import type { AppContext } from '../../context';
import type { UserAuth } from '../../http/auth-context';
import { badRequest, HttpError } from '../../http/errors';
import { effectivePermissions } from '../../http/permissions';
import type { LimitRule } from '../../http/rate-limit';
import { resolveOrgScope, scopeCovers } from '../../http/scope';
import { issueEmailToken, type IssuedEmailToken } from '../registration';
import { assertCovered, assignableRole } from '../roles';
import { hasAssociation } from './directory-store';
import { assertWithinOwnRestrictions, auditUserChange, managedSummary, managedUser } from './managed';
import type { InviteBody } from './schemas';
import { requireAdminContext, resolveTenant, tenantName, tenantOfAssociation, type Tenant } from './tenant';
import { transaction } from '../../db/after-commit';
import {
  addOrganizationUser,
  addPartnerUser,
  deviceGroupOrganization,
  insertInvitedUser,
  markReinvited,
  organizationPartner,
  siteOrganization,
  userByEmail,
  userById,
} from './store';

// Inviting a user into the caller's tenant (spec 1, POST /users/invite and /users/resend-invite). Accepting the
// invitation is invitations.ts.

export const INVITE_TTL_MS = 7 * 24 * 3600 * 1000;
/** Re-sending is cheap for the caller and noisy for the recipient's mailbox: a few per hour per invitee. */
const RESEND_LIMIT: LimitRule = { bucket: 'invite-resend:user', limit: 5, windowSeconds: 3600 };

/**
 * Replaces any pending invitation of the user with a new single-use token (stored as its hash). Runs inside the
 * caller's transaction when there is one, so an invited account never exists without its token. The raw token
 * goes into the email link only, never into storage or the audit log.
 */
function newInvitation(
  ctx: AppContext,
  auth: UserAuth,
  user: { id: string; email: string },
): IssuedEmailToken {
  return issueEmailToken(ctx.db, {
    purpose: 'invite',
    email: user.email,
    userId: user.id,
    payload: { invitedBy: auth.userId },
    ttlSeconds: INVITE_TTL_MS / 1000,
    supersede: { purposes: ['invite'], by: 'user' },
  });
}

/** Sent after the transaction commits: a mail for a rolled-back invitation would carry a dead link. */
function mailInvitation(
  ctx: AppContext,
  auth: UserAuth,
  email: string,
  tenant: Tenant,
  roleName: string,
  invitation: IssuedEmailToken,
): void {
  const inviter = userById(ctx.db, auth.userId)?.name ?? auth.email;
  const where = tenantName(ctx.db, tenant);
  const link = `${ctx.publicOrigin}/accept-invite?token=${invitation.token}`;
  ctx.mailer.send({
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

/** The association fields of the invitation, checked against the tenant they will live in. */
function accessFor(
  ctx: AppContext,
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
    const scope = resolveOrgScope(ctx.db, auth);
    for (const id of orgIds) {
      if (organizationPartner(ctx.db, id) !== tenant.partnerId || !scopeCovers(scope, id))
        throw badRequest(`orgIds: ${id} is not an organization of this partner`);
    }
    return { orgAccess: 'selected', orgIds };
  }
  if (body.orgAccess !== undefined || body.orgIds !== undefined)
    throw badRequest('orgAccess and orgIds apply to partner users only');
  const siteIds = body.siteIds?.length ? unique(body.siteIds) : null;
  const deviceGroupIds = body.deviceGroupIds?.length ? unique(body.deviceGroupIds) : null;
  assertWithinOwnRestrictions(ctx, auth, { siteIds, deviceGroupIds });
  const orgId = tenant.scope === 'organization' ? tenant.orgId : null;
  for (const id of siteIds ?? []) {
    const owner = siteOrganization(ctx.db, id);
    if (owner === undefined || owner !== orgId)
      throw badRequest(`siteIds: ${id} is not a site of this organization`);
  }
  for (const id of deviceGroupIds ?? []) {
    const owner = deviceGroupOrganization(ctx.db, id);
    if (owner === undefined || owner !== orgId)
      throw badRequest(`deviceGroupIds: ${id} is not a device group of this organization`);
  }
  return { siteIds, deviceGroupIds };
}

export function invite(ctx: AppContext, auth: UserAuth, req: Request, body: InviteBody): UserSummary {
  requireAdminContext(ctx.db, auth, { fullPartnerAccess: true });
  const tenant = resolveTenant(ctx.db, auth, body);
  if (tenant.scope === 'system') throw badRequest('partnerId or orgId is required for system scope');
  const access = accessFor(ctx, auth, tenant, body);
  const role = assignableRole(ctx, body.roleId, tenant);
  assertCovered(ctx, auth, effectivePermissions(ctx.db, role.id));
  const email = body.email.trim().toLowerCase();
  const at = new Date().toISOString();

  const { userId, reattached, invitation } = transaction(ctx.db, () => {
    const existing = userByEmail(ctx.db, email);
    let id: string;
    if (existing) {
      // One account belongs to one tenant; an account whose association was removed may be invited again.
      if (hasAssociation(ctx.db, existing.id))
        throw new HttpError(409, 'User already exists in this scope', 'USER_EXISTS', {
          detail:
            'An account belongs to one partner or organization, and this email address already has one.',
        });
      id = existing.id;
      markReinvited(ctx.db, id, at);
      ctx.tokens.revokeAllForUser(id, 'reinvited');
    } else {
      id = randomUUID();
      insertInvitedUser(ctx.db, id, email, body.name, at);
    }
    if (tenant.scope === 'partner' && 'orgAccess' in access) {
      addPartnerUser(ctx.db, tenant.partnerId, id, role.id, access, at);
    } else if (tenant.scope === 'organization' && 'siteIds' in access) {
      addOrganizationUser(ctx.db, tenant.orgId, id, role.id, access, at);
    }
    return {
      userId: id,
      reattached: existing !== undefined,
      invitation: newInvitation(ctx, auth, { id, email: existing?.email ?? email }),
    };
  });

  const user = userById(ctx.db, userId)!;
  mailInvitation(ctx, auth, user.email, tenant, role.name, invitation);
  const { expiresAt } = invitation;
  auditUserChange(ctx, auth, req, { user, tenant }, 'user.invite', {
    scope: tenant.scope,
    partnerId: tenant.partnerId,
    orgId: tenant.scope === 'organization' ? tenant.orgId : null,
    roleId: role.id,
    roleName: role.name,
    ...access,
    reattached,
    expiresAt,
  });
  return managedSummary(ctx, auth, userId);
}

export function resendInvite(
  ctx: AppContext,
  auth: UserAuth,
  req: Request,
  userId: string,
): InviteResendResponse {
  requireAdminContext(ctx.db, auth, { fullPartnerAccess: true });
  const entry = managedUser(ctx, auth, userId);
  if (entry.user.status !== 'invited')
    throw badRequest('Only invited users can be sent a new invitation', 'NOT_INVITED');
  // One sentence: the console adds the wait from Retry-After ("Try again in 40 minutes.").
  ctx.limiter.enforce([[RESEND_LIMIT, entry.user.id]], 'Too many invitations sent to this user');
  const tenant = tenantOfAssociation(entry.association);
  const invitation = newInvitation(ctx, auth, entry.user);
  mailInvitation(ctx, auth, entry.user.email, tenant, entry.association.roleName, invitation);
  const { expiresAt } = invitation;
  auditUserChange(ctx, auth, req, { user: entry.user, tenant }, 'user.invite.resend', { expiresAt });
  return { success: true, expiresAt };
}
