import { useMemo, useState } from 'react';
import type { AuditEntry, AuditReportQuery } from '../../../../server/contract';
import { useOrganizations } from '../../lib/directory';
import { ChoiceSelect, FilterBar, nameChoices, Segmented } from '../../ui';
import { EntryDrawer } from './EntryDrawer';
import { ReportCard } from './ReportCard';
import { COMPLIANCE_REPORT, OVERVIEW_REPORT, securityReport, USER_ACTIVITY_REPORT } from './ReportCards';
import { RANGE_DAYS, reportQuery, type RangeDays } from './report-range';

// /audit/reports: what the log says over a range, as pictures where a picture says more (events per day,
// security events over time, failures per actor) and tables for the rest: the overview, user activity,
// security events and compliance. An entry listed in a report opens in the same drawer as in the log.

export function ReportsView() {
  const [days, setDays] = useState<RangeDays>(30);
  const [orgId, setOrgId] = useState('');
  const [query, setQuery] = useState<AuditReportQuery>(() => reportQuery(30, ''));
  const [open, setOpen] = useState<AuditEntry | null>(null);
  const { orgs } = useOrganizations();
  const security = useMemo(() => securityReport(setOpen), []);

  const change = (nextDays: RangeDays, nextOrg: string) => {
    setDays(nextDays);
    setOrgId(nextOrg);
    setQuery(reportQuery(nextDays, nextOrg));
  };

  return (
    <div className="au-reports" data-testid="audit-reports">
      <FilterBar>
        <Segmented<`${RangeDays}`>
          label="Range"
          small
          value={`${days}`}
          onChange={(v) => change(Number(v) as RangeDays, orgId)}
          options={RANGE_DAYS.map((d) => [`${d}`, `Last ${d} days`] as const)}
          testId="report-range"
        />
        {orgs.length > 1 ? (
          <ChoiceSelect
            ariaLabel="Organization"
            emptyLabel="All organizations"
            value={orgId}
            onChange={(v) => change(days, v)}
            options={nameChoices(orgs)}
            testId="report-org"
          />
        ) : null}
      </FilterBar>
      <div className="au-report-grid">
        <ReportCard report={OVERVIEW_REPORT} query={query} />
        <ReportCard report={security} query={query} />
        <ReportCard report={USER_ACTIVITY_REPORT} query={query} />
        <ReportCard report={COMPLIANCE_REPORT} query={query} />
      </div>
      <EntryDrawer entry={open} onClose={() => setOpen(null)} />
    </div>
  );
}
