import type { Request } from 'express';
import type { Role, UserListResponse, UserSummary } from '../../contract';
import type { AppContext } from '../../context';
import type { UserAuth } from '../../http/auth-context';
import { badRequest } from '../../http/errors';
import { paginated, type PageRequest } from '../../http/pagination';
import { effectivePermissions } from '../../http/permissions';
import { assertCovered, assignableRole, listRoles } from '../roles';
import { toUserSummary, userVisibility } from './directory';
import { listUsers } from './directory-store';
import {
  assertManageable,
  assertWithinOwnRestrictions,
  auditUserChange,
  managedSummary,
  managedUser,
} from './managed';
import { requireAdminContext, tenantOfAssociation } from './tenant';
import { transaction } from '../../db/after-commit';
import { setAssociationRole, setNameAndStatus } from './store';
import { endMembership } from './removal';
import { revokeUserSessions } from './revoke';

// User administration (spec 1, /users): the directory, status, removal and role assignment inside the caller's
// tenant. A change that narrows someone's access takes effect on their next request: their token_version is
// bumped, which ends every access token already issued (the console then refreshes into the new claims), and a
// disable or removal also revokes their refresh tokens.

export function listManagedUsers(
  ctx: AppContext,
  auth: UserAuth,
  query: PageRequest & {
    q?: string | undefined;
    status?: 'active' | 'invited' | 'disabled' | undefined;
    partnerId?: string | undefined;
    orgId?: string | undefined;
  },
): UserListResponse {
  requireAdminContext(ctx.db, auth, { fullPartnerAccess: true });
  const visibility = userVisibility(ctx.db, auth, query);
  const { rows, total } = listUsers(ctx.db, visibility, query, query);
  return paginated(rows.map(toUserSummary), query, total);
}

export function getManagedUser(ctx: AppContext, auth: UserAuth, userId: string): UserSummary {
  requireAdminContext(ctx.db, auth, { fullPartnerAccess: true });
  return managedSummary(ctx, auth, userId);
}

export function availableRoles(
  ctx: AppContext,
  auth: UserAuth,
  named: { partnerId?: string | undefined; orgId?: string | undefined },
): Role[] {
  requireAdminContext(ctx.db, auth, { fullPartnerAccess: true });
  return listRoles(ctx, auth, named);
}

export function updateUser(
  ctx: AppContext,
  auth: UserAuth,
  req: Request,
  userId: string,
  body: { name?: string | undefined; status?: 'active' | 'disabled' | undefined },
): UserSummary {
  requireAdminContext(ctx.db, auth, { fullPartnerAccess: true });
  if (body.name === undefined && body.status === undefined) throw badRequest('No updates provided');
  const entry = managedUser(ctx, auth, userId);
  const self = entry.user.id === auth.userId;
  if (self && body.status !== undefined) throw badRequest('You cannot change your own status');
  if (!self) assertManageable(ctx, auth, entry);
  if (body.status !== undefined && entry.user.status === 'invited')
    throw badRequest(
      'Invited users cannot be enabled or disabled; remove the user to withdraw the invitation',
    );
  const changedFields: string[] = [];
  if (body.name !== undefined && body.name !== entry.user.name) changedFields.push('name');
  if (body.status !== undefined && body.status !== entry.user.status) changedFields.push('status');
  if (changedFields.length > 0) {
    transaction(ctx.db, () => {
      setNameAndStatus(
        ctx.db,
        entry.user.id,
        body.name ?? entry.user.name,
        body.status ?? entry.user.status,
        new Date().toISOString(),
      );
      if (body.status === 'disabled' && entry.user.status !== 'disabled') {
        revokeUserSessions(ctx, entry.user.id);
        ctx.tokens.revokeAllForUser(entry.user.id, 'disabled');
      }
    });
    auditUserChange(
      ctx,
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
  return managedSummary(ctx, auth, entry.user.id);
}

export function removeUser(ctx: AppContext, auth: UserAuth, req: Request, userId: string): { success: true } {
  requireAdminContext(ctx.db, auth, { fullPartnerAccess: true });
  const entry = managedUser(ctx, auth, userId);
  if (entry.user.id === auth.userId) throw badRequest('You cannot remove yourself');
  assertManageable(ctx, auth, entry);
  const { association } = entry;
  transaction(ctx.db, () => {
    endMembership(ctx, entry.user.id, association, 'removed');
  });
  auditUserChange(
    ctx,
    auth,
    req,
    { user: entry.user, tenant: tenantOfAssociation(association) },
    'user.remove',
    {
      scope: association.scope,
      partnerId: association.partnerId,
      orgId: association.orgId,
      roleId: association.roleId,
      roleName: association.roleName,
    },
  );
  return { success: true };
}

export function assignRole(
  ctx: AppContext,
  auth: UserAuth,
  req: Request,
  userId: string,
  roleId: string,
): UserSummary {
  requireAdminContext(ctx.db, auth, { fullPartnerAccess: true });
  const entry = managedUser(ctx, auth, userId);
  if (entry.user.id === auth.userId) throw badRequest('You cannot change your own role');
  assertManageable(ctx, auth, entry);
  const { association } = entry;
  assertWithinOwnRestrictions(ctx, auth, association);
  const tenant = tenantOfAssociation(association);
  const role = assignableRole(ctx, roleId, tenant);
  assertCovered(ctx, auth, effectivePermissions(ctx.db, role.id));
  if (role.id === association.roleId) return toUserSummary(entry);
  transaction(ctx.db, () => {
    setAssociationRole(ctx.db, entry.user.id, association, role.id);
    // Access tokens carry the role id: end them so the next request re-authenticates into the new role.
    revokeUserSessions(ctx, entry.user.id);
  });
  auditUserChange(ctx, auth, req, { user: entry.user, tenant }, 'user.role.assign', {
    previousRoleId: association.roleId,
    previousRoleName: association.roleName,
    roleId: role.id,
    roleName: role.name,
  });
  return managedSummary(ctx, auth, entry.user.id);
}
