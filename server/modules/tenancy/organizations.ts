import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { Organization } from '../../contract';
import type { AppContext } from '../../context';
import type { AuthContext } from '../../http/auth-context';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../http/errors';
import { paginated, type PageRequest } from '../../http/pagination';
import { requireOrgAccess, resolveOrgScope } from '../../http/scope';
import { auditTenancy, definedKeys, requirePartnerOrSystem, SLUG_TAKEN } from './gates';
import { livePartner } from './partners';
import type { CreateOrganizationBody, UpdateOrganizationBody } from './schemas';
import { deepMerge } from './settings';
import { parseObject, toOrganization, type OrganizationColumns } from './rows';
import {
  countOrganizations,
  grantSelectedOrganization,
  insertOrganization,
  organizationById,
  organizationRowsInScope,
  organizationSlugTaken,
  organizationUserIds,
  pageOrganizations,
  revokeOrganizationApiKeys,
  updateOrganizationRow,
} from './store';
import { transaction } from '../../db/after-commit';
import { revokeUserSessions } from '../users';

// Organizations (spec 1, /orgs/organizations): the partner's cap, slugs unique per partner, and what a delete
// revokes (the organization's users, API keys and agent sockets).

export function organizationsInScope(ctx: AppContext, auth: AuthContext): { data: Organization[] } {
  return { data: organizationRowsInScope(ctx.db, resolveOrgScope(ctx.db, auth)).map(toOrganization) };
}

export function listOrganizations(
  ctx: AppContext,
  auth: AuthContext,
  partnerId: string | undefined,
  page: PageRequest,
) {
  requirePartnerOrSystem(auth);
  if (auth.scope === 'partner' && partnerId && partnerId !== auth.partnerId)
    throw forbidden('Access denied to this partner');
  const { rows, total } = pageOrganizations(ctx.db, resolveOrgScope(ctx.db, auth), partnerId, page);
  return paginated(rows.map(toOrganization), page, total);
}

function accessibleOrganization(ctx: AppContext, auth: AuthContext, id: string) {
  requirePartnerOrSystem(auth);
  requireOrgAccess(ctx.db, auth, id);
  const row = organizationById(ctx.db, id);
  if (!row) throw notFound('Organization not found');
  return row;
}

export function getOrganization(ctx: AppContext, auth: AuthContext, id: string): Organization {
  return toOrganization(accessibleOrganization(ctx, auth, id));
}

export function createOrganization(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  body: CreateOrganizationBody,
): Organization {
  requirePartnerOrSystem(auth);
  let partnerId: string;
  if (auth.scope === 'system') {
    if (!body.partnerId) throw badRequest('partnerId is required for system scope');
    partnerId = body.partnerId;
  } else {
    if (!auth.partnerId) throw badRequest('Partner context required to create organizations');
    if (body.partnerId && body.partnerId !== auth.partnerId) throw forbidden('Access denied to this partner');
    partnerId = auth.partnerId;
  }
  checkContract(body.contractStart ?? null, body.contractEnd ?? null);
  const at = new Date().toISOString();
  const id = randomUUID();
  let granted = false;
  transaction(ctx.db, () => {
    const partner = livePartner(ctx, partnerId);
    // Counted inside the transaction, so two concurrent creates cannot both slip under the cap.
    if (
      partner.max_organizations !== null &&
      countOrganizations(ctx.db, partnerId) >= partner.max_organizations
    )
      throw forbidden('Organization limit reached for this partner', 'ORGANIZATION_LIMIT_REACHED', {
        limit: partner.max_organizations,
      });
    if (organizationSlugTaken(ctx.db, partnerId, body.slug))
      throw conflict('An organization with this slug already exists for this partner', SLUG_TAKEN);
    insertOrganization(ctx.db, {
      id,
      partner_id: partnerId,
      name: body.name,
      slug: body.slug,
      type: body.type ?? 'customer',
      status: body.status ?? 'active',
      max_devices: body.maxDevices ?? null,
      settings: JSON.stringify(body.settings ?? {}),
      sso_config: '{}',
      contract_start: body.contractStart ?? null,
      contract_end: body.contractEnd ?? null,
      billing_contact: JSON.stringify(body.billingContact ?? {}),
      created_at: at,
      updated_at: at,
    });
    // A technician limited to `selected` organizations sees what they create: otherwise the new organization
    // would vanish from their own lists the moment it exists. `none` stays none (that is an explicit choice).
    if (auth.kind === 'user' && auth.scope === 'partner')
      granted = grantSelectedOrganization(ctx.db, partnerId, auth.userId, id);
  });
  const org = toOrganization(organizationById(ctx.db, id)!);
  auditTenancy(ctx, req, auth, {
    orgId: id,
    action: 'organization.create',
    resourceType: 'organization',
    resourceId: id,
    resourceName: org.name,
    details: {
      partnerId,
      status: org.status,
      type: org.type,
      ...(granted ? { grantedToCreator: true } : {}),
    },
  });
  return org;
}

