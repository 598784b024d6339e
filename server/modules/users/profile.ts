import type { Request } from 'express';
import type { UserProfile } from '../../contract';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/account';
import type { UserAuth } from '../../http/auth-context';
import { badRequest } from '../../http/errors';
import { auditCaller } from '../audit';
import { toUserProfile } from './directory';
import { membershipOf, updateProfileRow, userById } from './store';

// The signed-in user's own profile (spec 1, /users/me).

export function me(ctx: AppContext, auth: UserAuth): UserProfile {
  return toUserProfile(requireUser(ctx, auth.userId));
}

export function updateMe(
  ctx: AppContext,
  auth: UserAuth,
  req: Request,
  body: { name?: string | undefined; avatarUrl?: string | null | undefined },
): UserProfile {
  const user = requireUser(ctx, auth.userId);
  const changes: Array<[column: 'name' | 'avatar_url', value: string | null, field: string]> = [];
  if (body.name !== undefined) changes.push(['name', body.name, 'name']);
  if (body.avatarUrl !== undefined) changes.push(['avatar_url', body.avatarUrl, 'avatarUrl']);
  if (changes.length === 0) throw badRequest('No updates provided');
  updateProfileRow(
    ctx.db,
    user.id,
    changes.map(([column, value]) => [column, value]),
    new Date().toISOString(),
  );
  const membership = membershipOf(ctx.db, user.id);
  auditCaller(ctx, req, auth, {
    ...(membership?.orgId
      ? { orgId: membership.orgId, partnerId: null }
      : { orgId: null, partnerId: membership?.partnerId ?? null }),
    action: 'user.profile.update',
    resourceType: 'user',
    resourceId: user.id,
    resourceName: user.email,
    details: { changedFields: changes.map(([, , f]) => f) },
  });
  return toUserProfile(userById(ctx.db, user.id)!);
}
