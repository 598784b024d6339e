import { statement, type Db } from '../../db/connection';
import { pagedQuery } from '../../db/paged';
import type { PageRequest } from '../../http/pagination';
import type { OrgScope } from '../../http/scope';
import { scopeFilter } from '../../http/scope';
import type {
  Webhook,
  WebhookDelivery,
  WebhookDeliveryStats,
  WebhookDeliveryStatus,
  WebhookHeader,
  WebhookPayload,
  WebhookRetryPolicy,
  WebhookStatus,
} from '../../contract/webhooks';

// Every SQL statement of the webhooks module (tables in migrations/0009_webhooks.sql, headers in 0010). Free
// functions of the database; the callers decide transactions (after-commit.ts) and scope.

export interface WebhookRow {
  id: string;
  org_id: string;
  name: string;
  url: string;
  secret_sealed: string | null;
  events: string;
  headers: string;
  status: WebhookStatus;
  retry_policy: string | null;
  success_count: number;
  failure_count: number;
  last_delivery_at: string | null;
  last_success_at: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface DeliveryRow {
  id: string;
  webhook_id: string;
  org_id: string;
  status: WebhookDeliveryStatus;
  event: string;
  event_id: string;
  payload: string;
  response_status: number | null;
  response_body: string | null;
  response_time_ms: number | null;
  error_message: string | null;
  attempt: number;
  next_attempt_at: number | null;
  in_flight: 0 | 1;
  created_at: string;
  delivered_at: string | null;
  /** JSON objects of the latest attempt (migration 0010). */
  request_headers: string | null;
  response_headers: string | null;
}

export function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    url: row.url,
    hasSecret: row.secret_sealed !== null,
    events: JSON.parse(row.events) as string[],
    headers: JSON.parse(row.headers) as WebhookHeader[],
    status: row.status,
    retryPolicy: row.retry_policy ? (JSON.parse(row.retry_policy) as WebhookRetryPolicy) : null,
    successCount: row.success_count,
    failureCount: row.failure_count,
    lastDeliveryAt: row.last_delivery_at,
    lastSuccessAt: row.last_success_at,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    orgId: row.org_id,
    status: row.status,
    event: row.event,
    eventId: row.event_id,
    payload: JSON.parse(row.payload) as WebhookPayload,
    responseStatus: row.response_status,
    responseBody: row.response_body,
    responseTimeMs: row.response_time_ms,
    errorMessage: row.error_message,
    attempt: row.attempt,
    nextAttemptAt: row.next_attempt_at === null ? null : new Date(row.next_attempt_at).toISOString(),
    createdAt: row.created_at,
    deliveredAt: row.delivered_at,
    requestHeaders: row.request_headers ? (JSON.parse(row.request_headers) as Record<string, string>) : null,
    responseHeaders: row.response_headers
      ? (JSON.parse(row.response_headers) as Record<string, string>)
      : null,
  };
}

// ---- webhooks

export function insertWebhook(db: Db, row: WebhookRow): void {
  statement(
    db,
    `INSERT INTO webhooks (id, org_id, name, url, secret_sealed, events, headers, status, retry_policy,
       success_count, failure_count, last_delivery_at, last_success_at, created_by, created_at, updated_at)
     VALUES (@id, @org_id, @name, @url, @secret_sealed, @events, @headers, @status, @retry_policy,
       @success_count, @failure_count, @last_delivery_at, @last_success_at, @created_by, @created_at, @updated_at)`,
  ).run(row);
}

export function webhookById(db: Db, id: string): WebhookRow | undefined {
  return statement(db, 'SELECT * FROM webhooks WHERE id = ?').get(id) as WebhookRow | undefined;
}

/** The columns PATCH may change. */
export type WebhookChanges = Partial<
  Pick<WebhookRow, 'name' | 'url' | 'secret_sealed' | 'events' | 'headers' | 'status' | 'retry_policy'>
>;

const CHANGEABLE = ['name', 'url', 'secret_sealed', 'events', 'headers', 'status', 'retry_policy'] as const;

export function updateWebhook(db: Db, id: string, changes: WebhookChanges, updatedAt: string): void {
  const columns = CHANGEABLE.filter((c) => c in changes);
  const set = [...columns.map((c) => `${c} = @${c}`), 'updated_at = @updated_at'].join(', ');
  statement(db, `UPDATE webhooks SET ${set} WHERE id = @id`).run({ ...changes, id, updated_at: updatedAt });
}

