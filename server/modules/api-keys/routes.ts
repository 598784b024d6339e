import type { AppContext } from '../../context';
import { PERMISSIONS } from '../../http/permissions';
import { defineRoute, type AnyRoute } from '../../http/route';
import { createApiKeyBody, idParams, listApiKeysQuery, updateApiKeyBody } from './schemas';
import {
  createApiKey,
  currentApiKey,
  getApiKey,
  listApiKeys,
  revokeApiKey,
  rotateApiKey,
  updateApiKey,
} from './service';

// /api-keys (spec 1): read needs organizations:read; writes need organizations:write and an MFA session. Keys
// are managed by console users only; an API key cannot mint or change keys. It can describe itself.

const TAG = 'api-keys';
const NOT_FOUND = { 404: 'API key not found' };

export function apiKeyRoutes(ctx: AppContext): AnyRoute[] {
  return [
    // Before /:id, which would otherwise take `current` for an id.
    defineRoute({
      method: 'get',
      path: '/api-keys/current',
      tag: TAG,
      summary: 'The calling API key: name, organization, scopes, rate limit, expiry and usage (X-API-Key)',
      auth: 'key',
      handler: ({ auth }) => currentApiKey(ctx, auth.apiKeyId),
    }),
    defineRoute({
      method: 'get',
      path: '/api-keys',
      tag: TAG,
      summary:
        "API keys of the organizations in the caller's scope, newest first (never the key or its hash)",
      auth: 'user',
      permission: PERMISSIONS.ORGANIZATIONS_READ,
      query: listApiKeysQuery,
      handler: ({ auth, query }) => listApiKeys(ctx, auth, query),
    }),
    defineRoute({
      method: 'post',
      path: '/api-keys',
      tag: TAG,
      summary: 'Create an API key for an organization; the full key is returned once',
      auth: 'user',
      permission: PERMISSIONS.ORGANIZATIONS_WRITE,
      mfa: true,
      body: createApiKeyBody,
      status: 201,
      responses: { 404: 'Organization not found' },
      handler: ({ req, auth, body }) => createApiKey(ctx, req, auth, body),
    }),
    defineRoute({
      method: 'get',
      path: '/api-keys/:id',
      tag: TAG,
      summary: 'One API key (metadata only)',
      auth: 'user',
      permission: PERMISSIONS.ORGANIZATIONS_READ,
      params: idParams,
      responses: NOT_FOUND,
      handler: ({ auth, params }) => getApiKey(ctx, auth, params.id),
    }),
    defineRoute({
      method: 'patch',
      path: '/api-keys/:id',
      tag: TAG,
      summary: 'Rename an active key, replace its scopes or change its rate limit',
      auth: 'user',
      permission: PERMISSIONS.ORGANIZATIONS_WRITE,
      mfa: true,
      params: idParams,
      body: updateApiKeyBody,
      responses: NOT_FOUND,
      handler: ({ req, auth, params, body }) => updateApiKey(ctx, req, auth, params.id, body),
    }),
    defineRoute({
      method: 'delete',
      path: '/api-keys/:id',
      tag: TAG,
      summary: 'Revoke a key (permanent; the record is kept)',
      auth: 'user',
      permission: PERMISSIONS.ORGANIZATIONS_WRITE,
      mfa: true,
      params: idParams,
      responses: NOT_FOUND,
      handler: ({ req, auth, params }) => revokeApiKey(ctx, req, auth, params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/api-keys/:id/rotate',
      tag: TAG,
      summary: 'Replace the key material of an active key; the old key stops working at once',
      auth: 'user',
      permission: PERMISSIONS.ORGANIZATIONS_WRITE,
      mfa: true,
      params: idParams,
      responses: NOT_FOUND,
      handler: ({ req, auth, params }) => rotateApiKey(ctx, req, auth, params.id),
    }),
  ];
}
