import { useEffect } from 'react';
import { Link, navigate, usePathname } from '../../lib/router';
import { useDocumentTitle } from '../../lib/hooks';
import { EmptyState, LabelOptions, LoadingBlock, PageHeader, Tabs } from '../../ui';
import { useLookups } from '../../lib/directory';
import { usePolicyOrg, type PolicyOrg } from './org';
import { nameChoices } from '../../ui';
import { RulesView } from './RulesView';
import { RuleEditor } from './RuleEditor';
import { SignerGroupsView } from './SignerGroupsView';
import { DefaultsView } from './DefaultsView';
import { ExportView } from './ExportView';
import './pam-policy.css';

// /pam: the elevation policy of one organization at a time. Tabs: Rules | Signer groups | Defaults | Audit export;
// /pam/rules/new (optionally ?fromRequest=<id>) and /pam/rules/<id> open the rule editor.

/** Each tab once: its address, its words, and the view it shows for the chosen organization. */
const TABS = [
  { id: 'rules', path: '/pam/rules', label: 'Rules', View: RulesView },
  { id: 'signer-groups', path: '/pam/signer-groups', label: 'Signer groups', View: SignerGroupsView },
  { id: 'defaults', path: '/pam/defaults', label: 'Defaults', View: DefaultsView },
  { id: 'export', path: '/pam/export', label: 'Audit export', View: ExportView },
] as const;

export function PamPolicySection() {
  const pathname = usePathname();
  const lookups = useLookups();
  const org = usePolicyOrg(lookups);
  const parts = pathname.split('/').filter(Boolean).slice(1);

  useEffect(() => {
    if (parts.length === 0) navigate(`/pam/rules${window.location.search}`, { replace: true });
  }, [parts.length]);

  if (parts[0] === 'rules' && parts[1]) {
    const id = decodeURIComponent(parts[1]);
    return <RuleEditor key={id} ruleId={id === 'new' ? null : id} org={org} />;
  }
  const tab = TABS.find((t) => t.path === `/pam/${parts[0] ?? 'rules'}` && parts.length <= 1);
  return <PolicyTabs tab={tab?.id ?? null} org={org} />;
}

function PolicyTabs({ tab, org }: { tab: (typeof TABS)[number]['id'] | null; org: PolicyOrg }) {
  const shown = TABS.find((t) => t.id === tab);
  useDocumentTitle(shown?.label ?? 'Elevation policy');
  return (
    <div className="page adm ep-page" data-testid="pam-policy-page">
      <PageHeader
        title="Elevation policy"
        sub="How elevation requests are decided before a technician sees them: rules in priority order, then the organization default."
        actions={<OrgPicker org={org} />}
      />
      <Tabs
        label="Elevation policy"
        tabs={TABS.map((t) => ({
          to: org.link(t.path),
          label: t.label,
          testId: `pam-tab-${t.id}`,
          active: t.id === tab,
        }))}
      />
      {!org.loaded && !org.orgId ? (
        <LoadingBlock label="Loading organizations…" />
      ) : !org.orgId ? (
        <EmptyState icon="tenants" title="No organization to configure" testId="pam-no-org">
          Elevation policy belongs to an organization, and none is within your access yet.
          {org.scope !== 'organization' ? (
            <>
              {' '}
              Create one under <Link to="/tenants">Tenants</Link>.
            </>
          ) : null}
        </EmptyState>
      ) : shown ? (
        <shown.View org={org} />
      ) : (
        <EmptyState icon="alert" title="There is no such page" testId="not-found">
          <Link to={org.link('/pam/rules')}>Back to the rules</Link>
        </EmptyState>
      )}
    </div>
  );
}

/** The organization the tabs show (partner and system callers); organization callers see none. */
export function OrgPicker({ org }: { org: PolicyOrg }) {
  if (!org.picks || org.orgs.length === 0) return null;
  if (org.orgs.length === 1)
    return (
      <span className="ep-org-one" data-testid="pam-org-name">
        {org.orgs[0]?.name}
      </span>
    );
  return (
    <label className="ep-org">
      <span className="muted small">Organization</span>
      <select
        value={org.orgId ?? ''}
        onChange={(e) => org.setOrgId(e.target.value)}
        data-testid="pam-org"
        aria-label="Organization"
      >
        {org.orgId && !org.org ? <option value={org.orgId}>Unknown organization</option> : null}
        <LabelOptions options={nameChoices(org.orgs)} />
      </select>
    </label>
  );
}
