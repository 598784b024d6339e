import { Link, navigate, useRouter } from '../../lib/router';
import { useSession } from '../../lib/session';
import { Alert, Icon, LoadingBlock, Tabs, type IconName } from '../../ui';
import { useDocumentTitle } from '../../lib/hooks';
import { ApiKeysTab } from './ApiKeysTab';
import { EnrollmentKeysTab } from './EnrollmentKeysTab';
import { PartnerKeysTab } from './PartnerKeysTab';
import { useOrganizations } from '../../lib/directory';
import './keys.css';

type Tab = 'api' | 'enrollment' | 'partner';

/** The key tabs in order: each one's label (also the page title), address and icon. */
const TABS: Record<Tab, { label: string; path: string; icon: IconName }> = {
  api: { label: 'API keys', path: '/keys', icon: 'keys' },
  enrollment: { label: 'Enrollment keys', path: '/keys/enrollment', icon: 'devices' },
  // The partner's own provisioning keys: partner administrators only.
  partner: { label: 'Partner keys', path: '/keys/partner', icon: 'tenants' },
};

// /keys shows API keys, /keys/enrollment enrollment keys; ?orgId= narrows both to one organization and
// survives reloads and tab switches.
export function KeysPage() {
  const pathname = useRouter((s) => s.pathname);
  const search = useRouter((s) => s.search);
  const mfa = useSession((s) => s.mfa);
  const user = useSession((s) => s.user);
  // Partner keys need what /partner-keys asks: partner scope with organization and site write.
  const partnerAdmin =
    user?.scope === 'partner' &&
    user.permissions.includes('organizations:write') &&
    user.permissions.includes('sites:write');
  const tab: Tab = pathname.startsWith('/keys/enrollment')
    ? 'enrollment'
    : pathname.startsWith('/keys/partner') && partnerAdmin
      ? 'partner'
      : 'api';
  useDocumentTitle(TABS[tab].label);
  const { orgs, loading, error } = useOrganizations();
  const requested = new URLSearchParams(search).get('orgId') ?? '';
  // A stale ?orgId= (deleted or out of scope) falls back to all organizations rather than an empty page.
  const orgFilter = orgs.some((o) => o.id === requested) ? requested : '';
  const query = orgFilter ? `?orgId=${encodeURIComponent(orgFilter)}` : '';

  const setOrg = (id: string) => {
    const base = TABS[tab].path;
    navigate(id ? `${base}?orgId=${encodeURIComponent(id)}` : base, { replace: true });
  };

  return (
    <div className="page adm kx-page">
      <div className="page-head">
        <div>
          <h1>Keys</h1>
          <p className="page-sub">
            API keys let integrations call Gatehouse; enrollment keys let agents join an organization.
          </p>
        </div>
        {tab === 'partner' ? null : (
          <div className="kx-orgpick">
            <label htmlFor="keys-org-filter" className="muted small">
              Organization
            </label>
            <select
              id="keys-org-filter"
              value={orgFilter}
              onChange={(e) => setOrg(e.target.value)}
              disabled={loading || orgs.length === 0}
              data-testid="keys-org-filter"
            >
              <option value="">All organizations{orgs.length ? ` (${orgs.length})` : ''}</option>
              {orgs.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>

      <Tabs
        label="Key types"
        className="kx-tabs"
        replace
        tabs={(Object.keys(TABS) as Tab[])
          .filter((id) => id !== 'partner' || partnerAdmin)
          .map((id) => ({
            to: `${TABS[id].path}${query}`,
            label: TABS[id].label,
            icon: TABS[id].icon,
            testId: `keys-tab-${id}`,
            active: tab === id,
          }))}
      />

      {user && !user.mfaEnabled ? (
        <Alert tone="info" testId="keys-mfa-hint">
          Creating, rotating and revoking keys needs two-step verification.{' '}
          <Link to={`/mfa/enroll?returnTo=${encodeURIComponent(`${pathname}${search}`)}`}>Set it up now</Link>
          ; you can look around without it.
        </Alert>
      ) : user && !mfa ? (
        <Alert tone="info" testId="keys-mfa-hint">
          This session was not verified with your second factor, so key changes will be refused. Sign out and
          sign in again with your code to make changes.
        </Alert>
      ) : null}
      {error ? <Alert testId="keys-orgs-error">Could not load organizations: {error}</Alert> : null}

      {tab === 'partner' ? (
        <PartnerKeysTab />
      ) : loading ? (
        <LoadingBlock label="Loading organizations…" />
      ) : orgs.length === 0 && !error ? (
        <div className="empty" data-testid="keys-no-orgs">
          <div className="empty-icon">
            <Icon name="tenants" size={24} />
          </div>
          <h2>No organizations in your scope</h2>
          <p>
            Keys belong to an organization. Create an organization first, then come back to issue keys for it.
          </p>
          <Link to="/tenants" className="btn btn-secondary btn-sm">
            Go to tenants
          </Link>
        </div>
      ) : tab === 'api' ? (
        <ApiKeysTab key={`api-${orgFilter}`} orgs={orgs} orgFilter={orgFilter} />
      ) : (
        <EnrollmentKeysTab key={`enroll-${orgFilter}`} orgs={orgs} orgFilter={orgFilter} />
      )}
    </div>
  );
}