export function updateOrganization(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  id: string,
  body: UpdateOrganizationBody,
): Organization {
  const row = accessibleOrganization(ctx, auth, id);
  if (body.partnerId !== undefined && body.partnerId !== row.partner_id)
    throw badRequest('partnerId cannot be changed', 'IMMUTABLE_FIELD');
  const { partnerId: _ignored, ...fields } = body;
  const changedFields = definedKeys(fields);
  if (changedFields.length === 0) throw badRequest('No updates provided');
  checkContract(
    fields.contractStart !== undefined ? fields.contractStart : row.contract_start,
    fields.contractEnd !== undefined ? fields.contractEnd : row.contract_end,
  );
  const at = new Date().toISOString();
  transaction(ctx.db, () => {
    if (fields.slug !== undefined && organizationSlugTaken(ctx.db, row.partner_id, fields.slug, id))
      throw conflict('An organization with this slug already exists for this partner', SLUG_TAKEN);
    const columns: OrganizationColumns = {
      name: fields.name,
      slug: fields.slug,
      type: fields.type,
      status: fields.status,
      max_devices: fields.maxDevices,
      contract_start: fields.contractStart,
      contract_end: fields.contractEnd,
      settings: fields.settings
        ? JSON.stringify(deepMerge(parseObject(row.settings), fields.settings))
        : undefined,
      sso_config: fields.ssoConfig ? JSON.stringify(fields.ssoConfig) : undefined,
      billing_contact: fields.billingContact ? JSON.stringify(fields.billingContact) : undefined,
      updated_at: at,
    };
    updateOrganizationRow(ctx.db, id, columns);
  });
  const org = toOrganization(organizationById(ctx.db, id)!);
  auditTenancy(ctx, req, auth, {
    orgId: id,
    action: 'organization.update',
    resourceType: 'organization',
    resourceId: id,
    resourceName: org.name,
    details: { changedFields },
  });
  return org;
}

export function deleteOrganization(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  id: string,
): { success: true } {
  const row = accessibleOrganization(ctx, auth, id);
  const at = new Date().toISOString();
  const revoked = transaction(ctx.db, () => {
    updateOrganizationRow(ctx.db, id, { deleted_at: at, updated_at: at });
    // The organization's own users and keys lose their only tenant: end their sessions and keys now rather
    // than letting a 15-minute access token or an API key keep working against a deleted organization.
    const users = organizationUserIds(ctx.db, id);
    for (const userId of users) {
      ctx.tokens.revokeAllForUser(userId, 'organization_deleted');
      revokeUserSessions(ctx, userId);
    }
    return {
      users: users.length,
      apiKeys: revokeOrganizationApiKeys(ctx.db, id, 'organization_deleted', at),
    };
  });
  // Its agents' credentials stop working with the organization; their open sockets close now, not at the
  // hub's next check.
  ctx.agentHub.disconnectOrg(id, 'organization deleted');
  auditTenancy(ctx, req, auth, {
    orgId: id,
    action: 'organization.delete',
    resourceType: 'organization',
    resourceId: id,
    resourceName: row.name,
    details: { partnerId: row.partner_id, revoked },
  });
  return { success: true };
}

function checkContract(start: string | null, end: string | null): void {
  if (start && end && Date.parse(end) < Date.parse(start))
    throw new HttpError(400, 'contractEnd must not be before contractStart', 'VALIDATION_ERROR');
}
