import { useState } from 'react';
import type { Organization, Site } from '../../../../server/contract';

import { navigate } from '../../lib/router';
import { DeleteTarget } from '../../ui/DialogActions';
import { Card, Facts, StatusPill } from '../../ui/basics';
import { formatDateTime } from '../../lib/format';
import { useDialog, useDocumentTitle, useTarget, writeTarget } from '../../lib/hooks';
import {
  Button,
  EmptyState,
  ErrorBlock,
  LoadingBlock,
  PageHeader,
  rowAction,
  RowActions,
  SmallButton,
} from '../../ui';
import { asList } from '../../lib/query';
import { formatDate } from '../../lib/format';

import { useScope, useSession } from '../../lib/session';
import { ORG_TYPES, labelOf, orgStatusOf } from './labels';
import { DeleteOrganizationDialog, OrganizationDialog } from './OrganizationDialog';
import { SiteDialog, addressLines, contactLine } from './SiteDialog';
import { ContactsCard } from './ContactsCard';
import { OrgListCard } from './OrgListCard';
import { useOrganizationList } from '../../lib/directory';
import { tenantsApi, useOrganization, usePartner, useSitePage } from './api';

export function OrganizationDetail({ orgId, embedded }: { orgId: string; embedded?: boolean }) {
  const scope = useScope();
  const canManageOrg = scope === 'system' || scope === 'partner';
  // Organization-scoped callers have no /orgs/organizations/:id; their own organization comes from GET /orgs/.
  const direct = useOrganization(canManageOrg ? orgId : null);
  const listed = useOrganizationList(!canManageOrg);
  const org = canManageOrg ? direct.data : asList(listed.data).find((o) => o.id === orgId);
  const loading = canManageOrg ? direct.loading : listed.loading;
  const loadError = canManageOrg ? direct.error : listed.error;
  const reloadOrg = canManageOrg ? direct.reload : listed.reload;
  const partner = usePartner(scope === 'system' && org ? org.partnerId : null);
  const canEditContacts = useSession((s) => s.user?.permissions.includes('organizations:write') ?? false);

  const editing = useDialog<true>();
  const deleting = useTarget<Organization>();

  useDocumentTitle(org ? org.name : 'Organization');

  const back = embedded ? undefined : { to: '/tenants', label: 'Organizations' };

  if (loading) return <LoadingBlock label="Loading organization…" />;
  if (loadError && !org)
    return (
      <>
        <PageHeader title="Organization" back={back} />
        <ErrorBlock error={loadError} onRetry={reloadOrg} />
      </>
    );
  if (!org)
    return (
      <>
        <PageHeader title="Organization" back={back} />
        <EmptyState icon="tenants" title="Organization not found" testId="org-not-found">
          It may have been deleted, or it is outside the organizations your account can reach.
        </EmptyState>
      </>
    );

  const st = orgStatusOf(org.status);
  const security = org.settings.security;

  const remove = async () => {
    await tenantsApi.deleteOrganization(org.id);
    navigate('/tenants');
  };

  return (
    <>
      <PageHeader
        back={back}
        title={
          <span className="tn-title">
            <span data-testid="org-title">{org.name}</span>
            <StatusPill tone={st.tone} testId="org-status-pill">
              {st.label}
            </StatusPill>
          </span>
        }
        sub={<span className="mono">{org.slug}</span>}
        actions={
          canManageOrg ? (
            <>
              <Button tone="secondary" icon="edit" onClick={() => editing.open(true)} testId="org-edit">
                Edit
              </Button>
              <Button tone="danger" icon="trash" onClick={() => deleting.open(org)} testId="org-delete">
                Delete
              </Button>
            </>
          ) : null
        }
      />

      <div className="adm-split">
        <Card title="Organization" icon="tenants" testId="org-facts">
          <div className="adm-facts">
            <Facts
              rows={[
                ...(scope === 'system'
                  ? ([['Partner', partner.data?.name ?? '—', 'org-fact-partner']] as Array<
                      [string, string, string]
                    >)
                  : []),
                ['Type', labelOf(ORG_TYPES, org.type), 'org-fact-type'],
                ['Device cap', org.maxDevices ?? 'No cap', 'org-fact-max-devices'],
                ['Contract start', formatDate(org.contractStart), 'org-fact-contract-start'],
                ['Contract end', formatDate(org.contractEnd), 'org-fact-contract-end'],
                ['MFA', security?.requireMfa ? 'Required for every user' : 'Optional', 'org-fact-mfa'],
                [
                  'SMS codes',
                  security?.allowedMfaMethods?.sms === false ? 'Not allowed' : 'Allowed',
                  'org-fact-sms',
                ],
                ['Created', formatDateTime(org.createdAt)],
                ['Updated', formatDateTime(org.updatedAt)],
              ]}
            />
          </div>
        </Card>
        <SitesCard orgId={org.id} orgName={org.name} />
      </div>
      <ContactsCard orgId={org.id} orgName={org.name} canEdit={canEditContacts} />

      {editing.value ? (
        <OrganizationDialog
          org={org}
          partners={partner.data ? [partner.data] : []}
          {...editing.props(reloadOrg)}
        />
      ) : null}

      <DeleteOrganizationDialog of={deleting} onConfirm={remove} />
    </>
  );
}

