import type { Webhook, WebhookDelivery } from '../../../../server/contract';
import { formatDateTime } from '../../lib/format';
import { Facts } from '../../ui';
import { CodeBlock } from './parts';

// One delivery opened in the log: the attempt's facts, the request as the latest attempt sent it (headers, the
// signature among them, and body) and what the receiver answered (status, time, headers cut to 4 KB and body cut
// to 1000 characters by the server).

/** Headers as `Name: value` lines, in the order recorded. */
export function headerLines(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

/** Why there are no request headers: nothing sent yet, or the attempt was refused before sending. */
function unsentNote(d: WebhookDelivery): string {
  return d.attempt === 0
    ? '(nothing sent yet: the first attempt is pending)'
    : '(nothing sent: the attempt was refused before a request was made)';
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
        <div className="alert alert-danger wh-delivery-error" data-testid="delivery-error">
          <span className="wh-label">Last error</span>
          <span className="mono">{d.errorMessage}</span>
        </div>
      ) : null}
      <div className="wh-delivery-io">
        <section>
          <h3>
            Request <span className="muted mono small">POST {hook.url}</span>
          </h3>
          <CodeBlock
            label={d.attempt > 1 ? `Headers (attempt ${d.attempt})` : 'Headers'}
            text={d.requestHeaders ? headerLines(d.requestHeaders) : unsentNote(d)}
            testId="delivery-request-headers"
          />
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
            ]}
          />
          <CodeBlock
            label="Headers (first 4 KB)"
            text={d.responseHeaders ? headerLines(d.responseHeaders) : '(none received)'}
            testId="delivery-response-headers"
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
