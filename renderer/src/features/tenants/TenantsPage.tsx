import { usePathname } from '../../lib/router';
import { useDocumentTitle } from '../../lib/hooks';
import { EmptyState, SubPages, Tabs, type TabSpec } from '../../ui';
import { useScope } from '../../lib/session';
import { OrganizationsView } from './OrganizationsView';
import { OrganizationDetail } from './OrganizationDetail';
import { PartnersView } from './PartnersView';
import './tenants.css';

// /tenants                  organizations in the caller's scope (every scope)
// /tenants/partners         partners (system scope)
// /tenants/orgs/:id         one organization: its facts and its sites

const TABS: TabSpec[] = [
  { to: '/tenants', label: 'Organizations', testId: 'tab-organizations' },
  { to: '/tenants/partners', label: 'Partners', testId: 'tab-partners' },
];

export function TenantsPage() {
  useDocumentTitle('Tenants');
  const pathname = usePathname();
  const system = useScope() === 'system';
  const tabs = system ? <Tabs label="Tenants" current={pathname} tabs={TABS} /> : null;
  return (
    <SubPages
      pathname={pathname}
      testId="tenants-page"
      pages={[
        { path: /^\/tenants\/orgs\/([^/]+)$/, render: (id) => <OrganizationDetail orgId={id} /> },
        {
          path: '/tenants/partners',
          render: () => (system ? <PartnersView tabs={tabs} /> : <PartnersDenied />),
        },
        { path: '/tenants', render: () => <OrganizationsView tabs={tabs} /> },
      ]}
    />
  );
}

function PartnersDenied() {
  return (
    <EmptyState
      icon="tenants"
      title="Partners are managed by platform administrators"
      testId="partners-denied"
    >
      Your account works inside one partner or organization. Organizations you can reach are listed under
      Tenants.
    </EmptyState>
  );
}
