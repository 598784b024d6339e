import { PERMISSIONS } from '../../http/permissions';
import { defineRoute, type AnyRoute } from '../../http/route';
import type { WebhookRuntime } from './runtime';
import {
  createWebhookBody,
  listDeliveriesQuery,
  listWebhooksQuery,
  retryParams,
  testWebhookBody,
  updateWebhookBody,
  webhookIdParams,
} from './schemas';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  retryDelivery,
  testWebhook,
  updateWebhook,
  DELIVERY_NOT_FOUND,
  INVALID_URL,
  ONLY_FAILED,
  ORG_CONTEXT_REQUIRED,
  WEBHOOK_NOT_FOUND,
} from './service';

// /webhooks (spec 2 Webhooks): JWT or API key, organization, partner or system scope. The spec names no webhook
// permission, so the organization's own vocabulary decides: reading needs organizations:read, changing it
// organizations:write and, for console users, an MFA session (a webhook sends the organization's events out).

const TAG = 'webhooks';
const NOT_FOUND = { 404: WEBHOOK_NOT_FOUND };
const RESTRICTED = 'Access to this site denied / Access limited to device groups (a restricted user)';

export function webhookRoutes(rt: WebhookRuntime): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/webhooks',
      tag: TAG,
      summary: 'Webhooks of every accessible organization, newest first; filter `status`, `orgId`',
      auth: 'user_or_key',
      permission: PERMISSIONS.ORGANIZATIONS_READ,
      query: listWebhooksQuery,
      responses: { 403: RESTRICTED },
      handler: ({ auth, query }) => listWebhooks(rt, auth, query),
    }),
    defineRoute({
      method: 'post',
      path: '/webhooks',
      tag: TAG,
      summary:
        'Create a webhook (status active); orgId is required for partner and system scope. The secret is write-only',
      auth: 'user_or_key',
      permission: PERMISSIONS.ORGANIZATIONS_WRITE,
      mfa: true,
      body: createWebhookBody,
      status: 201,
      responses: { 400: INVALID_URL, 403: ORG_CONTEXT_REQUIRED, 404: 'Organization not found' },
      handler: ({ req, auth, body }) => createWebhook(rt, req, auth, body),
    }),
    defineRoute({
      method: 'get',
      path: '/webhooks/:id',
      tag: TAG,
      summary: 'One webhook with its deliveryStats',
      auth: 'user_or_key',
      permission: PERMISSIONS.ORGANIZATIONS_READ,
      params: webhookIdParams,
      responses: NOT_FOUND,
      handler: ({ auth, params }) => getWebhook(rt, auth, params.id),
    }),
    defineRoute({
      method: 'patch',
      path: '/webhooks/:id',
      tag: TAG,
      summary:
        'Change any of name, url, secret (null stops signing), events, headers, status (pause or resume)',
      auth: 'user_or_key',
      permission: PERMISSIONS.ORGANIZATIONS_WRITE,
      mfa: true,
      params: webhookIdParams,
      body: updateWebhookBody,
      responses: { ...NOT_FOUND, 400: `${INVALID_URL}; No updates provided` },
      handler: ({ req, auth, params, body }) => updateWebhook(rt, req, auth, params.id, body),
    }),
    defineRoute({
      method: 'delete',
      path: '/webhooks/:id',
      tag: TAG,
      summary: 'Delete a webhook and its deliveries',
      auth: 'user_or_key',
      permission: PERMISSIONS.ORGANIZATIONS_WRITE,
      mfa: true,
      params: webhookIdParams,
      responses: NOT_FOUND,
      handler: ({ req, auth, params }) => deleteWebhook(rt, req, auth, params.id),
    }),
    defineRoute({
      method: 'get',
      path: '/webhooks/:id/deliveries',
      tag: TAG,
      summary: 'Deliveries of a webhook, newest first (limit default 50, max 100); filter `status`',
      auth: 'user_or_key',
      permission: PERMISSIONS.ORGANIZATIONS_READ,
      params: webhookIdParams,
      query: listDeliveriesQuery,
      responses: NOT_FOUND,
      handler: ({ auth, params, query }) => listDeliveries(rt, auth, params.id, query),
    }),
    defineRoute({
      method: 'post',
      path: '/webhooks/:id/test',
      tag: TAG,
      summary: 'Queue a test delivery (event default webhook.test) through the same pipeline as real events',
      auth: 'user_or_key',
      permission: PERMISSIONS.ORGANIZATIONS_WRITE,
      mfa: true,
      params: webhookIdParams,
      body: testWebhookBody,
      status: 202,
      responses: NOT_FOUND,
      handler: ({ req, auth, params, body }) => testWebhook(rt, req, auth, params.id, body),
    }),
    defineRoute({
      method: 'post',
      path: '/webhooks/:id/retry/:deliveryId',
      tag: TAG,
      summary: 'Retry a failed delivery as a new pending delivery of the same event',
      auth: 'user_or_key',
      permission: PERMISSIONS.ORGANIZATIONS_WRITE,
      mfa: true,
      params: retryParams,
      status: 202,
      responses: { 400: ONLY_FAILED, 404: `${WEBHOOK_NOT_FOUND}; ${DELIVERY_NOT_FOUND}` },
      handler: ({ req, auth, params }) => retryDelivery(rt, req, auth, params.id, params.deliveryId),
    }),
  ];
}
