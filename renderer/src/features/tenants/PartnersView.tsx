import { useState, type ReactNode } from 'react';
import type { Partner } from '../../../../server/contract';

import { DeleteTarget } from '../../ui/DialogActions';
import { Alert, StatusPill } from '../../ui/basics';
import { formatDateTime, plural } from '../../lib/format';
import {
  Button,
  EmptyState,
  ListStates,
  PageHeader,
  Pager,
  rowAction,
  RowActions,
  SearchTable,
  TitleCell,
} from '../../ui';

import { asList, paginationOf } from '../../lib/query';
import { useRowSearch } from '../../lib/row-search';
import { formatDate } from '../../lib/format';
import { useTarget, useDialog, writeTarget } from '../../lib/hooks';
import { PARTNER_PLANS, PARTNER_TYPES, labelOf, partnerStatusOf } from './labels';
import { capsText, PartnerDialog, PartnerStatusDialog } from './PartnerDialogs';
import { useOrganizationList } from '../../lib/directory';
import { tenantsApi, usePartnerPage } from './api';

const PAGE_SIZE = 50;

const PARTNER_COLUMNS = [
  'Partner',
  'Type',
  'Plan',
  'Status',
  <th className="num">Organizations</th>,
  'Caps',
  'Billing email',
  'Created',
];

export function PartnersView({ tabs }: { tabs: ReactNode }) {
  const [page, setPage] = useState(1);
  const partners = usePartnerPage({ page, limit: PAGE_SIZE });
  const orgs = useOrganizationList();
  const editing = useDialog<Partner | 'new'>();
  const statusOf = useDialog<Partner>();
  const deleting = useTarget<Partner>();

  const orgCount = new Map<string, number>();
  for (const o of asList(orgs.data)) orgCount.set(o.partnerId, (orgCount.get(o.partnerId) ?? 0) + 1);
  const list = asList(partners.data);
  const { rows: shown, search } = useRowSearch(list, (p) => [p.name, p.slug]);

  const remove = writeTarget(deleting, (row) => tenantsApi.deletePartner(row.id), partners.reload);
  const deletingOrgs = deleting.target ? (orgCount.get(deleting.target.id) ?? 0) : 0;

  return (
    <>
      <PageHeader
        title="Tenants"
        sub="Partners are the managed service providers and IT departments that own organizations."
        actions={
          <Button tone="primary" icon="plus" onClick={() => editing.open('new')} testId="partner-create">
            New partner
          </Button>
        }
      />
      {tabs}

      <ListStates
        of={partners}
        loading="Loading partners…"
        empty={
          list.length === 0 && page === 1 ? (
            <EmptyState icon="tenants" title="No partners yet" testId="partners-empty">
              Partners register themselves from the sign-up page, or you can create one here.
            </EmptyState>
          ) : null
        }
      >
        <SearchTable
          search={search}
          placeholder="Search this page by name or slug"
          searchTestId="partner-search"
          count={plural(paginationOf(partners.data)?.total ?? list.length, 'partner')}
          table={{ testId: 'partner-table', columns: PARTNER_COLUMNS }}
          noMatch={shown.length === 0 ? `No partner on this page matches “${search.query}”.` : null}
          after={<Pager pagination={paginationOf(partners.data)} onPage={setPage} testId="partners-pager" />}
        >
          {shown.map((p) => {
            const st = partnerStatusOf(p.status);
            return (
              <tr key={p.id} data-testid="partner-row" data-partner-id={p.id}>
                <TitleCell title={p.name} sub={p.slug} subClassName="mono" />
                <td>{labelOf(PARTNER_TYPES, p.type)}</td>
                <td>{labelOf(PARTNER_PLANS, p.plan)}</td>
                <td>
                  <div className="adm-cell-main">
                    <StatusPill tone={st.tone} testId="partner-status">
                      {st.label}
                    </StatusPill>
                    {p.status === 'offboarding' && p.offboardingStartedAt ? (
                      <span className="adm-cell-sub tn-since">
                        since {formatDateTime(p.offboardingStartedAt)}
                      </span>
                    ) : null}
                  </div>
                </td>
                <td className="num">{orgCount.get(p.id) ?? 0}</td>
                <td className="nowrap small">{capsText(p)}</td>
                <td className="muted">{p.billingEmail ?? '—'}</td>
                <td className="nowrap muted">{formatDate(p.createdAt)}</td>
                <RowActions
                  name={p.name}
                  testId="partner-menu"
                  items={[
                    rowAction.edit('partner-menu-edit', () => editing.open(p)),
                    {
                      label: 'Change status',
                      icon: 'refresh',
                      testId: 'partner-menu-status',
                      onSelect: () => statusOf.open(p),
                    },
                    rowAction.remove('partner-menu-delete', () => deleting.open(p)),
                  ]}
                />
              </tr>
            );
          })}
        </SearchTable>
      </ListStates>

      {editing.value ? (
        <PartnerDialog
          partner={editing.value === 'new' ? null : editing.value}
          {...editing.props(partners.reload)}
        />
      ) : null}

      {statusOf.value ? (
        <PartnerStatusDialog partner={statusOf.value} {...statusOf.props(partners.reload)} />
      ) : null}

      <DeleteTarget of={deleting} what="partner" onConfirm={remove} testId="partner-delete-dialog">
        <p>
          Delete <strong>{deleting.target?.name}</strong>? The partner disappears from every list and can no
          longer be opened. The record is kept (soft delete) for the audit trail.
        </p>
        {deletingOrgs > 0 ? (
          <Alert tone="warning">
            This partner still owns {plural(deletingOrgs, 'organization')}. To cut its people off in an
            orderly way, set the status to offboarding instead.
          </Alert>
        ) : null}
      </DeleteTarget>
    </>
  );
}
