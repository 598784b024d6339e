import type { Webhook, WebhookDelivery } from '../../../../server/contract/webhooks';
import { formatDateTime } from '../../lib/format';
import { Facts } from '../../ui';
import { CodeBlock } from './parts';

// One delivery opened in the log: the attempt's facts, the request as the sender makes it (headers and body)
// and what the receiver answered (status, time, body cut to 1000 characters by the server).

/**
 * The request headers of an attempt, in the sender's order. The server records the body but not the headers
 * of each attempt, so the per-attempt values (timestamp, signature) are described, not shown.
 */
export function requestHeaders(hook: Webhook, d: WebhookDelivery): string {
  const lines = [
    'Content-Type: application/json',
    'User-Agent: Service-Webhooks/1.0',
    `X-Service-Delivery-Id: ${d.id}`,
    `X-Service-Event-Id: ${d.eventId}`,
    `X-Service-Event-Type: ${d.event}`,
    'X-Service-Timestamp: <Unix ms of the attempt>',
  ];
  if (hook.hasSecret)
    lines.push(
      'X-Service-Signature: sha256=<HMAC-SHA256 of "<signature timestamp>.<raw body>">',
      'X-Service-Signature-Timestamp: <the timestamp signed>',
    );
  for (const h of hook.headers) lines.push(`${h.key}: ${h.value}`);
  return lines.join('\n');
}

function responseBodyText(d: WebhookDelivery): string {
  if (d.responseBody === null || d.responseBody === '') return '(empty)';
  try {
    return JSON.stringify(JSON.parse(d.responseBody), null, 2);
  } catch {
    return d.responseBody;
  }
}

export function DeliveryDetail({ hook, delivery: d }: { hook: Webhook; delivery: WebhookDelivery }) {
  return (
    <div className="wh-delivery" data-testid="delivery-detail">
      <Facts
        rows={[
          ['Event', <span className="mono">{d.event}</span>],
          ['Event id', <span className="mono">{d.eventId}</span>],
          ['Delivery id', <span className="mono">{d.id}</span>],
          ['Attempts made', String(d.attempt), 'delivery-attempt'],
          ['Queued', formatDateTime(d.createdAt)],
          ['Delivered', d.deliveredAt ? formatDateTime(d.deliveredAt) : '—'],
          [
            'Next retry',
            d.nextAttemptAt
              ? formatDateTime(d.nextAttemptAt)
              : d.status === 'failed'
                ? 'None (dead letter)'
                : '—',
          ],
        ]}
      />
      {d.errorMessage ? (
        <div className="wh-delivery-error" data-testid="delivery-error">
          <span className="wh-label">Last error</span>
          <span className="mono">{d.errorMessage}</span>
        </div>
      ) : null}
      <div className="wh-delivery-io">
        <section>
          <h3>
            Request <span className="muted mono small">POST {hook.url}</span>
          </h3>
          <CodeBlock label="Headers" text={requestHeaders(hook, d)} testId="delivery-request-headers" />
          <CodeBlock
            label="Body (the same bytes on every attempt)"
            text={JSON.stringify(d.payload, null, 2)}
            testId="delivery-request-body"
            tall
          />
        </section>
        <section>
          <h3>
            Response{' '}
            <span className="muted small">
              {d.responseStatus === null ? 'none received' : `HTTP ${d.responseStatus}`}
              {d.responseTimeMs === null ? '' : ` · ${d.responseTimeMs} ms`}
            </span>
          </h3>
          <Facts
            rows={[
              [
                'Status',
                d.responseStatus === null ? '—' : String(d.responseStatus),
                'delivery-response-status',
              ],
              ['Duration', d.responseTimeMs === null ? '—' : `${d.responseTimeMs} ms`],
              ['Headers', <span className="muted">Not recorded by the server</span>],
            ]}
          />
          <CodeBlock
            label="Body (first 1000 characters)"
            text={responseBodyText(d)}
            testId="delivery-response-body"
            tall
          />
        </section>
      </div>
    </div>
  );
}
