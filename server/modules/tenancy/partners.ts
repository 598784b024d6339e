import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { Partner } from '../../contract';
import type { AppContext } from '../../context';
import type { AuthContext } from '../../http/auth-context';
import { badRequest, conflict, notFound } from '../../http/errors';
import { paginated, type PageRequest } from '../../http/pagination';
import { requireFullPartnerAccess } from '../../http/scope';
import { cancelPartnerUninstalls, queuePartnerUninstalls, severPartnerAgents } from '../agents';
import {
  auditTenancy,
  definedKeys,
  isUniqueViolation,
  requirePartnerScope,
  requireSystem,
  SLUG_TAKEN,
} from './gates';
import type { CreatePartnerBody, UpdateOwnPartnerBody, UpdatePartnerBody } from './schemas';
import { mergedSettings, sentPaths, serviceManagementColumns } from './settings';
import { toPartner, type PartnerColumns, type PartnerRow } from './rows';
import {
  insertPartner,
  listPartnerRows,
  partnerById,
  partnerSlugTaken,
  partnerUserIds,
  revokePartnerApiKeys,
  softDeletePartnerOrganizations,
  updatePartnerRow,
} from './store';
import { transaction } from '../../db/after-commit';
import { revokeUserSessions } from '../users';

// Partners (spec 1, /orgs/partners and /orgs/partners/me): the platform's view of every partner, a partner's
// own settings, and what a status change or a delete revokes (offboarding, churn, agents).

export function listPartners(ctx: AppContext, auth: AuthContext, page: PageRequest) {
  requireSystem(auth);
  const { rows, total } = listPartnerRows(ctx.db, page);
  return paginated(rows.map(toPartner), page, total);
}

export function livePartner(ctx: AppContext, id: string): PartnerRow {
  const row = partnerById(ctx.db, id);
  if (!row) throw notFound('Partner not found');
  return row;
}

export function getPartner(ctx: AppContext, auth: AuthContext, id: string): Partner {
  requireSystem(auth);
  return toPartner(livePartner(ctx, id));
}

export function createPartner(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  body: CreatePartnerBody,
): Partner {
  requireSystem(auth);
  const at = new Date().toISOString();
  const id = randomUUID();
  let adminRoleId: string;
  try {
    adminRoleId = transaction(ctx.db, () => {
      if (partnerSlugTaken(ctx.db, body.slug))
        throw conflict('A partner with this slug already exists', SLUG_TAKEN);
      return insertPartner(ctx.db, {
        id,
        name: body.name,
        slug: body.slug,
        type: body.type ?? 'msp',
        plan: body.plan ?? 'free',
        max_organizations: body.maxOrganizations ?? null,
        max_devices: body.maxDevices ?? null,
        settings: '{}',
        service_management_mode: 'native',
        service_management_psa_connection_id: null,
        sso_config: '{}',
        billing_email: body.billingEmail ?? null,
        status: 'active',
        created_at: at,
        updated_at: at,
      });
    });
  } catch (err) {
    // Two creates racing for one slug: the UNIQUE column decides, the loser gets the same 409.
    if (isUniqueViolation(err)) throw conflict('A partner with this slug already exists', SLUG_TAKEN);
    throw err;
  }
  const partner = toPartner(livePartner(ctx, id));
  auditTenancy(ctx, req, auth, {
    orgId: null,
    partnerId: id,
    action: 'partner.create',
    resourceType: 'partner',
    resourceId: id,
    resourceName: partner.name,
    details: { slug: partner.slug, type: partner.type, plan: partner.plan, adminRoleId },
  });
  return partner;
}