/** Deletes the webhook; its deliveries go with it (ON DELETE CASCADE). */
export function deleteWebhook(db: Db, id: string): void {
  statement(db, 'DELETE FROM webhooks WHERE id = ?').run(id);
}

export function listWebhooks(
  db: Db,
  scope: OrgScope,
  filter: { status?: WebhookStatus; orgId?: string },
  page: PageRequest,
): { rows: WebhookRow[]; total: number } {
  const inScope = scopeFilter(scope, 'org_id');
  const where = [inScope.clause];
  const params: unknown[] = [...inScope.params];
  if (filter.status) {
    where.push('status = ?');
    params.push(filter.status);
  }
  if (filter.orgId) {
    where.push('org_id = ?');
    params.push(filter.orgId);
  }
  return pagedQuery<WebhookRow>(db, {
    select: '*',
    from: 'webhooks',
    where,
    params,
    orderBy: 'created_at DESC, id DESC',
    page,
  });
}

export function deliveryStats(db: Db, webhookId: string): WebhookDeliveryStats {
  const row = statement(
    db,
    `SELECT COUNT(*) AS total,
       COALESCE(SUM(status = 'pending'), 0) AS pending,
       COALESCE(SUM(status = 'delivered'), 0) AS delivered,
       COALESCE(SUM(status = 'failed'), 0) AS failed,
       COALESCE(SUM(status = 'retrying'), 0) AS retrying,
       MAX(delivered_at) AS lastDeliveredAt
     FROM webhook_deliveries WHERE webhook_id = ?`,
  ).get(webhookId) as WebhookDeliveryStats;
  return row;
}

/**
 * The statuses of the latest `perWebhook` deliveries of each webhook, newest last, in one statement for a whole
 * list page: each webhook's share is an index walk of at most `perWebhook` rows (webhook_deliveries_webhook), so
 * the cost does not grow with the size of the logs.
 */
export function recentOutcomes(
  db: Db,
  webhookIds: readonly string[],
  perWebhook: number,
): Map<string, WebhookDeliveryStatus[]> {
  const outcomes = new Map<string, WebhookDeliveryStatus[]>(webhookIds.map((id) => [id, []]));
  if (webhookIds.length === 0) return outcomes;
  const rows = statement(
    db,
    `SELECT w.value AS webhookId, d.status FROM json_each(?) w
     JOIN webhook_deliveries d ON d.rowid IN (
       SELECT rowid FROM webhook_deliveries WHERE webhook_id = w.value
       ORDER BY created_at DESC, rowid DESC LIMIT ?)
     ORDER BY w.key, d.created_at, d.rowid`,
  ).all(JSON.stringify(webhookIds), perWebhook) as Array<{
    webhookId: string;
    status: WebhookDeliveryStatus;
  }>;
  for (const row of rows) outcomes.get(row.webhookId)?.push(row.status);
  return outcomes;
}

/** Active webhooks of an organization with what they subscribe to (the bus fan-out reads this per event). */
export function activeWebhooksOf(db: Db, orgId: string): Array<{ id: string; events: string }> {
  return statement(db, "SELECT id, events FROM webhooks WHERE org_id = ? AND status = 'active'").all(
    orgId,
  ) as Array<{ id: string; events: string }>;
}

/** Counters and timestamps of the webhook after one attempt (spec 2 Webhook: cumulative counts). */
export function countAttempt(db: Db, webhookId: string, succeeded: boolean, at: string): void {
  statement(
    db,
    `UPDATE webhooks SET
       success_count = success_count + @ok,
       failure_count = failure_count + (1 - @ok),
       last_delivery_at = @at,
       last_success_at = CASE WHEN @ok = 1 THEN @at ELSE last_success_at END
     WHERE id = @id`,
  ).run({ id: webhookId, ok: succeeded ? 1 : 0, at });
}

// ---- deliveries

export function insertDelivery(db: Db, row: DeliveryRow): void {
  statement(
    db,
    `INSERT INTO webhook_deliveries (id, webhook_id, org_id, status, event, event_id, payload, response_status,
       response_body, response_time_ms, error_message, attempt, next_attempt_at, in_flight, created_at, delivered_at,
       request_headers, response_headers)
     VALUES (@id, @webhook_id, @org_id, @status, @event, @event_id, @payload, @response_status, @response_body,
       @response_time_ms, @error_message, @attempt, @next_attempt_at, @in_flight, @created_at, @delivered_at,
       @request_headers, @response_headers)`,
  ).run(row);
}

export function deliveryById(db: Db, id: string): DeliveryRow | undefined {
  return statement(db, 'SELECT * FROM webhook_deliveries WHERE id = ?').get(id) as DeliveryRow | undefined;
}

