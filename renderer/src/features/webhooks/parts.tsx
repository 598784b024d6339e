import {
  WEBHOOK_RECENT_OUTCOMES,
  type WebhookDeliveryStatus,
  type WebhookListItem,
  type WebhookStatus,
} from '../../../../server/contract';
import { copyText } from '../../lib/clipboard';
import { CopyButton, OutcomeStrip, StatusPill } from '../../ui';
import { DELIVERY_TONE, STATUS_TONE, outcomeTones, rateTone, successRate } from './model';

// Small pieces the webhook screens share: status pills, the health cells of a list row, and a copyable block.

export function WebhookStatusPill({ status }: { status: WebhookStatus }) {
  return (
    <StatusPill tone={STATUS_TONE[status]} testId="webhook-status">
      <span className="cap">{status}</span>
    </StatusPill>
  );
}

export function DeliveryStatusPill({ status }: { status: WebhookDeliveryStatus }) {
  return (
    <StatusPill tone={DELIVERY_TONE[status]} testId="delivery-status">
      <span className="cap">{status}</span>
    </StatusPill>
  );
}

/** The success rate of every finished delivery, and the latest deliveries (sent with the list) as a sparkline. */
export function HealthCells({ hook }: { hook: WebhookListItem }) {
  const rate = successRate(hook);
  const outcomes = hook.recentOutcomes;
  const failed = outcomes.filter((status) => status === 'failed').length;
  const label =
    outcomes.length === 0
      ? 'No deliveries yet'
      : `Last ${outcomes.length} deliveries: ${outcomes.length - failed} not failed, ${failed} failed`;
  return (
    <>
      <td className="num" data-testid="webhook-success-rate">
        {rate === null ? (
          <span className="muted">—</span>
        ) : (
          <span className={`tone-${rateTone(rate)} wh-rate`}>{rate}%</span>
        )}
        <div className="adm-cell-sub">
          {hook.successCount} ok · {hook.failureCount} failed
        </div>
      </td>
      <td>
        <OutcomeStrip
          tones={outcomeTones(outcomes)}
          slots={WEBHOOK_RECENT_OUTCOMES}
          label={label}
          testId="webhook-sparkline"
        />
      </td>
    </>
  );
}

/** A labelled block of monospace text (a body, a snippet) with its copy button. */
export function CodeBlock({
  label,
  text,
  testId,
  copyLabel = 'Copy',
  tall,
}: {
  label: string;
  text: string;
  testId: string;
  copyLabel?: string;
  tall?: boolean;
}) {
  return (
    <div className="wh-code">
      <div className="wh-code-head">
        <span className="wh-label">{label}</span>
        <CopyButton
          onCopy={() => copyText(text)}
          label={copyLabel}
          className="btn btn-ghost btn-sm"
          testId={`${testId}-copy`}
        />
      </div>
      <pre className={`wh-pre mono${tall ? ' tall' : ''}`} data-testid={testId}>
        {text}
      </pre>
    </div>
  );
}
