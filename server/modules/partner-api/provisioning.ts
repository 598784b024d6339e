import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { z } from 'zod';
import type {
  CursorPage,
  PartnerApiEnrollmentKey,
  PartnerApiOrganization,
  PartnerApiSite,
} from '../../contract/partner-api';
import type { AppContext } from '../../context';
import { transaction } from '../../db/after-commit';
import { badRequest, HttpError, notFound } from '../../http/errors';
import { clientInfo } from '../../http/client-info';
import { insertEnrollmentKey } from '../enrollment-keys';
import {
  canonicalTimeZone,
  countOrganizations,
  insertOrganization,
  insertSite,
  organizationById,
  organizationsAfter,
  organizationSlugTaken,
  partnerById,
  siteById,
  sitesAfter,
  type OrganizationRow,
  type SiteRow,
} from '../tenancy';
import type { PartnerCaller } from './authenticate';
import { cursorPage, decodeCursor } from './cursor';
import type {
  cursorQuery,
  provisionEnrollmentKeyBody,
  provisionOrganizationBody,
  provisionSiteBody,
  siteListQuery,
} from './schemas';

// The five /partner-api endpoints (spec 3, Partner provisioning interface). The partner is always the key's,
// never the body's: every read and write below is bound to caller.partnerId, and an organization of another
// partner is answered exactly like a missing one.

const ORG_NOT_FOUND = 'Organization not found';

const toOrganization = (row: OrganizationRow): PartnerApiOrganization => ({
  id: row.id,
  name: row.name,
  slug: row.slug,
  type: row.type,
  status: row.status,
  createdAt: row.created_at,
});

const toSite = (row: SiteRow): PartnerApiSite => ({
  orgId: row.org_id,
  siteId: row.id,
  name: row.name,
  timezone: row.timezone,
  createdAt: row.created_at,
});

function audit(
  ctx: AppContext,
  req: Request,
  caller: PartnerCaller,
  entry: { orgId: string; action: string; resourceType: string; resourceId: string; resourceName: string },
): void {
  ctx.audit.record({
    ...entry,
    actorType: 'api_key',
    actorId: caller.keyId,
    actorEmail: null,
    ...clientInfo(req),
    details: { partnerId: caller.partnerId, via: 'partner-api', keyName: caller.keyName },
  });
}

function ownOrganization(ctx: AppContext, caller: PartnerCaller, orgId: string): OrganizationRow {
  const org = organizationById(ctx.db, orgId);
  if (!org || org.partner_id !== caller.partnerId) throw notFound(ORG_NOT_FOUND);
  return org;
}

export function listOrganizations(
  ctx: AppContext,
  caller: PartnerCaller,
  query: z.infer<typeof cursorQuery>,
): CursorPage<PartnerApiOrganization> {
  const rows = organizationsAfter(ctx.db, caller.partnerId, decodeCursor(query.cursor), query.limit + 1);
  return cursorPage(rows, query.limit, toOrganization);
}

export function listSites(
  ctx: AppContext,
  caller: PartnerCaller,
  query: z.infer<typeof siteListQuery>,
): CursorPage<PartnerApiSite> {
  if (query.orgId) ownOrganization(ctx, caller, query.orgId);
  const rows = sitesAfter(
    ctx.db,
    caller.partnerId,
    query.orgId ?? null,
    decodeCursor(query.cursor),
    query.limit + 1,
  );
  return cursorPage(rows, query.limit, toSite);
}

export function createOrganization(
  ctx: AppContext,
  req: Request,
  caller: PartnerCaller,
  body: z.infer<typeof provisionOrganizationBody>,
): PartnerApiOrganization {
  const at = new Date().toISOString();
  const id = randomUUID();
  transaction(ctx.db, () => {
    const partner = partnerById(ctx.db, caller.partnerId);
    if (!partner) throw notFound('Partner not found');
    // Counted inside the transaction, so two concurrent creates cannot both slip under the cap.
    if (
      partner.max_organizations !== null &&
      countOrganizations(ctx.db, partner.id) >= partner.max_organizations
    )
      throw new HttpError(
        409,
        'Organization limit reached for this partner',
        'partner_provisioning_org_limit_reached',
        {
          limit: partner.max_organizations,
          retryable: false,
        },
      );
    if (organizationSlugTaken(ctx.db, partner.id, body.slug))
      throw new HttpError(
        409,
        'An organization with this slug already exists for this partner',
        'partner_provisioning_slug_conflict',
      );
    insertOrganization(ctx.db, {
      id,
      partner_id: partner.id,
      name: body.name,
      slug: body.slug,
      type: body.type ?? 'customer',
      status: body.status ?? 'active',
      max_devices: null,
      settings: '{}',
      sso_config: '{}',
      contract_start: null,
      contract_end: null,
      billing_contact: '{}',
      created_at: at,
      updated_at: at,
    });
  });
  const org = organizationById(ctx.db, id)!;
  audit(ctx, req, caller, {
    orgId: id,
    action: 'organization.create',
    resourceType: 'organization',
    resourceId: id,
    resourceName: org.name,
  });
  return toOrganization(org);
}

export function createSite(
  ctx: AppContext,
  req: Request,
  caller: PartnerCaller,
  body: z.infer<typeof provisionSiteBody>,
): PartnerApiSite {
  const org = ownOrganization(ctx, caller, body.orgId);
  const timezone = body.timezone === undefined ? 'UTC' : canonicalTimeZone(body.timezone);
  if (!timezone) throw badRequest(`timezone: unknown IANA time zone: ${body.timezone}`, 'VALIDATION_ERROR');
  const at = new Date().toISOString();
  const site: SiteRow = {
    id: randomUUID(),
    org_id: org.id,
    name: body.name,
    timezone,
    address: JSON.stringify(body.address ?? {}),
    contact: JSON.stringify(body.contact ?? {}),
    settings: '{}',
    created_at: at,
    updated_at: at,
  };
  insertSite(ctx.db, site);
  audit(ctx, req, caller, {
    orgId: org.id,
    action: 'site.create',
    resourceType: 'site',
    resourceId: site.id,
    resourceName: site.name,
  });
  return toSite(site);
}

export function createEnrollmentKey(
  ctx: AppContext,
  req: Request,
  caller: PartnerCaller,
  body: z.infer<typeof provisionEnrollmentKeyBody>,
): PartnerApiEnrollmentKey {
  const org = ownOrganization(ctx, caller, body.orgId);
  if (body.siteId) {
    const site = siteById(ctx.db, body.siteId);
    if (!site || site.org_id !== org.id) throw badRequest('Site does not belong to this organization');
  }
  const { row, key } = insertEnrollmentKey(ctx, {
    orgId: org.id,
    siteId: body.siteId ?? null,
    name: body.name,
    maxUsage: body.maxUsage,
    expiresAt: new Date(Date.now() + body.ttlMinutes * 60_000).toISOString(),
    createdBy: caller.keyId,
  });
  audit(ctx, req, caller, {
    orgId: org.id,
    action: 'enrollment_key.create',
    resourceType: 'enrollment_key',
    resourceId: row.id,
    resourceName: row.name,
  });
  return {
    id: row.id,
    orgId: row.org_id,
    siteId: row.site_id,
    name: row.name,
    maxUsage: body.maxUsage,
    expiresAt: row.expires_at,
    key,
  };
}
