import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { z } from 'zod';
import {
  WEBHOOK_RECENT_OUTCOMES,
  type Webhook,
  type WebhookDelivery,
  type WebhookDetail,
  type WebhookListItem,
  type WebhookRetryResponse,
  type WebhookTestResponse,
} from '../../contract/webhooks';
import { transaction } from '../../db/after-commit';
import type { AuthContext } from '../../http/auth-context';
import { badRequest, forbidden, notFound } from '../../http/errors';
import { paginated } from '../../http/pagination';
import { requireOrgAccess, requireUnrestricted, resolveOrgScope, scopeCovers } from '../../http/scope';
import { auditCaller } from '../audit';
import { judgeUrl } from './address';
import { queueDelivery, requeueDelivery } from './pipeline';
import type { WebhookRuntime } from './runtime';
import type {
  createWebhookBody,
  listDeliveriesQuery,
  listWebhooksQuery,
  testWebhookBody,
  updateWebhookBody,
} from './schemas';
import {
  deleteWebhook as removeWebhook,
  deliveryById,
  deliveryStats,
  insertWebhook,
  listDeliveries as deliveryPage,
  listWebhooks as webhookPage,
  recentOutcomes,
  toDelivery,
  toWebhook,
  updateWebhook as changeWebhook,
  webhookById,
  type WebhookChanges,
  type WebhookRow,
} from './store';

// Rules of /webhooks (spec 2 Webhooks; Authentication: organization scope works in its own organization, partner
// and system scope name it and partner access is verified). A webhook belongs to one organization and sees all of
// it, so a caller limited to some sites or device groups of it may not manage or read webhooks. The secret is
// sealed at rest (SecretBox) and never leaves the server.

export const WEBHOOK_NOT_FOUND = 'Webhook not found';
export const DELIVERY_NOT_FOUND = 'Delivery not found';
export const INVALID_URL = 'Invalid webhook URL';
export const ORG_CONTEXT_REQUIRED = 'Organization context required';
export const ONLY_FAILED = 'Only failed deliveries can be retried';

type CreateBody = z.infer<typeof createWebhookBody>;
type UpdateBody = z.infer<typeof updateWebhookBody>;

function webhookInScope(rt: WebhookRuntime, auth: AuthContext, id: string): WebhookRow {
  const { db } = rt.ctx;
  requireUnrestricted(db, auth);
  const row = webhookById(db, id);
  if (!row || !scopeCovers(resolveOrgScope(db, auth), row.org_id)) throw notFound(WEBHOOK_NOT_FOUND);
  return row;
}

/** The organization a new webhook belongs to (spec 2 Authentication, Errors: 403 without an organization). */
function targetOrg(rt: WebhookRuntime, auth: AuthContext, orgId: string | undefined): string {
  requireUnrestricted(rt.ctx.db, auth);
  if (auth.scope === 'organization') {
    if (!auth.orgId) throw forbidden(ORG_CONTEXT_REQUIRED);
    return auth.orgId;
  }
  if (!orgId) throw forbidden(ORG_CONTEXT_REQUIRED);
  return requireOrgAccess(rt.ctx.db, auth, orgId).id;
}

/** Create and update check the URL after DNS (spec 2 URL safety); refused with the spec's message. */
async function requireSafeUrl(rt: WebhookRuntime, url: string): Promise<void> {
  if ((await judgeUrl(url, rt.resolver, rt.allowPrivate)) === 'unsafe') throw badRequest(INVALID_URL);
}

function audit(
  rt: WebhookRuntime,
  req: Request,
  auth: AuthContext,
  action: string,
  row: WebhookRow,
  details: Record<string, unknown> = {},
): void {
  auditCaller(rt.ctx, req, auth, {
    orgId: row.org_id,
    action,
    resourceType: 'webhook',
    resourceId: row.id,
    resourceName: row.name,
    details,
  });
}

export function listWebhooks(
  rt: WebhookRuntime,
  auth: AuthContext,
  query: z.infer<typeof listWebhooksQuery>,
): { data: WebhookListItem[]; pagination: { page: number; limit: number; total: number } } {
  requireUnrestricted(rt.ctx.db, auth);
  const { rows, total } = webhookPage(rt.ctx.db, resolveOrgScope(rt.ctx.db, auth), query, query);
  const outcomes = recentOutcomes(
    rt.ctx.db,
    rows.map((r) => r.id),
    WEBHOOK_RECENT_OUTCOMES,
  );
  const data = rows.map((r) => ({ ...toWebhook(r), recentOutcomes: outcomes.get(r.id) ?? [] }));
  return paginated(data, query, total);
}

export function getWebhook(rt: WebhookRuntime, auth: AuthContext, id: string): WebhookDetail {
  const row = webhookInScope(rt, auth, id);
  return { ...toWebhook(row), deliveryStats: deliveryStats(rt.ctx.db, row.id) };
}

export async function createWebhook(
  rt: WebhookRuntime,
  req: Request,
  auth: AuthContext,
  body: CreateBody,
): Promise<Webhook> {
  const orgId = targetOrg(rt, auth, body.orgId);
  await requireSafeUrl(rt, body.url);
  const now = new Date(rt.now()).toISOString();
  const row: WebhookRow = {
    id: randomUUID(),
    org_id: orgId,
    name: body.name,
    url: body.url,
    secret_sealed: body.secret === undefined ? null : rt.ctx.secretBox.seal(body.secret),
    events: JSON.stringify(body.events),
    headers: JSON.stringify(body.headers ?? []),
    status: 'active',
    retry_policy: body.retryPolicy ? JSON.stringify(body.retryPolicy) : null,
    success_count: 0,
    failure_count: 0,
    last_delivery_at: null,
    last_success_at: null,
    created_by: auth.kind === 'user' ? auth.userId : null,
    created_at: now,
    updated_at: now,
  };
  transaction(rt.ctx.db, () => insertWebhook(rt.ctx.db, row));
  audit(rt, req, auth, 'webhook.create', row, { events: body.events, hasSecret: row.secret_sealed !== null });
  return toWebhook(row);
}

