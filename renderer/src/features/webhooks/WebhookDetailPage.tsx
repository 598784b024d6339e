import type { WebhookDetail } from '../../../../server/contract/webhooks';
import { useAsyncAction } from '../../lib/action';
import { orgName, useOrganizations } from '../../lib/directory';
import { formatDateTime } from '../../lib/format';
import { useDocumentTitle, useModal, useNow } from '../../lib/hooks';
import { queryClient } from '../../lib/query';
import { navigate } from '../../lib/router';
import {
  ActionError,
  Card,
  ConfirmAction,
  DetailPlaceholder,
  Facts,
  Icon,
  PageHeader,
  RowMenu,
  Toggle,
} from '../../ui';
import { useWebhook, webhooksApi, webhooksKeys } from './api';
import { DeliveryLog } from './DeliveryLog';
import { retryWords } from './form-model';
import {
  ago,
  DEFAULT_RETRY,
  newSigningSecret,
  rateTone,
  successRate,
  useCanWriteWebhooks,
  useSpansOrganizations,
} from './model';
import { WebhookStatusPill } from './parts';
import { ReceiverSnippet } from './ReceiverSnippet';
import { SecretRevealDialog } from './SecretRevealDialog';
import { TestDeliveryDialog } from './TestDeliveryDialog';
import { WebhookFormDialog } from './WebhookFormDialog';
import { WriteHint } from './WriteHint';

// /webhooks/:id — one webhook: pause or resume, its counters, settings, the live delivery log with test
// deliveries and manual retries, secret rotation, and the receiver snippet that checks the signature.

type Modal =
  | { kind: 'edit' }
  | { kind: 'test' }
  | { kind: 'rotate' }
  | { kind: 'delete' }
  | { kind: 'secret'; secret: string };

const FORBIDDEN = {
  title: 'This webhook is not available to you',
  text: 'It belongs to an organization outside your access.',
};

const refresh = () => queryClient.invalidateQueries({ queryKey: webhooksKeys.all });

export function WebhookDetailPage({ webhookId }: { webhookId: string }) {
  const detail = useWebhook(webhookId);
  const hook = detail.data;
  useDocumentTitle(hook ? `${hook.name} · Webhooks` : 'Webhook');
  if (!hook)
    return (
      <DetailPlaceholder
        className="wh-page adm"
        title="Webhook"
        back={{ to: '/webhooks', label: 'Webhooks' }}
        of={detail}
        loading="Loading the webhook…"
        forbidden={FORBIDDEN}
        notFound={{
          icon: 'webhooks',
          title: 'No such webhook',
          testId: 'webhook-not-found',
          text: 'It may have been deleted, or it belongs to an organization outside your access.',
        }}
      />
    );
  return <WebhookView hook={hook} />;
}

