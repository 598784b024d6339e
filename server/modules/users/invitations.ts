import type { Request, Response } from 'express';
import type { InvitationInfo, TokenPair } from '../../contract';
import type { AppContext } from '../../context';
import { badRequest, type HttpError } from '../../http/errors';
import { defineRoute, type AnyRoute } from '../../http/route';
import { auditUser } from '../../http/account';
import { hashPassword, passwordProblem, signInDetails } from '../auth';
import { issueSessionWithId } from '../sessions';
import { consumeEmailToken, findUsableEmailToken, retireUserTokens } from '../registration';
import { acceptInviteBody, invitationQuery } from './schemas';
import type { Membership, UserRow } from './store';
import { transaction } from '../../db/after-commit';
import { activateInvitedUser, membershipOf, tenantNameRow, touchLogin, userById } from './store';

// Accepting an invitation (public): the emailed link opens the console's acceptance page, which shows who invited
// the person where (GET /auth/invitation) and lets them choose a password (POST /auth/accept-invite). The token
// is single use; every failure answers the same 400 so a probe learns nothing about which part was wrong. Tokens
// are checked through the secret guard: failures count per address, like password reset links.

const INVALID = 'invalid or expired token';

interface Invitation {
  tokenHash: string;
  expiresAt: string;
  user: UserRow;
  membership: Membership;
  invitedByName: string | null;
}

function invalid(): HttpError {
  return badRequest(INVALID, 'INVALID_TOKEN');
}

/** A pending invitation, checked through the secret guard; every failure is the same 400. */
function loadInvitation(ctx: AppContext, req: Request, token: string): Invitation {
  const invitation = ctx.guard.check({ kind: 'email_token', req }, () => findInvitation(ctx, token));
  if (!invitation) throw invalid();
  return invitation;
}

/** A pending invitation: unconsumed, unexpired, for an account still invited and still attached to a tenant. */
function findInvitation(ctx: AppContext, token: string): Invitation | null {
  const row = findUsableEmailToken(ctx.db, token, ['invite']);
  if (!row?.user_id) return null;
  const user = userById(ctx.db, row.user_id);
  if (!user || user.status !== 'invited') return null;
  const membership = membershipOf(ctx.db, user.id);
  if (!membership) return null;
  const invitedBy = (JSON.parse(row.payload) as { invitedBy?: string }).invitedBy;
  const inviter = invitedBy ? userById(ctx.db, invitedBy) : undefined;
  return {
    tokenHash: row.token_hash,
    expiresAt: row.expires_at,
    user,
    membership,
    invitedByName: inviter?.name ?? null,
  };
}

function tenantNameOf(ctx: AppContext, membership: Membership): string {
  const name = membership.orgId
    ? tenantNameRow(ctx.db, { orgId: membership.orgId })
    : membership.partnerId
      ? tenantNameRow(ctx.db, { partnerId: membership.partnerId })
      : undefined;
  return name ?? 'Gatehouse';
}

async function accept(
  ctx: AppContext,
  req: Request,
  res: Response,
  body: { token: string; password: string; name?: string | undefined },
): Promise<TokenPair> {
  const invitation = loadInvitation(ctx, req, body.token);
  const { user, membership } = invitation;
  const problem = passwordProblem(body.password, { email: user.email });
  if (problem) throw badRequest(problem, 'WEAK_PASSWORD');
  // The same partner guard as a login: a suspended partner or a refused address does not get a session.
  if (membership.partnerId) ctx.tenantGuard.check(membership.partnerId, req, 'login');
  const passwordHash = await hashPassword(body.password);
  const at = new Date().toISOString();
  // Hashing yields the event loop: the token is consumed atomically here, so of two concurrent acceptances
  // exactly one sets the password.
  transaction(ctx.db, () => {
    if (!consumeEmailToken(ctx.db, invitation.tokenHash)) throw invalid();
    if (!activateInvitedUser(ctx.db, user.id, passwordHash, body.name ?? null, at)) throw invalid();
    retireUserTokens(ctx.db, user.id, ['invite']);
  });
  touchLogin(ctx.db, user.id, at);
  const active = userById(ctx.db, user.id)!;
  const { pair, sessionId } = await issueSessionWithId(ctx, req, res, active, false);
  auditUser(ctx, req, active, 'user.invite.accept', {
    details: { scope: membership.scope, partnerId: membership.partnerId, orgId: membership.orgId },
  });
  auditUser(ctx, req, active, 'user.login', {
    details: signInDetails({ method: 'invitation', secondFactor: null }),
    sessionId,
  });
  ctx.bus.emit('user.login', membership.orgId, { userId: active.id, email: active.email });
  return pair;
}

export function invitationRoutes(ctx: AppContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/auth/invitation',
      tag: 'auth',
      summary: 'Who invited the holder of this token where, for the acceptance page',
      auth: 'public',
      query: invitationQuery,
      responses: { 400: INVALID, 429: 'Too many invalid or expired links from this address' },
      handler: ({ req, query }): InvitationInfo => {
        const { user, membership, expiresAt, invitedByName } = loadInvitation(ctx, req, query.token);
        return {
          email: user.email,
          name: user.name,
          tenantName: tenantNameOf(ctx, membership),
          roleName: membership.roleName ?? '',
          expiresAt,
          invitedByName,
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/accept-invite',
      tag: 'auth',
      summary: 'Accept an invitation: set a password, activate the account and sign in',
      auth: 'public',
      body: acceptInviteBody,
      responses: {
        400: `${INVALID}, or the password is too weak`,
        429: 'Too many invalid or expired links from this address',
      },
      handler: ({ req, res, body }) => accept(ctx, req, res, body),
    }),
  ];
}