export function updatePartner(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  id: string,
  body: UpdatePartnerBody,
): Partner {
  requireSystem(auth);
  const changedFields = definedKeys(body);
  if (changedFields.length === 0) throw badRequest('No updates provided');
  const at = new Date().toISOString();
  let outcome: {
    statusChange: { from: string; to: string } | null;
    revoked: { users: number; apiKeys: number } | null;
    agents: { uninstallsQueued?: number; uninstallsCancelled?: number; credentialsSevered?: number } | null;
  };
  try {
    outcome = transaction(ctx.db, () => {
      const row = livePartner(ctx, id);
      if (body.slug !== undefined && body.slug !== row.slug && partnerSlugTaken(ctx.db, body.slug, id))
        throw conflict('A partner with this slug already exists', SLUG_TAKEN);
      const columns: PartnerColumns = {
        name: body.name,
        slug: body.slug,
        type: body.type,
        plan: body.plan,
        max_organizations: body.maxOrganizations,
        max_devices: body.maxDevices,
        billing_email: body.billingEmail,
        sso_config: body.ssoConfig === undefined ? undefined : JSON.stringify(body.ssoConfig),
        ...serviceManagementColumns(row, body),
        updated_at: at,
      };
      // Platform administrators are exempt from the allowlist, so no self-lockout check here.
      if (body.settings)
        columns.settings = JSON.stringify(mergedSettings(ctx.config, row, body.settings, null));
      let statusChange: { from: string; to: string } | null = null;
      let revoked: { users: number; apiKeys: number } | null = null;
      let agents: {
        uninstallsQueued?: number;
        uninstallsCancelled?: number;
        credentialsSevered?: number;
      } | null = null;
      if (body.status !== undefined && body.status !== row.status) {
        statusChange = { from: row.status, to: body.status };
        columns.status = body.status;
        if (body.status === 'offboarding') {
          columns.offboarding_started_at = at;
          revoked = revokePartnerAccess(ctx, id, 'partner_offboarding', at);
          // Agents stay, narrowed to heartbeats, and collect their uninstall (spec 1, Partner status).
          const queued = queuePartnerUninstalls(ctx.db, id, at);
          if (queued) agents = { uninstallsQueued: queued };
        } else if (row.status === 'offboarding') {
          // Leaving offboarding before the reaper finalizes (normally back to `active`) cancels the drain: the
          // users sign in again. API keys revoked at the start stay revoked, because spec 1 makes `revoked`
          // permanent for a key; the partner issues new ones. Agents get full access back with the status;
          // the uninstalls no agent collected yet are cancelled.
          columns.offboarding_started_at = null;
          const cancelled = cancelPartnerUninstalls(ctx.db, id, at);
          if (cancelled) agents = { uninstallsCancelled: cancelled };
        }
        // Churn severs the agent credentials for good, however the partner got there (spec 1: the reaper's
        // churn severs them too): reactivating the partner later must not bring its agents back.
        if (body.status === 'churned') {
          const severed = severPartnerAgents(ctx.db, id);
          if (severed) agents = { ...agents, credentialsSevered: severed };
        }
      }
      updatePartnerRow(ctx.db, id, columns);
      return { statusChange, revoked, agents };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('A partner with this slug already exists', SLUG_TAKEN);
    throw err;
  }
  const { statusChange, revoked, agents } = outcome;
  // Any status but active refuses agent sockets: the live ones close now (offboarded agents keep heartbeating).
  if (statusChange && statusChange.to !== 'active') {
    ctx.agentHub.disconnectPartner(id, `partner ${statusChange.to}`);
  }
  const partner = toPartner(livePartner(ctx, id));
  auditTenancy(ctx, req, auth, {
    orgId: null,
    partnerId: id,
    action: 'partner.update',
    resourceType: 'partner',
    resourceId: id,
    resourceName: partner.name,
    details: {
      changedFields,
      ...(statusChange ? { status: statusChange } : {}),
      ...(revoked ? { revoked } : {}),
      ...(agents ? { agents } : {}),
    },
  });
  return partner;
}

export function deletePartner(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  id: string,
): { success: true } {
  requireSystem(auth);
  const at = new Date().toISOString();
  const outcome = transaction(ctx.db, () => {
    const row = livePartner(ctx, id);
    updatePartnerRow(ctx.db, id, { deleted_at: at, updated_at: at });
    // Revoked first: the user and key queries follow the organizations, which the cascade below deletes.
    const revoked = revokePartnerAccess(ctx, id, 'partner_deleted', at);
    // A deleted partner's organizations go with it (soft as well), so no list shows customers of a partner
    // that no longer exists, and the scope resolver, which reads organizations.deleted_at, agrees everywhere.
    const orgs = softDeletePartnerOrganizations(ctx.db, id, at);
    return { row, orgs, revoked };
  });
  ctx.agentHub.disconnectPartner(id, 'partner deleted');
  auditTenancy(ctx, req, auth, {
    orgId: null,
    partnerId: id,
    action: 'partner.delete',
    resourceType: 'partner',
    resourceId: id,
    resourceName: outcome.row.name,
    details: { organizationsDeleted: outcome.orgs.length, revoked: outcome.revoked },
  });
  for (const org of outcome.orgs) {
    auditTenancy(ctx, req, auth, {
      orgId: org.id,
      action: 'organization.delete',
      resourceType: 'organization',
      resourceId: org.id,
      resourceName: org.name,
      details: { partnerId: id, cause: 'partner.delete' },
    });
  }
  return { success: true };
}

/**
 * Ends every way in for the partner's people and integrations at once: each user's refresh tokens are revoked
 * and their token version bumped (every access token dies), and every API key of its organizations is revoked.
 * Runs inside the caller's transaction. OAuth grants do not exist yet; when they do they are revoked here too.
 */
function revokePartnerAccess(
  ctx: AppContext,
  partnerId: string,
  reason: string,
  at: string,
): { users: number; apiKeys: number } {
  const users = partnerUserIds(ctx.db, partnerId);
  for (const userId of users) {
    ctx.tokens.revokeAllForUser(userId, reason);
    revokeUserSessions(ctx, userId);
  }
  return { users: users.length, apiKeys: revokePartnerApiKeys(ctx.db, partnerId, reason, at) };
}

export function ownPartner(ctx: AppContext, auth: AuthContext): Partner {
  requirePartnerScope(auth);
  return toPartner(livePartner(ctx, auth.partnerId));
}

export function updateOwnPartner(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  body: UpdateOwnPartnerBody,
): Partner {
  requirePartnerScope(auth);
  requireFullPartnerAccess(ctx.db, auth);
  const sent = definedKeys(body);
  if (sent.length === 0) throw badRequest('No updates provided');
  const at = new Date().toISOString();
  const partnerId = auth.partnerId;
  transaction(ctx.db, () => {
    const row = livePartner(ctx, partnerId);
    const columns: PartnerColumns = {
      name: body.name,
      billing_email: body.billingEmail,
      ...serviceManagementColumns(row, body),
      updated_at: at,
    };
    if (body.settings) columns.settings = JSON.stringify(mergedSettings(ctx.config, row, body.settings, req));
    updatePartnerRow(ctx.db, partnerId, columns);
  });
  const partner = toPartner(livePartner(ctx, partnerId));
  const changedFields = sent.flatMap((key) =>
    key === 'settings' && body.settings ? sentPaths(body.settings, 'settings.', 2) : [key],
  );
  // Field names only: the values (contact details, address lists) stay in the partner record.
  auditTenancy(ctx, req, auth, {
    orgId: null,
    partnerId,
    action: 'partner.settings.update',
    resourceType: 'partner',
    resourceId: partnerId,
    resourceName: partner.name,
    details: { changedFields },
  });
  return partner;
}
