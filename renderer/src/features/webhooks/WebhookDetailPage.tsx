import type { WebhookDetail } from '../../../../server/contract';
import { useOrganizations } from '../../lib/directory';
import { useDocumentTitle, useModal } from '../../lib/hooks';
import { queryClient } from '../../lib/query';
import { navigate } from '../../lib/router';
import {
  ConfirmAction,
  RecordFrame,
  RecordPlaceholder,
  RowMenu,
  rowAction,
  SmallButton,
  type RecordPage,
} from '../../ui';
import { useWebhook, webhooksApi, webhooksKeys } from './api';
import { DeliveryLog } from './DeliveryLog';
import { newSigningSecret, useCanWriteWebhooks } from './model';
import { WebhookStatusPill } from './parts';
import { ReceiverSnippet } from './ReceiverSnippet';
import { SecretRevealDialog } from './SecretRevealDialog';
import { TestDeliveryDialog } from './TestDeliveryDialog';
import { WebhookFormDialog } from './WebhookFormDialog';
import { SettingsCard, WebhookStats } from './WebhookSummary';
import { WriteHint } from './WriteHint';

// /webhooks/:id — one webhook: pause or resume, its counters, settings, the live delivery log with test
// deliveries and manual retries, secret rotation, and the receiver snippet that checks the signature.

type Modal =
  | { kind: 'edit' }
  | { kind: 'test' }
  | { kind: 'rotate' }
  | { kind: 'delete' }
  | { kind: 'secret'; secret: string };

const PAGE: RecordPage = {
  noun: 'webhook',
  icon: 'webhooks',
  className: 'wh-page adm',
  back: { to: '/webhooks', label: 'Webhooks' },
};

/** The dialogs the header opens with a button of their own (the rest are in its menu). */
const HEADER_ACTIONS = [
  { kind: 'test', label: 'Send test', icon: 'activity', tone: 'primary', testId: 'webhook-send-test' },
  { kind: 'edit', label: 'Edit', icon: 'edit', tone: 'secondary', testId: 'webhook-edit' },
] as const;

const refresh = () => queryClient.invalidateQueries({ queryKey: webhooksKeys.all });

export function WebhookDetailPage({ webhookId }: { webhookId: string }) {
  const detail = useWebhook(webhookId);
  const hook = detail.data;
  useDocumentTitle(hook ? `${hook.name} · Webhooks` : 'Webhook');
  if (!hook)
    return (
      <RecordPlaceholder
        page={PAGE}
        of={detail}
        notFound="It may have been deleted, or it belongs to an organization outside your access."
      />
    );
  return <WebhookView hook={hook} />;
}

function WebhookView({ hook }: { hook: WebhookDetail }) {
  const canWrite = useCanWriteWebhooks();
  const { orgs } = useOrganizations();
  const { modal, setModal, close, closeFor } = useModal<Modal>();

  return (
    <RecordFrame
      page={PAGE}
      title={
        <span className="wh-title">
          {hook.name} <WebhookStatusPill status={hook.status} />
        </span>
      }
      sub={<span className="mono wh-url">{hook.url}</span>}
      actions={
        canWrite ? (
          <>
            {HEADER_ACTIONS.map((a) => (
              <SmallButton
                key={a.kind}
                tone={a.tone}
                icon={a.icon}
                iconSize={16}
                onClick={() => setModal({ kind: a.kind })}
                testId={a.testId}
              >
                {a.label}
              </SmallButton>
            ))}
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
                rowAction.remove('webhook-delete', () => setModal({ kind: 'delete' }), {
                  label: 'Delete webhook',
                }),
              ]}
            />
          </>
        ) : null
      }
    >
      <WriteHint canWrite={canWrite} />

      <WebhookStats hook={hook} canWrite={canWrite} />

      <DeliveryLog hook={hook} canWrite={canWrite} />
      <div className="wh-below-log">
        <SettingsCard hook={hook} />
        <ReceiverSnippet hasSecret={hook.hasSecret} />
      </div>

      {modal?.kind === 'edit' ? (
        <WebhookFormDialog
          orgs={orgs}
          editing={hook}
          onClose={closeFor('edit')}
          onDone={() => {
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
    </RecordFrame>
  );
}