export function listDeliveries(
  db: Db,
  webhookId: string,
  status: WebhookDeliveryStatus | undefined,
  page: PageRequest,
): { rows: DeliveryRow[]; total: number } {
  return pagedQuery<DeliveryRow>(db, {
    select: '*',
    from: 'webhook_deliveries',
    where: status ? ['webhook_id = ?', 'status = ?'] : ['webhook_id = ?'],
    params: status ? [webhookId, status] : [webhookId],
    // rowid breaks ties between deliveries created in the same millisecond: newest first, pages never overlap.
    orderBy: 'created_at DESC, rowid DESC',
    page,
  });
}

/** Deliveries due now whose webhook is active (a paused webhook's queue waits for its resume). */
export function dueDeliveries(db: Db, now: number, limit: number): Array<{ id: string; attempt: number }> {
  return statement(
    db,
    `SELECT d.id, d.attempt FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
     WHERE d.next_attempt_at IS NOT NULL AND d.next_attempt_at <= ? AND w.status = 'active'
     ORDER BY d.next_attempt_at LIMIT ?`,
  ).all(now, limit) as Array<{ id: string; attempt: number }>;
}

/**
 * Claims one attempt by compare-and-swap: only if the row is still due at the attempt count the caller saw. The
 * new `next_attempt_at` is the lease: past it (the process died mid-attempt) the row is due again.
 */
export function claimDelivery(db: Db, id: string, attempt: number, now: number, leaseUntil: number): boolean {
  return (
    statement(
      db,
      `UPDATE webhook_deliveries SET next_attempt_at = ?, in_flight = 1
       WHERE id = ? AND attempt = ? AND next_attempt_at IS NOT NULL AND next_attempt_at <= ?`,
    ).run(leaseUntil, id, attempt, now).changes === 1
  );
}

/** What one finished attempt changes on its delivery. */
export interface AttemptOutcome {
  status: WebhookDeliveryStatus;
  responseStatus: number | null;
  responseBody: string | null;
  responseTimeMs: number | null;
  errorMessage: string | null;
  /** JSON text of the attempt's headers (AttemptResult), null when nothing was sent or received. */
  requestHeaders: string | null;
  responseHeaders: string | null;
  nextAttemptAt: number | null;
  deliveredAt: string | null;
}

/**
 * Records an attempt's outcome, again by compare-and-swap on the attempt count it claimed, so an attempt is
 * recorded once: a stale attempt (its lease ran out and another took over) changes nothing. Returns the recorded
 * row, undefined when it was not recorded.
 */
export function recordAttempt(
  db: Db,
  id: string,
  claimedAttempt: number,
  outcome: AttemptOutcome,
): DeliveryRow | undefined {
  return statement(
    db,
    `UPDATE webhook_deliveries SET status = @status, response_status = @responseStatus,
       response_body = @responseBody, response_time_ms = @responseTimeMs, error_message = @errorMessage,
       request_headers = @requestHeaders, response_headers = @responseHeaders, next_attempt_at = @nextAttemptAt,
       delivered_at = @deliveredAt, attempt = attempt + 1, in_flight = 0
     WHERE id = @id AND attempt = @claimedAttempt AND status IN ('pending', 'retrying')
     RETURNING *`,
  ).get({ ...outcome, id, claimedAttempt }) as DeliveryRow | undefined;
}

/**
 * At start: attempts left in flight by a process that is gone (this one holds the data directory alone) are due
 * at once instead of at the end of their lease. A receiver may have got such an attempt; it dedupes by event id.
 */
export function releaseAbandonedAttempts(db: Db, now: number): number {
  return statement(
    db,
    'UPDATE webhook_deliveries SET in_flight = 0, next_attempt_at = ? WHERE in_flight = 1',
  ).run(now).changes;
}

/** Everything one attempt needs: the delivery and its webhook (null when either is gone). */
export interface AttemptSubject {
  delivery: DeliveryRow;
  webhook: WebhookRow;
}

export function attemptSubject(db: Db, deliveryId: string): AttemptSubject | null {
  const delivery = deliveryById(db, deliveryId);
  const webhook = delivery && webhookById(db, delivery.webhook_id);
  return delivery && webhook ? { delivery, webhook } : null;
}

/** Whether an organization has a webhook of this name (the demo seeds its example once). */
export function hasWebhookNamed(db: Db, orgId: string, name: string): boolean {
  return statement(db, 'SELECT 1 FROM webhooks WHERE org_id = ? AND name = ?').get(orgId, name) !== undefined;
}
