import { PERMISSIONS } from '../../http/permissions';
import { defineRoute, type AnyRoute } from '../../http/route';
import type { SsoPresetsResponse } from '../../contract';
import { PROVIDER_NOT_FOUND } from './access';
import { SSO_PRESETS } from './presets';
import {
  createProvider,
  enforcementPreview,
  getProvider,
  listProviders,
  removeProvider,
  SAML_UNSUPPORTED,
  setProviderStatus,
  testProvider,
  updateProviderFields,
} from './providers';
import type { SsoRuntime } from './runtime';
import {
  createProviderBody,
  listProvidersQuery,
  providerIdParams,
  statusBody,
  updateProviderBody,
} from './schemas';

// /sso provider administration (spec 1). The spec names no permission; a provider decides who signs in to a
// tenant and with which role, so it is user administration: reading needs users:read, changing users:write and
// (rule 5: provider changes) an MFA session.

const TAG = 'sso';
const NOT_FOUND = { 404: PROVIDER_NOT_FOUND };

export function ssoProviderRoutes(rt: SsoRuntime): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/sso/presets',
      tag: TAG,
      summary: 'Identity-provider presets (four OIDC, five SAML) with scopes and attribute mappings',
      auth: 'user',
      handler: (): SsoPresetsResponse => ({ data: [...SSO_PRESETS] }),
    }),
    defineRoute({
      method: 'get',
      path: '/sso/providers',
      tag: TAG,
      summary:
        'Providers of the organizations (and, for partner users, the partner) in scope; filter orgId or partnerId',
      auth: 'user',
      permission: PERMISSIONS.USERS_READ,
      query: listProvidersQuery,
      handler: ({ auth, query }) => listProviders(rt, auth, query),
    }),
    defineRoute({
      method: 'get',
      path: '/sso/providers/:id',
      tag: TAG,
      summary: 'One provider (the client secret only as hasClientSecret)',
      auth: 'user',
      permission: PERMISSIONS.USERS_READ,
      params: providerIdParams,
      responses: NOT_FOUND,
      handler: ({ auth, params }) => getProvider(rt, auth, params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/sso/providers',
      tag: TAG,
      summary:
        'Create a provider (status inactive) for an organization or the partner; discovery runs when issuer is set',
      auth: 'user',
      permission: PERMISSIONS.USERS_WRITE,
      mfa: true,
      body: createProviderBody,
      status: 201,
      responses: { 400: `${SAML_UNSUPPORTED}; defaultRoleId is required when autoProvision is true` },
      handler: ({ req, auth, body }) => createProvider(rt, req, auth, body),
    }),
    defineRoute({
      method: 'patch',
      path: '/sso/providers/:id',
      tag: TAG,
      summary:
        'Change provider fields; a new issuer needs a successful discovery; clientSecret null removes it',
      auth: 'user',
      permission: PERMISSIONS.USERS_WRITE,
      mfa: true,
      params: providerIdParams,
      body: updateProviderBody,
      responses: { ...NOT_FOUND, 400: 'No updates provided; discovery failed for the new issuer' },
      handler: ({ req, auth, params, body }) => updateProviderFields(rt, req, auth, params.id, body),
    }),
    defineRoute({
      method: 'delete',
      path: '/sso/providers/:id',
      tag: TAG,
      summary: 'Delete the provider and every identity linked to it',
      auth: 'user',
      permission: PERMISSIONS.USERS_WRITE,
      mfa: true,
      params: providerIdParams,
      responses: NOT_FOUND,
      handler: ({ req, auth, params }) => removeProvider(rt, req, auth, params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/sso/providers/:id/status',
      tag: TAG,
      summary:
        'Set status active, inactive or testing; only active providers sign users in (the oldest first)',
      auth: 'user',
      permission: PERMISSIONS.USERS_WRITE,
      mfa: true,
      params: providerIdParams,
      body: statusBody,
      responses: NOT_FOUND,
      handler: ({ req, auth, params, body }) => setProviderStatus(rt, req, auth, params.id, body.status),
    }),
    defineRoute({
      method: 'get',
      path: '/sso/providers/:id/enforcement-preview',
      tag: TAG,
      summary:
        'Who would lose password sign-in if this provider enforced SSO (the first 200 by email, and the total)',
      auth: 'user',
      permission: PERMISSIONS.USERS_READ,
      params: providerIdParams,
      responses: NOT_FOUND,
      handler: ({ auth, params }) => enforcementPreview(rt, auth, params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/sso/providers/:id/test',
      tag: TAG,
      summary:
        'Check that the discovery document is reachable and its endpoints are HTTPS on public addresses',
      auth: 'user',
      permission: PERMISSIONS.USERS_WRITE,
      mfa: true,
      params: providerIdParams,
      responses: NOT_FOUND,
      handler: ({ auth, params }) => testProvider(rt, auth, params.id),
    }),
  ];
}
