import { z } from 'zod';
import { PERMISSIONS } from '../../http/permissions';
import { defineRoute, type AnyRoute } from '../../http/route';
import { addDomain, listDomains, removeDomain, verifyDomain } from './domains';
import type { SsoRuntime } from './runtime';
import { domainBody, domainListQuery } from './schemas';

// /sso/domains, beyond the spec's 13 endpoints: rules 12 and 14 need an organization's email domain proven by DNS,
// and the spec leaves open how. Same permissions as the providers they serve.

const TAG = 'sso';
const idParams = z.object({ id: z.uuid('id must be a UUID') });

export function ssoDomainRoutes(rt: SsoRuntime): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/sso/domains',
      tag: TAG,
      summary: "An organization's email domains with the TXT record that proves each",
      auth: 'user',
      permission: PERMISSIONS.USERS_READ,
      query: domainListQuery,
      handler: ({ auth, query }) => listDomains(rt, auth, query.orgId),
    }),
    defineRoute({
      method: 'post',
      path: '/sso/domains',
      tag: TAG,
      summary: 'Claim an email domain for an organization; answers the TXT record to publish',
      auth: 'user',
      permission: PERMISSIONS.USERS_WRITE,
      mfa: true,
      body: domainBody,
      status: 201,
      handler: ({ req, auth, body }) => addDomain(rt, req, auth, body.orgId, body.domain),
    }),
    defineRoute({
      method: 'post',
      path: '/sso/domains/:id/verify',
      tag: TAG,
      summary: 'Look up the TXT record now and mark the domain verified when it is there',
      auth: 'user',
      permission: PERMISSIONS.USERS_WRITE,
      mfa: true,
      params: idParams,
      responses: { 400: 'TXT record not found', 404: 'Domain not found' },
      handler: ({ req, auth, params }) => verifyDomain(rt, req, auth, params.id),
    }),
    defineRoute({
      method: 'delete',
      path: '/sso/domains/:id',
      tag: TAG,
      summary: 'Remove a domain claim',
      auth: 'user',
      permission: PERMISSIONS.USERS_WRITE,
      mfa: true,
      params: idParams,
      responses: { 404: 'Domain not found' },
      handler: ({ req, auth, params }) => removeDomain(rt, req, auth, params.id),
    }),
  ];
}