const SITES_PAGE_SIZE = 50;

function SitesCard({ orgId, orgName }: { orgId: string; orgName: string }) {
  const [page, setPage] = useState(1);
  const sites = useSitePage({ orgId, page, limit: SITES_PAGE_SIZE });
  const editing = useDialog<Site | 'new'>();
  const deleting = useTarget<Site>();

  const remove = writeTarget(deleting, (row) => tenantsApi.deleteSite(row.id), sites.reload);

  return (
    <>
      <OrgListCard
        noun="Sites"
        icon="server"
        testId="org-sites"
        actions={
          <SmallButton tone="secondary" icon="plus" onClick={() => editing.open('new')} testId="site-create">
            Add site
          </SmallButton>
        }
        of={sites}
        onPage={setPage}
        empty={
          <EmptyState icon="server" title="No sites yet" compact testId="sites-empty">
            Sites group the devices of {orgName} by location. Agents enrolled with a site&apos;s enrollment
            key land in that site.
          </EmptyState>
        }
        table={{
          testId: 'site-table',
          columns: ['Site', 'Time zone', 'Address', 'Contact'],
          pagerTestId: 'sites-pager',
        }}
      >
        {(s) => {
          const address = addressLines(s.address);
          const contact = contactLine(s.contact);
          return (
            <tr key={s.id} data-testid="site-row" data-site-id={s.id}>
              <td>
                <span className="adm-cell-title nowrap">{s.name}</span>
              </td>
              <td className="nowrap mono small">{s.timezone}</td>
              <TwoLineCell first={address[0]} second={address[1]} />
              <TwoLineCell first={contact?.primary} second={contact?.secondary} />
              <RowActions
                name={s.name}
                testId="site-menu"
                items={[
                  rowAction.edit('site-menu-edit', () => editing.open(s)),
                  rowAction.remove('site-menu-delete', () => deleting.open(s)),
                ]}
              />
            </tr>
          );
        }}
      </OrgListCard>

      {editing.value ? (
        <SiteDialog
          orgId={orgId}
          site={editing.value === 'new' ? null : editing.value}
          {...editing.props(sites.reload)}
        />
      ) : null}

      <DeleteTarget of={deleting} what="site" onConfirm={remove} testId="site-delete-dialog">
        <p>
          Permanently delete <strong>{deleting.target?.name}</strong> from {orgName}? Sites are deleted
          outright, not archived: this cannot be undone.
        </p>
      </DeleteTarget>
    </>
  );
}

/** A table cell of a line and a quieter one under it (an address, a contact); a dash when there is nothing. */
function TwoLineCell({ first, second }: { first: string | undefined; second: string | undefined }) {
  return (
    <td>
      {first ? (
        <div className="adm-cell-main">
          <span>{first}</span>
          {second ? (
            <span className="adm-cell-sub" title={second}>
              {second}
            </span>
          ) : null}
        </div>
      ) : (
        <span className="muted">—</span>
      )}
    </td>
  );
}
