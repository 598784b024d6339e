import type { WebhookDetail } from '../../../../server/contract';
import { useAsyncAction } from '../../lib/action';
import { orgName, useOrganizations } from '../../lib/directory';
import { formatDateTime } from '../../lib/format';
import { useNow } from '../../lib/hooks';
import { queryClient } from '../../lib/query';
import { ActionError, Card, Facts, Toggle } from '../../ui';
import { webhooksApi, webhooksKeys } from './api';
import { retryWords } from './form-model';
import { ago, DEFAULT_RETRY, rateTone, successRate, useSpansOrganizations } from './model';

// The top of a webhook's page and its settings: the counters strip (success rate, deliveries on record by
// status, last delivery) with the pause/resume switch, and the settings card (organization, signing, retries,
// events, custom headers).

export function WebhookStats({ hook, canWrite }: { hook: WebhookDetail; canWrite: boolean }) {
  const toggle = useAsyncAction();
  const now = useNow(15_000);
  const rate = successRate(hook);
  const stats = hook.deliveryStats;

  const setActive = (active: boolean) =>
    void toggle.run(async () => {
      await webhooksApi.update(hook.id, { status: active ? 'active' : 'paused' });
      await queryClient.invalidateQueries({ queryKey: webhooksKeys.all });
    });

  return (
    <>
      <ActionError error={toggle.error} />
      <div className="wh-stats" data-testid="webhook-stats">
        <div className="ui-panel raised wh-stat">
          <span className="wh-label">Success rate</span>
          <strong className={`tone-${rateTone(rate)}`} data-testid="webhook-detail-rate">
            {rate === null ? '—' : `${rate}%`}
          </strong>
          <span className="muted small">
            {hook.successCount} delivered · {hook.failureCount} failed
          </span>
        </div>
        <div className="ui-panel raised wh-stat">
          <span className="wh-label">Deliveries on record</span>
          <strong data-testid="webhook-stat-total">{stats.total}</strong>
          <span className="muted small">
            <span className="tone-ok">{stats.delivered} delivered</span> ·{' '}
            <span className={stats.retrying ? 'tone-warn' : undefined}>{stats.retrying} retrying</span> ·{' '}
            {stats.pending} pending ·{' '}
            <span className={stats.failed ? 'tone-bad' : undefined} data-testid="webhook-stat-failed">
              {stats.failed} failed
            </span>
          </span>
        </div>
        <div className="ui-panel raised wh-stat">
          <span className="wh-label">Last delivered</span>
          <strong title={formatDateTime(stats.lastDeliveredAt)}>
            {stats.lastDeliveredAt ? ago(stats.lastDeliveredAt, now) : 'Never'}
          </strong>
          <span className="muted small">
            last attempt {hook.lastDeliveryAt ? ago(hook.lastDeliveryAt, now) : 'never'}
          </span>
        </div>
        <div className="ui-panel raised wh-stat wh-stat-switch">
          <Toggle
            id="webhook-active"
            checked={hook.status === 'active'}
            onChange={setActive}
            disabled={!canWrite || toggle.busy}
            label={hook.status === 'active' ? 'Sending' : 'Paused'}
            hint={
              hook.status === 'active'
                ? 'Events are delivered as they happen.'
                : 'Nothing is sent; deliveries wait until resumed.'
            }
          />
        </div>
      </div>
    </>
  );
}

export function SettingsCard({ hook }: { hook: WebhookDetail }) {
  const spans = useSpansOrganizations();
  const { orgs } = useOrganizations();
  const policy = hook.retryPolicy ?? DEFAULT_RETRY;
  return (
    <Card title="Settings" icon="settings" testId="webhook-settings">
      <Facts
        rows={[
          ...(spans ? ([['Organization', orgName(orgs, hook.orgId)]] as Array<[string, string]>) : []),
          [
            'Signing',
            hook.hasSecret ? (
              <span className="tone-ok">Signed (secret set)</span>
            ) : (
              <span className="tone-warn">Not signed</span>
            ),
            'webhook-signing',
          ],
          ['Retries', `${hook.retryPolicy ? 'Own policy' : 'Default'}: ${retryWords(policy)}`],
          ['Created', formatDateTime(hook.createdAt, { seconds: false })],
          ['Updated', formatDateTime(hook.updatedAt, { seconds: false })],
        ]}
      />
      <div className="wh-label wh-side-label">Events ({hook.events.length})</div>
      <div className="wh-chips" data-testid="webhook-event-chips">
        {hook.events.map((e) => (
          <span key={e} className="adm-tag mono">
            {e}
          </span>
        ))}
      </div>
      <div className="wh-label wh-side-label">Custom headers</div>
      {hook.headers.length === 0 ? (
        <span className="muted small">None</span>
      ) : (
        <div className="wh-header-list mono small">
          {hook.headers.map((h) => (
            <div key={h.key}>
              <span className="muted">{h.key}:</span> {h.value}
            </div>
          ))}
        </div>
      )}
    </Card>
  );
}