/** The column changes of a PATCH body, and the names of the fields it changes (for the audit entry). */
function changesOf(rt: WebhookRuntime, body: UpdateBody): { changes: WebhookChanges; fields: string[] } {
  const changes: WebhookChanges = {};
  if (body.name !== undefined) changes.name = body.name;
  if (body.url !== undefined) changes.url = body.url;
  if (body.secret !== undefined)
    changes.secret_sealed = body.secret === null ? null : rt.ctx.secretBox.seal(body.secret);
  if (body.events !== undefined) changes.events = JSON.stringify(body.events);
  if (body.headers !== undefined) changes.headers = JSON.stringify(body.headers);
  if (body.status !== undefined) changes.status = body.status;
  if (body.retryPolicy !== undefined)
    changes.retry_policy = body.retryPolicy === null ? null : JSON.stringify(body.retryPolicy);
  const fields = Object.keys(body).filter((k) => body[k as keyof UpdateBody] !== undefined);
  return { changes, fields };
}

export async function updateWebhook(
  rt: WebhookRuntime,
  req: Request,
  auth: AuthContext,
  id: string,
  body: UpdateBody,
): Promise<Webhook> {
  const before = webhookInScope(rt, auth, id);
  const { changes, fields } = changesOf(rt, body);
  if (fields.length === 0) throw badRequest('No updates provided', 'VALIDATION_ERROR');
  if (body.url !== undefined) await requireSafeUrl(rt, body.url);
  const { db } = rt.ctx;
  const after = transaction(db, () => {
    changeWebhook(db, id, changes, new Date(rt.now()).toISOString());
    return webhookById(db, id);
  });
  if (!after) throw notFound(WEBHOOK_NOT_FOUND); // deleted while the URL was being resolved
  const action =
    fields.length === 1 && body.status === 'paused'
      ? 'webhook.pause'
      : fields.length === 1 && body.status === 'active'
        ? 'webhook.resume'
        : 'webhook.update';
  audit(rt, req, auth, action, after, { changes: fields });
  // A resumed webhook's waiting deliveries are due now.
  if (after.status === 'active' && before.status !== 'active') rt.wake();
  return toWebhook(after);
}

export function deleteWebhook(rt: WebhookRuntime, req: Request, auth: AuthContext, id: string): void {
  const row = webhookInScope(rt, auth, id);
  transaction(rt.ctx.db, () => removeWebhook(rt.ctx.db, row.id));
  audit(rt, req, auth, 'webhook.delete', row);
}

export function listDeliveries(
  rt: WebhookRuntime,
  auth: AuthContext,
  id: string,
  query: z.infer<typeof listDeliveriesQuery>,
): { data: WebhookDelivery[]; pagination: { page: number; limit: number; total: number } } {
  const row = webhookInScope(rt, auth, id);
  const { rows, total } = deliveryPage(rt.ctx.db, row.id, query.status, query);
  return paginated(rows.map(toDelivery), query, total);
}

/** A test delivery goes through the same pipeline as any event: queued, signed, checked, retried. */
export function testWebhook(
  rt: WebhookRuntime,
  req: Request,
  auth: AuthContext,
  id: string,
  body: z.infer<typeof testWebhookBody>,
): WebhookTestResponse {
  const row = webhookInScope(rt, auth, id);
  const data = body.payload ?? {
    message: 'Test delivery from Gatehouse',
    webhookId: row.id,
    webhookName: row.name,
  };
  const delivery = transaction(rt.ctx.db, () =>
    queueDelivery(rt, row.id, row.org_id, {
      id: randomUUID(),
      type: body.event,
      timestamp: new Date(rt.now()).toISOString(),
      orgId: row.org_id,
      data,
    }),
  );
  audit(rt, req, auth, 'webhook.test', row, { event: body.event, deliveryId: delivery.id });
  return {
    message: 'Test delivery queued',
    delivery: {
      id: delivery.id,
      webhookId: delivery.webhook_id,
      status: delivery.status,
      event: delivery.event,
      attempt: delivery.attempt,
    },
  };
}

/** Only a failed delivery (the dead letter) is retried by hand, as a new pending record of the same event. */
export function retryDelivery(
  rt: WebhookRuntime,
  req: Request,
  auth: AuthContext,
  id: string,
  deliveryId: string,
): WebhookRetryResponse {
  const row = webhookInScope(rt, auth, id);
  const { db } = rt.ctx;
  const fresh = transaction(db, () => {
    const failed = deliveryById(db, deliveryId);
    if (!failed || failed.webhook_id !== row.id) throw notFound(DELIVERY_NOT_FOUND);
    if (failed.status !== 'failed') throw badRequest(ONLY_FAILED);
    return requeueDelivery(rt, failed);
  });
  audit(rt, req, auth, 'webhook.delivery.retry', row, { deliveryId, newDeliveryId: fresh.id });
  return {
    message: 'Delivery queued for retry',
    delivery: { id: fresh.id, status: fresh.status, attempt: fresh.attempt },
  };
}
