import { usePathname } from '../../lib/router';
import { useDocumentTitle } from '../../lib/hooks';
import { EmptyState, PageNotFound, Tabs } from '../../ui';
import { useScope } from '../../lib/session';
import { OrganizationsView } from './OrganizationsView';
import { OrganizationDetail } from './OrganizationDetail';
import { PartnersView } from './PartnersView';
import './tenants.css';

// /tenants                  organizations in the caller's scope (every scope)
// /tenants/partners         partners (system scope)
// /tenants/orgs/:id         one organization: its facts and its sites

export function TenantsPage() {
  useDocumentTitle('Tenants');
  const pathname = usePathname();
  const scope = useScope();
  const orgMatch = /^\/tenants\/orgs\/([^/]+)$/.exec(pathname);

  const tabs =
    scope === 'system' ? (
      <Tabs
        label="Tenants"
        current={pathname}
        tabs={[
          { to: '/tenants', label: 'Organizations', testId: 'tab-organizations' },
          { to: '/tenants/partners', label: 'Partners', testId: 'tab-partners' },
        ]}
      />
    ) : null;

  let body;
  if (orgMatch?.[1]) body = <OrganizationDetail orgId={decodeURIComponent(orgMatch[1])} />;
  else if (pathname === '/tenants/partners')
    body =
      scope === 'system' ? (
        <PartnersView tabs={tabs} />
      ) : (
        <EmptyState
          icon="tenants"
          title="Partners are managed by platform administrators"
          testId="partners-denied"
        >
          Your account works inside one partner or organization. Organizations you can reach are listed under
          Tenants.
        </EmptyState>
      );
  else if (pathname === '/tenants') body = <OrganizationsView tabs={tabs} />;
  else body = <PageNotFound pathname={pathname} />;

  return (
    <div className="page adm" data-testid="tenants-page">
      {body}
    </div>
  );
}
