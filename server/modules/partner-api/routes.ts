import type { Response } from 'express';
import type { PartnerKeyScope } from '../../contract/partner-api';
import type { AppContext } from '../../context';
import { PERMISSIONS } from '../../http/permissions';
import { defineRoute, type AnyRoute } from '../../http/route';
import { drawWrite, requireScope, type PartnerCaller } from './authenticate';
import { createPartnerKey, listPartnerKeys, revokePartnerKey, rotatePartnerKey } from './keys';
import {
  createEnrollmentKey,
  createOrganization,
  createSite,
  listOrganizations,
  listSites,
} from './provisioning';
import {
  createPartnerKeyBody,
  cursorQuery,
  partnerKeyParams,
  provisionEnrollmentKeyBody,
  provisionOrganizationBody,
  provisionSiteBody,
  siteListQuery,
} from './schemas';

// /partner-keys (partner administrators, MFA) and /partner-api (the partner's service principal, `auth:
// 'partner_key'`: a `psk_` key and nothing else, checked before the body is read).

const KEYS_TAG = 'partner-keys';
const API_TAG = 'partner-api';
const ADMIN = [PERMISSIONS.ORGANIZATIONS_WRITE, PERMISSIONS.SITES_WRITE] as const;
const ADMIN_REFUSALS = {
  403: 'MFA required; Partner scope required; Full partner organization access required',
};
const KEY_REFUSALS = {
  401: 'Missing X-API-Key header; a partner provisioning key (psk_) is required; invalid, revoked or expired key',
  403: 'The key lacks the scope; the partner is not active',
};
const WRITE_REFUSALS = { ...KEY_REFUSALS, 429: 'Partner write limit reached (Retry-After set)' };

/** The key's caller with the scope checked, and for writes one draw from the key's write bucket. */
function allowed(
  ctx: AppContext,
  caller: PartnerCaller,
  res: Response,
  scope: PartnerKeyScope,
  write: boolean,
): PartnerCaller {
  requireScope(caller, scope);
  if (write) drawWrite(ctx, caller, res);
  return caller;
}

export function partnerApiRoutes(ctx: AppContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/partner-keys',
      tag: KEYS_TAG,
      summary: 'Create a partner provisioning key (the raw psk_ key is in this answer only)',
      auth: 'user',
      mfa: true,
      permission: ADMIN,
      body: createPartnerKeyBody,
      status: 201,
      responses: ADMIN_REFUSALS,
      handler: ({ req, auth, body }) => createPartnerKey(ctx, req, auth, body),
    }),
    defineRoute({
      method: 'get',
      path: '/partner-keys',
      tag: KEYS_TAG,
      summary: "The partner's provisioning keys (never the raw key)",
      auth: 'user',
      mfa: true,
      permission: ADMIN,
      responses: ADMIN_REFUSALS,
      handler: ({ auth }) => listPartnerKeys(ctx, auth),
    }),
    defineRoute({
      method: 'post',
      path: '/partner-keys/:id/rotate',
      tag: KEYS_TAG,
      summary: 'Replace a key’s secret (the old one stops at once; the new raw key is in this answer only)',
      auth: 'user',
      mfa: true,
      permission: ADMIN,
      params: partnerKeyParams,
      responses: {
        ...ADMIN_REFUSALS,
        400: 'Cannot rotate a revoked partner key',
        404: 'Partner key not found',
      },
      handler: ({ req, auth, params }) => rotatePartnerKey(ctx, req, auth, params.id),
    }),
    defineRoute({
      method: 'delete',
      path: '/partner-keys/:id',
      tag: KEYS_TAG,
      summary: 'Revoke a partner provisioning key',
      auth: 'user',
      mfa: true,
      permission: ADMIN,
      params: partnerKeyParams,
      responses: { ...ADMIN_REFUSALS, 404: 'Partner key not found' },
      handler: ({ req, auth, params }) => revokePartnerKey(ctx, req, auth, params.id),
    }),
    defineRoute({
      method: 'get',
      path: '/partner-api/organizations',
      tag: API_TAG,
      summary: "The key partner's organizations, oldest first (cursor pages, limit up to 500)",
      auth: 'partner_key',
      query: cursorQuery,
      responses: KEY_REFUSALS,
      handler: ({ res, auth, query }) =>
        listOrganizations(ctx, allowed(ctx, auth, res, 'organizations:read', false), query),
    }),
    defineRoute({
      method: 'get',
      path: '/partner-api/sites',
      tag: API_TAG,
      summary: "The key partner's sites, oldest first (cursor pages, limit up to 500; orgId narrows)",
      auth: 'partner_key',
      query: siteListQuery,
      responses: KEY_REFUSALS,
      handler: ({ res, auth, query }) => listSites(ctx, allowed(ctx, auth, res, 'sites:read', false), query),
    }),
    defineRoute({
      method: 'post',
      path: '/partner-api/organizations',
      tag: API_TAG,
      summary: "Create an organization under the key's partner",
      auth: 'partner_key',
      body: provisionOrganizationBody,
      status: 201,
      responses: {
        ...WRITE_REFUSALS,
        409: 'partner_provisioning_slug_conflict; partner_provisioning_org_limit_reached (not retryable)',
      },
      handler: ({ req, res, auth, body }) =>
        createOrganization(ctx, req, allowed(ctx, auth, res, 'organizations:write', true), body),
    }),
    defineRoute({
      method: 'post',
      path: '/partner-api/sites',
      tag: API_TAG,
      summary: "Create a site in one of the key partner's organizations",
      auth: 'partner_key',
      body: provisionSiteBody,
      status: 201,
      responses: { ...WRITE_REFUSALS, 404: 'Organization not found' },
      handler: ({ req, res, auth, body }) =>
        createSite(ctx, req, allowed(ctx, auth, res, 'sites:write', true), body),
    }),
    defineRoute({
      method: 'post',
      path: '/partner-api/enrollment-keys',
      tag: API_TAG,
      summary:
        'Create an enrollment key (maxUsage 1-100000, ttlMinutes 1-525600); the raw key is in this answer only',
      auth: 'partner_key',
      body: provisionEnrollmentKeyBody,
      status: 201,
      responses: { ...WRITE_REFUSALS, 404: 'Organization not found' },
      handler: ({ req, res, auth, body }) =>
        createEnrollmentKey(ctx, req, allowed(ctx, auth, res, 'enrollment-keys:write', true), body),
    }),
  ];
}
