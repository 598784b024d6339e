import type { Request } from 'express';
import type { AppContext } from '../context';
import type { UserRow } from '../modules/users';
import { clientInfo } from './client-info';
import { unauthorized } from './errors';
import type { AuditSubject, GuardAccount } from './guard';
import { membershipOf, userById } from '../modules/users';

// A signed-in user acting on their own account (sign-in, MFA, password, phone, setup, invitations, PAM approver
// devices): the row behind the session, the audit entry of their own event, and their key in the secret guard.
// Shared by several identity modules, so it lives here rather than inside any one of them.

/** The user row behind a live session; gone means the account was deleted after the token was issued. */
export function requireUser(ctx: AppContext, userId: string): UserRow {
  const user = userById(ctx.db, userId);
  if (!user) throw unauthorized('Session has been revoked', 'TOKEN_REVOKED');
  return user;
}

/** The audit chain of a user's own events: their organization's, their partner's, or the platform's. */
function userChain(ctx: AppContext, userId: string): { orgId: string | null; partnerId: string | null } {
  const membership = membershipOf(ctx.db, userId);
  if (membership?.orgId) return { orgId: membership.orgId, partnerId: null };
  return { orgId: null, partnerId: membership?.partnerId ?? null };
}

/** A user as the actor and resource of their own events, in their own chain. */
function userSubject(ctx: AppContext, user: Pick<UserRow, 'id' | 'email'>): AuditSubject {
  return {
    ...userChain(ctx, user.id),
    actorType: 'user',
    actorId: user.id,
    actorEmail: user.email,
    resourceType: 'user',
    resourceId: user.id,
    resourceName: user.email,
  };
}

/** Records an event a user caused on their own account, with the request's address and user agent. */
export function auditUser(
  ctx: AppContext,
  req: Request,
  user: Pick<UserRow, 'id' | 'email'>,
  action: string,
  extra: {
    details?: Record<string, unknown>;
    result?: 'success' | 'failure' | 'denied';
    errorMessage?: string;
    /** The session the event began (a sign-in), so the session can later say how it was signed in. */
    sessionId?: string;
  } = {},
): void {
  ctx.audit.record({ ...userSubject(ctx, user), action, ...clientInfo(req), ...extra });
}

/** A user's secrets (password, MFA codes) are counted and audited under their account in the secret guard. */
export function guardAccount(ctx: AppContext, user: Pick<UserRow, 'id' | 'email'>): GuardAccount {
  return { key: user.id, audit: userSubject(ctx, user) };
}
