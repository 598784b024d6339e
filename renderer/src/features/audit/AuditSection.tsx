import { useEffect } from 'react';
import { useDocumentTitle } from '../../lib/hooks';
import { navigate, usePathname } from '../../lib/router';
import { PageHeader, Tabs } from '../../ui';
import { ChainsView } from './ChainsView';
import { LogView } from './LogView';
import { ReportsView } from './ReportsView';
import './audit.css';
import './audit-reports.css';

// /audit          the log: filters, search, the entry drawer, export
// /audit/reports  events per day, security events, user activity, compliance over a range
// /audit/chains   each organization's hash chain, its last verification and "Verify now"

const TABS = [
  { id: 'log', path: '/audit', label: 'Log' },
  { id: 'reports', path: '/audit/reports', label: 'Reports' },
  { id: 'chains', path: '/audit/chains', label: 'Chain status' },
] as const;

export function AuditSection() {
  const pathname = usePathname();
  const tab = TABS.find((t) => t.path === pathname);
  useDocumentTitle(tab && tab.id !== 'log' ? `Audit · ${tab.label}` : 'Audit');

  useEffect(() => {
    if (!tab) navigate('/audit', { replace: true });
  }, [tab]);

  return (
    <div className="page adm au-page" data-testid="audit-page">
      <PageHeader
        title="Audit"
        sub="Who did what, and when, in every organization you can see; each organization's entries are hash-chained so an edit or a removal shows."
      />
      <Tabs
        label="Audit"
        tabs={TABS.map((t) => ({
          to: t.path,
          label: t.label,
          testId: `audit-tab-${t.id}`,
          active: t.id === tab?.id,
        }))}
      />
      {tab?.id === 'reports' ? <ReportsView /> : tab?.id === 'chains' ? <ChainsView /> : <LogView />}
    </div>
  );
}
