import { Fragment, useState } from 'react';
import type { Webhook, WebhookDelivery, WebhookDeliveryStatus } from '../../../../server/contract';
import { useAsyncAction } from '../../lib/action';
import { compactTime, formatDateTime, relativeTo } from '../../lib/format';
import { useNow } from '../../lib/hooks';
import { loadStateOf } from '../../lib/query';
import {
  ActionError,
  AdminTable,
  Card,
  EmptyState,
  Icon,
  LoadState,
  Pager,
  Segmented,
  SmallButton,
} from '../../ui';
import { useDeliveries, webhooksApi } from './api';
import { DeliveryDetail } from './DeliveryDetail';
import { DeliveryStatusPill } from './parts';
import { useStatusPage } from './status-page';

// The delivery log of one webhook: newest first, filtered by status, paged; a row opens the request and the
// response. Rows change in place as pushes arrive (live.ts patches this query), and a failed delivery can be
// sent again by hand (a new delivery of the same event appears on top).

const STATUSES: WebhookDeliveryStatus[] = ['delivered', 'retrying', 'pending', 'failed'];
const FORBIDDEN = {
  title: 'These deliveries are not available to you',
  text: 'They belong to an organization outside your access.',
};

function outcomeText(d: WebhookDelivery, now: number): string {
  if (d.status === 'retrying' && d.nextAttemptAt)
    return `retry ${relativeTo(Date.parse(d.nextAttemptAt), now)}`;
  if (d.errorMessage) return d.errorMessage;
  if (d.responseStatus !== null) return `HTTP ${d.responseStatus}`;
  return d.status === 'pending' ? 'waiting to be sent' : '—';
}

export function DeliveryLog({ hook, canWrite }: { hook: Webhook; canWrite: boolean }) {
  const { filter, setFilter, setPage, query, control } = useStatusPage(STATUSES);
  const [open, setOpen] = useState<string | null>(null);
  const retry = useAsyncAction();
  const now = useNow(1000);
  const log = useDeliveries(hook.id, query);
  const rows = log.data?.data;

  const retryOne = (d: WebhookDelivery) =>
    void retry.run(async () => {
      await webhooksApi.retry(hook.id, d.id);
      // The new delivery arrives by push; it goes on top of the unfiltered first page.
      if (filter === 'failed') setFilter('all');
      setPage(1);
    });

  return (
    <Card
      title="Delivery log"
      icon="activity"
      testId="delivery-log"
      className="wh-log"
      actions={<Segmented {...control} label="Delivery status" small testId="delivery-filter" />}
    >
      <ActionError error={retry.error} />
      {!rows ? (
        <LoadState of={loadStateOf(log)} loading="Loading deliveries…" forbidden={FORBIDDEN} />
      ) : rows.length === 0 ? (
        <EmptyState icon="activity" title="No deliveries here" testId="deliveries-empty" compact>
          {filter === 'all'
            ? 'Deliveries appear here the moment an event is queued. Send a test delivery to see one.'
            : `No ${filter} deliveries.`}
        </EmptyState>
      ) : (
        <AdminTable
          bare
          className="wh-log-table"
          testId="deliveries-table"
          columns={[
            <th aria-label="Open" />,
            'Status',
            'Event',
            'Outcome',
            <th className="num">Attempts</th>,
            <th className="num">Time</th>,
            'Queued',
          ]}
        >
          {rows.map((d) => {
            const expanded = open === d.id;
            return (
              <Fragment key={d.id}>
                <tr
                  className={`clickable${expanded ? ' wh-open' : ''}`}
                  data-testid="delivery-row"
                  data-delivery-id={d.id}
                  data-status={d.status}
                  data-event={d.event}
                  onClick={(e) => {
                    if ((e.target as HTMLElement).closest('button')) return;
                    setOpen(expanded ? null : d.id);
                  }}
                >
                  <td className="wh-caret">
                    <SmallButton
                      tone="ghost"
                      aria-expanded={expanded}
                      aria-label={expanded ? 'Close delivery' : 'Open delivery'}
                      onClick={() => setOpen(expanded ? null : d.id)}
                      testId="delivery-open"
                    >
                      <Icon name="chevron" size={14} className={expanded ? 'wh-turned' : undefined} />
                    </SmallButton>
                  </td>
                  <td className="nowrap">
                    <DeliveryStatusPill status={d.status} />
                  </td>
                  <td className="mono nowrap">{d.event}</td>
                  <td className={`wh-outcome tone-${d.status === 'failed' ? 'bad' : 'muted'}`}>
                    {outcomeText(d, now)}
                  </td>
                  <td className="num">{d.attempt}</td>
                  <td className="num nowrap">{d.responseTimeMs === null ? '—' : `${d.responseTimeMs} ms`}</td>
                  <td className="nowrap" title={formatDateTime(d.createdAt)}>
                    {compactTime(d.createdAt)}
                  </td>
                  <td className="actions">
                    {d.status === 'failed' && canWrite ? (
                      <SmallButton
                        tone="secondary"
                        icon="refresh"
                        onClick={() => retryOne(d)}
                        disabled={retry.busy}
                        testId="delivery-retry"
                      >
                        Retry
                      </SmallButton>
                    ) : null}
                  </td>
                </tr>
                {expanded ? (
                  <tr className="wh-detail-row">
                    <td colSpan={8}>
                      <DeliveryDetail hook={hook} delivery={d} />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </AdminTable>
      )}
      <Pager pagination={log.data?.pagination ?? null} onPage={setPage} testId="delivery-pager" />
    </Card>
  );
}