function WebhookView({ hook }: { hook: WebhookDetail }) {
  const canWrite = useCanWriteWebhooks();
  const spans = useSpansOrganizations();
  const { orgs } = useOrganizations();
  const { modal, setModal, close, closeFor } = useModal<Modal>();
  const toggle = useAsyncAction();
  const now = useNow(15_000);
  const rate = successRate(hook);
  const stats = hook.deliveryStats;
  const policy = hook.retryPolicy ?? DEFAULT_RETRY;

  const setActive = (active: boolean) =>
    void toggle.run(async () => {
      await webhooksApi.update(hook.id, { status: active ? 'active' : 'paused' });
      await refresh();
    });

  return (
    <div className="page wh-page adm" data-testid="webhook-detail">
      <PageHeader
        back={{ to: '/webhooks', label: 'Webhooks' }}
        title={
          <span className="wh-title">
            {hook.name} <WebhookStatusPill status={hook.status} />
          </span>
        }
        sub={<span className="mono wh-url">{hook.url}</span>}
        actions={
          canWrite ? (
            <>
              <button
                type="button"
                className="btn btn-primary btn-sm"
                onClick={() => setModal({ kind: 'test' })}
                data-testid="webhook-send-test"
              >
                <Icon name="activity" />
                Send test
              </button>
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                onClick={() => setModal({ kind: 'edit' })}
                data-testid="webhook-edit"
              >
                <Icon name="edit" />
                Edit
              </button>
              <RowMenu
                label="More actions"
                testId="webhook-more"
                items={[
                  {
                    label: 'Rotate secret',
                    icon: 'keys',
                    onSelect: () => setModal({ kind: 'rotate' }),
                    testId: 'webhook-rotate',
                  },
                  {
                    label: 'Delete webhook',
                    icon: 'trash',
                    danger: true,
                    onSelect: () => setModal({ kind: 'delete' }),
                    testId: 'webhook-delete',
                  },
                ]}
              />
            </>
          ) : null
        }
      />
      <WriteHint canWrite={canWrite} />
      <ActionError error={toggle.error} />

      <div className="wh-stats" data-testid="webhook-stats">
        <div className="wh-stat">
          <span className="wh-label">Success rate</span>
          <strong className={`tone-${rateTone(rate)}`} data-testid="webhook-detail-rate">
            {rate === null ? '—' : `${rate}%`}
          </strong>
          <span className="muted small">
            {hook.successCount} delivered · {hook.failureCount} failed
          </span>
        </div>
        <div className="wh-stat">
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
        <div className="wh-stat">
          <span className="wh-label">Last delivered</span>
          <strong title={formatDateTime(stats.lastDeliveredAt)}>
            {stats.lastDeliveredAt ? ago(stats.lastDeliveredAt, now) : 'Never'}
          </strong>
          <span className="muted small">
            last attempt {hook.lastDeliveryAt ? ago(hook.lastDeliveryAt, now) : 'never'}
          </span>
        </div>
        <div className="wh-stat wh-stat-switch">
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

      <DeliveryLog hook={hook} canWrite={canWrite} />
      <div className="wh-below-log">
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
        <ReceiverSnippet hasSecret={hook.hasSecret} />
      </div>

      {modal?.kind === 'edit' ? (
        <WebhookFormDialog
          orgs={orgs}
          editing={hook}
          onClose={closeFor('edit')}
          onSaved={() => {
            close();
            void refresh();
          }}
        />
      ) : null}
      {modal?.kind === 'test' ? <TestDeliveryDialog hook={hook} onClose={closeFor('test')} /> : null}
      {modal?.kind === 'rotate' ? (
        <ConfirmAction
          title={`Rotate the secret of “${hook.name}”?`}
          confirmLabel="Rotate secret"
          testId="webhook-rotate-dialog"
          onCancel={closeFor('rotate')}
          onConfirm={async () => {
            const secret = newSigningSecret();
            await webhooksApi.update(hook.id, { secret });
            setModal({ kind: 'secret', secret });
            void refresh();
          }}
        >
          <p>
            A new signing secret is generated in this browser and takes effect at once: every delivery from
            now on is signed with it, and a receiver still checking the old one rejects them until it is
            updated.
          </p>
        </ConfirmAction>
      ) : null}
      {modal?.kind === 'secret' ? (
        <SecretRevealDialog
          title={`New signing secret for “${hook.name}”`}
          secret={modal.secret}
          onClose={closeFor('secret')}
        />
      ) : null}
      {modal?.kind === 'delete' ? (
        <ConfirmAction
          title={`Delete “${hook.name}”?`}
          confirmLabel="Delete webhook"
          testId="webhook-delete-dialog"
          onCancel={closeFor('delete')}
          onConfirm={async () => {
            await webhooksApi.remove(hook.id);
            queryClient.removeQueries({ queryKey: webhooksKeys.detail(hook.id) });
            void refresh();
            navigate('/webhooks');
          }}
        >
          <p>
            Nothing more is sent to <span className="mono">{hook.url}</span>, and its{' '}
            {hook.deliveryStats.total} deliveries on record are deleted with it. This cannot be undone;
            pausing keeps everything.
          </p>
        </ConfirmAction>
      ) : null}
    </div>
  );
}
