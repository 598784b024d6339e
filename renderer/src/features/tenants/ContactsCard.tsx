import { useState } from 'react';
import type { Contact } from '../../../../server/contract';
import { useSites } from '../../lib/directory';
import { useDialog } from '../../lib/hooks';
import { ButtonLink, EmptyState, rowAction, RowActions } from '../../ui';
import { useContactPage } from './api';
import { ContactDialog } from './ContactDialog';
import { CONTACT_ROLE_LABELS } from './contact-labels';
import { OrgListCard } from './OrgListCard';

// The people an MSP calls about this customer (spec 3, contacts): organization-level and per site, with their
// roles and where they came from. Edited one by one here; brought in bulk by the contact import.

const PAGE_SIZE = 50;

export function ContactsCard({
  orgId,
  orgName,
  canEdit,
}: {
  orgId: string;
  orgName: string;
  canEdit: boolean;
}) {
  const [page, setPage] = useState(1);
  const contacts = useContactPage({ orgId, page, limit: PAGE_SIZE });
  const sites = useSites(orgId).data ?? [];
  const siteName = new Map(sites.map((s) => [s.id, s.name]));
  const editing = useDialog<Contact>();

  return (
    <>
      <OrgListCard
        noun="Contacts"
        icon="users"
        testId="org-contacts"
        actions={
          canEdit ? (
            <ButtonLink to="/import/contacts" tone="secondary" icon="upload" small testId="contacts-import">
              Import contacts
            </ButtonLink>
          ) : null
        }
        of={contacts}
        onPage={setPage}
        empty={
          <EmptyState icon="users" title="No contacts yet" compact testId="contacts-empty">
            The people to call at {orgName} (billing, escalation, after hours) arrive with the contact import.
          </EmptyState>
        }
        table={{
          testId: 'contact-table',
          columns: ['Contact', 'Email', 'Phone', 'Roles', 'Site', 'Source'],
          pagerTestId: 'contacts-pager',
        }}
      >
        {(c) => (
          <tr key={c.id} data-testid="contact-row" data-contact-id={c.id} data-name={c.name ?? ''}>
            <td>
              <div className="adm-cell-main">
                <span className="adm-cell-title nowrap">
                  {c.name ?? <span className="muted">No name</span>}
                </span>
                {c.title ? <span className="adm-cell-sub">{c.title}</span> : null}
              </div>
            </td>
            <td className="nowrap">{c.email ?? <span className="muted">—</span>}</td>
            <td className="nowrap" data-testid="contact-phone">
              <div className="adm-cell-main">
                <span>{c.phone ?? (c.mobile ? null : <span className="muted">—</span>)}</span>
                {c.mobile ? <span className="adm-cell-sub">Mobile {c.mobile}</span> : null}
              </div>
            </td>
            <td>
              {c.roles.length === 0 ? (
                <span className="muted">—</span>
              ) : (
                <span className="nowrap">
                  {c.roles.map((r) => (
                    <span key={r} className="adm-tag">
                      {CONTACT_ROLE_LABELS[r]}
                    </span>
                  ))}
                </span>
              )}
            </td>
            <td className="nowrap">
              {c.siteId ? (siteName.get(c.siteId) ?? 'Site') : <span className="muted">Organization</span>}
            </td>
            <td className="nowrap muted small">
              {c.externalLinks.map((l) => `${l.externalSystem} ${l.externalId}`).join(', ') || '—'}
            </td>
            {canEdit ? (
              <RowActions
                name={c.name ?? c.email ?? 'contact'}
                testId="contact-menu"
                items={[rowAction.edit('contact-menu-edit', () => editing.open(c))]}
              />
            ) : (
              <td />
            )}
          </tr>
        )}
      </OrgListCard>
      {editing.value ? (
        <ContactDialog contact={editing.value} sites={sites} {...editing.props(contacts.reload)} />
      ) : null}
    </>
  );
}
