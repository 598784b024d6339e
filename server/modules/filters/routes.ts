import type { AppContext } from '../../context';
import { PERMISSIONS } from '../../http/permissions';
import { defineRoute, type AnyRoute } from '../../http/route';
import { registerFilterFunctions } from './compile';
import {
  createFilterBody,
  filterIdParams,
  listFiltersQuery,
  previewBody,
  savedPreviewQuery,
  updateFilterBody,
} from './schemas';
import {
  createFilter,
  deleteFilter,
  getFilter,
  listFilters,
  previewFilter,
  previewSavedFilter,
  updateFilter,
} from './service';

// /filters (spec 2, Saved filters): JWT or API key; reads and previews need devices:read, writes devices:write
// and, for console users, an MFA session (the route's `mfa` guard; API keys pass on their scopes).

const TAG = 'filters';
const NOT_FOUND = { 404: 'Filter not found' };
const INVALID = 'Invalid condition group, Unknown field, unsupported operator or value';

export function filterRoutes(ctx: AppContext): AnyRoute[] {
  // Compiled filters call regexp(); the device list shares this connection and the function.
  registerFilterFunctions(ctx.db);
  return [
    defineRoute({
      method: 'get',
      path: '/filters',
      tag: TAG,
      summary:
        'Saved filters of every accessible organization, newest first; `search` matches name or description',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_READ,
      query: listFiltersQuery,
      handler: ({ auth, query }) => listFilters(ctx, auth, query),
    }),
    defineRoute({
      method: 'post',
      path: '/filters',
      tag: TAG,
      summary:
        'Save a filter; orgId is required for partner and system scope, ignored for organization scope',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_WRITE,
      mfa: true,
      body: createFilterBody,
      status: 201,
      responses: {
        400: INVALID,
        403: 'MFA required; Access to this organization denied',
        404: 'Organization not found',
      },
      handler: ({ req, auth, body }) => createFilter(ctx, req, auth, body),
    }),
    // Before /filters/:id so that "preview" is never taken for an id.
    defineRoute({
      method: 'post',
      path: '/filters/preview',
      tag: TAG,
      summary:
        'Evaluate conditions over every accessible device: totalCount and the first `limit` (1-100, default 10)',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_READ,
      body: previewBody,
      responses: { 400: INVALID },
      handler: ({ req, auth, body }) => previewFilter(ctx, req, auth, body),
    }),
    defineRoute({
      method: 'get',
      path: '/filters/:id',
      tag: TAG,
      summary: 'One saved filter',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_READ,
      params: filterIdParams,
      responses: NOT_FOUND,
      handler: ({ auth, params }) => getFilter(ctx, auth, params.id),
    }),
    defineRoute({
      method: 'patch',
      path: '/filters/:id',
      tag: TAG,
      summary: 'Change any of name, description (string or null), conditions',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_WRITE,
      mfa: true,
      params: filterIdParams,
      body: updateFilterBody,
      responses: { ...NOT_FOUND, 400: `No updates provided; ${INVALID}` },
      handler: ({ req, auth, params, body }) => updateFilter(ctx, req, auth, params.id, body),
    }),
    defineRoute({
      method: 'delete',
      path: '/filters/:id',
      tag: TAG,
      summary: 'Delete a saved filter; returns the deleted filter',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_WRITE,
      mfa: true,
      params: filterIdParams,
      responses: NOT_FOUND,
      handler: ({ req, auth, params }) => deleteFilter(ctx, req, auth, params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/filters/:id/preview',
      tag: TAG,
      summary: 'Evaluate a saved filter over every accessible device (query `limit` 1-100, default 10)',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_READ,
      params: filterIdParams,
      query: savedPreviewQuery,
      responses: NOT_FOUND,
      handler: ({ req, auth, params, query }) => previewSavedFilter(ctx, req, auth, params.id, query.limit),
    }),
  ];
}
