import { useState } from 'react';
import type { Webhook, WebhookStatus } from '../../../../server/contract';
import { useAsyncAction } from '../../lib/action';
import { orgName, useOrganizations } from '../../lib/directory';
import { formatDateTime, plural } from '../../lib/format';
import { useDialog, useDocumentTitle, useNow } from '../../lib/hooks';
import { loadStateOf, queryClient } from '../../lib/query';
import { navigate } from '../../lib/router';
import {
  CreateButton,
  ActionError,
  AdminTable,
  EmptyState,
  Icon,
  LinkRow,
  LoadState,
  PageHeader,
  Pager,
  RowSwitch,
  Segmented,
  TitleCell,
} from '../../ui';
import { useWebhookList, webhooksApi, webhooksKeys } from './api';
import { ago, useCanWriteWebhooks, useSpansOrganizations } from './model';
import { HealthCells, WebhookStatusPill } from './parts';
import { SecretRevealDialog } from './SecretRevealDialog';
import { WebhookFormDialog, type NewWebhook } from './WebhookFormDialog';
import { useStatusPage } from './status-page';
import { WriteHint } from './WriteHint';

// /webhooks: every webhook in scope with its health at a glance (success rate, the latest deliveries as a
// sparkline, last delivery), pause and resume in the row, and the create dialog.

const STATUSES: WebhookStatus[] = ['active', 'paused', 'failed'];
const FORBIDDEN = {
  title: 'Webhooks are not available to you',
  text: 'Reading webhooks needs the organizations:read permission and access to whole organizations.',
};

export function WebhooksPage() {
  useDocumentTitle('Webhooks');
  const { filter, setPage, query, control } = useStatusPage(STATUSES);
  const creating = useDialog<true>();
  const [created, setCreated] = useState<NewWebhook | null>(null);
  const canWrite = useCanWriteWebhooks();
  const spans = useSpansOrganizations();
  const { orgs } = useOrganizations();
  const now = useNow(15_000);
  const toggle = useAsyncAction();
  const list = useWebhookList(query);
  const rows = list.data?.data;

  const setStatus = (hook: Webhook, active: boolean) =>
    void toggle.run(async () => {
      await webhooksApi.update(hook.id, { status: active ? 'active' : 'paused' });
      await queryClient.invalidateQueries({ queryKey: webhooksKeys.all });
    });

  const createButton = (
    <CreateButton allowed={canWrite} onClick={() => creating.open(true)} testId="webhook-create">
      New webhook
    </CreateButton>
  );

  return (
    <div className="page wh-page adm">
      <PageHeader
        title="Webhooks"
        sub="Signed HTTPS callbacks that tell your PSA, chat room or SIEM what happens here, with every delivery on record."
        actions={createButton}
      />
      <WriteHint canWrite={canWrite} />
      <div className="adm-toolbar wh-toolbar">
        <Segmented {...control} label="Status" testId="webhook-filter" small />
        {list.data ? (
          <span className="muted small" data-testid="webhook-count">
            {plural(list.data.pagination.total, 'webhook')}
          </span>
        ) : null}
      </div>
      <ActionError error={toggle.error} />

      {!rows ? (
        <LoadState of={loadStateOf(list)} loading="Loading webhooks…" forbidden={FORBIDDEN} />
      ) : rows.length === 0 ? (
        <EmptyState
          icon="webhooks"
          title={filter === 'all' ? 'No webhooks yet' : `No ${filter} webhooks`}
          testId="webhooks-empty"
          action={filter === 'all' ? createButton : null}
        >
          A webhook sends chosen events (an elevation approved, a device offline, a technician signed in) to
          an HTTPS address you own, signed with a secret so the receiver can tell it came from Gatehouse.
        </EmptyState>
      ) : (
        <AdminTable
          className="wh-table"
          testId="webhooks-table"
          columns={[
            'Webhook',
            ...(spans ? ['Organization'] : []),
            'Status',
            <th key="rate" className="num">
              Success
            </th>,
            'Recent deliveries',
            'Last delivery',
            'Events',
          ]}
          after={<Pager pagination={list.data?.pagination ?? null} onPage={setPage} />}
        >
          {rows.map((hook) => (
            <LinkRow
              key={hook.id}
              to={`/webhooks/${hook.id}`}
              controls="a, button, label, input"
              testId="webhook-row"
              name={hook.name}
            >
              <TitleCell
                title={hook.name}
                to={`/webhooks/${hook.id}`}
                titleTestId="webhook-link"
                sub={hook.url}
                subClassName="mono wh-url"
              />
              {spans ? <td className="nowrap">{orgName(orgs, hook.orgId)}</td> : null}
              <td className="nowrap">
                <div className="wh-status-cell">
                  <RowSwitch
                    checked={hook.status === 'active'}
                    onChange={(on) => setStatus(hook, on)}
                    label={hook.status === 'active' ? `Pause ${hook.name}` : `Resume ${hook.name}`}
                    disabled={!canWrite || toggle.busy}
                    testId="webhook-active-switch"
                  />
                  <WebhookStatusPill status={hook.status} />
                </div>
              </td>
              <HealthCells hook={hook} />
              <td
                className="nowrap"
                title={hook.lastDeliveryAt ? formatDateTime(hook.lastDeliveryAt) : undefined}
                data-testid="webhook-last-delivery"
              >
                {hook.lastDeliveryAt ? ago(hook.lastDeliveryAt, now) : <span className="muted">Never</span>}
              </td>
              <td className="nowrap muted" title={hook.events.join(', ')}>
                {plural(hook.events.length, 'event')}
              </td>
              <td className="actions">
                <Icon name="chevron" className="row-chevron" />
              </td>
            </LinkRow>
          ))}
        </AdminTable>
      )}

      {creating.value ? (
        <WebhookFormDialog
          orgs={orgs}
          {...creating.props((made: NewWebhook | null) => {
            setCreated(made);
            void queryClient.invalidateQueries({ queryKey: webhooksKeys.all });
          })}
        />
      ) : null}
      {created ? (
        <SecretRevealDialog
          title={`Webhook “${created.hook.name}” created`}
          secret={created.secret}
          onClose={() => {
            setCreated(null);
            navigate(`/webhooks/${created.hook.id}`);
          }}
        />
      ) : null}
    </div>
  );
}
