import { useState, type ReactNode } from 'react';
import type { Organization } from '../../../../server/contract';

import { navigate } from '../../lib/router';
import { StatusPill } from '../../ui/basics';
import {
  Button,
  ButtonLink,
  ChoiceSelect,
  EmptyState,
  ListStates,
  nameChoices,
  PageHeader,
  rowAction,
  RowActions,
  SearchTable,
  SmallButton,
  TitleCell,
} from '../../ui';
import { asList } from '../../lib/query';
import { useRowSearch } from '../../lib/row-search';
import { formatDate, plural } from '../../lib/format';
import { useScope } from '../../lib/session';
import { useTarget, useDialog, writeTarget } from '../../lib/hooks';
import { ORG_STATUSES, ORG_TYPES, labelOf, orgStatusOf } from './labels';
import { DeleteOrganizationDialog, OrganizationDialog } from './OrganizationDialog';
import { OrganizationDetail } from './OrganizationDetail';
import { useOrganizationList, usePartnerList } from '../../lib/directory';
import { tenantsApi } from './api';

export function OrganizationsView({ tabs }: { tabs: ReactNode }) {
  const scope = useScope();
  const canManage = scope === 'system' || scope === 'partner';
  const orgs = useOrganizationList();
  const partners = usePartnerList(scope === 'system');
  const partnerList = asList(partners.data);
  const partnerName = new Map(partnerList.map((p) => [p.id, p.name]));

  const [status, setStatus] = useState('');
  const [partnerId, setPartnerId] = useState('');
  const editing = useDialog<Organization | 'new'>();
  const deleting = useTarget<Organization>();

  const all = asList(orgs.data);
  const { rows, search } = useRowSearch(all, (o) => [o.name, o.slug]);
  const shown = rows.filter(
    (o) => (!status || o.status === status) && (!partnerId || o.partnerId === partnerId),
  );

  const remove = writeTarget(deleting, (row) => tenantsApi.deleteOrganization(row.id), orgs.reload);

  // An organization account has exactly one organization: show it, with its sites, straight away.
  const only = all.length === 1 ? all[0] : undefined;
  if (scope === 'organization' && only) return <OrganizationDetail orgId={only.id} embedded />;

  const sub =
    scope === 'system'
      ? 'Every customer organization on this server, across partners.'
      : scope === 'partner'
        ? 'Customer organizations of your partner that you can reach, and their sites.'
        : 'Your organization and its sites.';

  return (
    <>
      <PageHeader
        title="Tenants"
        sub={sub}
        actions={
          canManage ? (
            <>
              {scope === 'partner' ? (
                <ButtonLink to="/import" tone="secondary" icon="upload" testId="org-import">
                  Import
                </ButtonLink>
              ) : null}
              <Button tone="primary" icon="plus" onClick={() => editing.open('new')} testId="org-create">
                New organization
              </Button>
            </>
          ) : null
        }
      />
      {tabs}

      <ListStates
        of={orgs}
        loading="Loading organizations…"
        empty={
          all.length === 0 ? (
            <EmptyState
              icon="tenants"
              title="No organizations to show"
              testId="orgs-empty"
              action={
                canManage ? (
                  <SmallButton tone="secondary" icon="plus" iconSize={16} onClick={() => editing.open('new')}>
                    Create an organization
                  </SmallButton>
                ) : null
              }
            >
              {scope === 'partner'
                ? 'Create your first customer organization here. If you expected to see organizations, your partner administrator decides which ones your account can reach.'
                : scope === 'system'
                  ? 'Create a partner first, then its customer organizations.'
                  : 'Your account is not linked to an organization that is still active.'}
            </EmptyState>
          ) : null
        }
      >
        <SearchTable
          search={search}
          placeholder="Search by name or slug"
          searchTestId="org-search"
          filters={
            <>
              <ChoiceSelect
                value={status}
                onChange={setStatus}
                ariaLabel="Filter by status"
                emptyLabel="All statuses"
                options={ORG_STATUSES}
                testId="org-status-filter"
              />
              {scope === 'system' ? (
                <ChoiceSelect
                  value={partnerId}
                  onChange={setPartnerId}
                  ariaLabel="Filter by partner"
                  emptyLabel="All partners"
                  options={nameChoices(partnerList)}
                  testId="org-partner-filter"
                />
              ) : null}
            </>
          }
          count={
            shown.length === all.length
              ? plural(all.length, 'organization')
              : `${shown.length} of ${all.length}`
          }
          countTestId="org-count"
          table={{
            testId: 'org-table',
            columns: [
              'Organization',
              ...(scope === 'system' ? ['Partner'] : []),
              'Type',
              'Status',
              'Contract',
              <th className="num">Device cap</th>,
              'Sign-in policy',
            ],
          }}
          noMatch={shown.length === 0 ? 'No organization matches these filters.' : null}
        >
          {shown.map((o) => {
            const st = orgStatusOf(o.status);
            return (
              <tr key={o.id} data-testid="org-row" data-org-id={o.id}>
                <TitleCell
                  title={o.name}
                  to={`/tenants/orgs/${o.id}`}
                  titleTestId="org-open"
                  sub={o.slug}
                  subClassName="mono"
                />
                {scope === 'system' ? <td className="muted">{partnerName.get(o.partnerId) ?? '—'}</td> : null}
                <td>{labelOf(ORG_TYPES, o.type)}</td>
                <td>
                  <StatusPill tone={st.tone}>{st.label}</StatusPill>
                </td>
                <td className="nowrap">{contractText(o)}</td>
                <td className="num">{o.maxDevices ?? <span className="muted">No cap</span>}</td>
                <td>
                  <MfaPolicyTags org={o} />
                </td>
                <RowActions
                  name={o.name}
                  testId="org-menu"
                  items={[
                    rowAction.open('org-menu-open', () => navigate(`/tenants/orgs/${o.id}`)),
                    rowAction.edit('org-menu-edit', () => editing.open(o), { hidden: !canManage }),
                    rowAction.remove('org-menu-delete', () => deleting.open(o), { hidden: !canManage }),
                  ]}
                />
              </tr>
            );
          })}
        </SearchTable>
      </ListStates>

      {editing.value ? (
        <OrganizationDialog
          org={editing.value === 'new' ? null : editing.value}
          partners={partnerList}
          {...editing.props(
            editing.value === 'new'
              ? (saved: Organization) => navigate(`/tenants/orgs/${saved.id}`)
              : orgs.reload,
          )}
        />
      ) : null}

      <DeleteOrganizationDialog of={deleting} onConfirm={remove} />
    </>
  );
}

export function contractText(o: Organization): string {
  if (o.contractStart && o.contractEnd)
    return `${formatDate(o.contractStart)} – ${formatDate(o.contractEnd)}`;
  if (o.contractStart) return `From ${formatDate(o.contractStart)}`;
  if (o.contractEnd) return `Until ${formatDate(o.contractEnd)}`;
  return '—';
}

export function MfaPolicyTags({ org }: { org: Organization }) {
  const security = org.settings.security;
  const required = security?.requireMfa === true;
  const smsAllowed = security?.allowedMfaMethods?.sms !== false;
  if (!required && smsAllowed) return <span className="muted">Default</span>;
  return (
    <span className="nowrap">
      {required ? <span className="adm-tag adm-tag-strong">MFA required</span> : null}
      {smsAllowed ? null : <span className="adm-tag">No SMS codes</span>}
    </span>
  );
}
