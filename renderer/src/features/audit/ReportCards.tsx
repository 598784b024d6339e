import type { AuditComplianceReport, AuditEntry, AuditUserActivityRow } from '../../../../server/contract';
import { compactTime, formatCount, formatDateTime, plural } from '../../lib/format';
import { BarChart, BarList, CHART_COLORS } from '../../ui';
import { auditApi } from './api';
import { CATEGORIES, CATEGORY_LABEL } from './model';
import { actorName, ResultPill } from './parts';
import { countColumn, EventsSummary, ReportTable, type AuditReport, type ReportColumn } from './ReportCard';

// The four reports, each as data for ReportCard. Pictures where they say more than a table: events per day by result (overview), security
// events and their failures over time, failures per actor; tables for the lists (who did what, the compliance
// actions, the latest security events).

/** A day of a report as the chart's category: "Nov 23" (report days are UTC dates). */
const dayLabel = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

/** Per-day columns: the days as categories, one stacked series per part of the day's count. */
function perDay<D extends { day: string }>(
  days: D[],
  parts: Array<{ label: string; color: string; value: (d: D) => number }>,
) {
  return {
    categories: days.map((d) => dayLabel(d.day)),
    series: parts.map((p) => ({ label: p.label, color: p.color, values: days.map(p.value) })),
  };
}

/** A report that counts nothing in the range shows `text` instead of its body. */
const noneInRange = (text: string) => ({ when: (r: { total: number }) => r.total === 0, text });

const lastSeen = (at: string | null) =>
  at ? <span title={formatDateTime(at)}>{compactTime(at)}</span> : '—';

const USER_COLUMNS: Array<ReportColumn<AuditUserActivityRow>> = [
  { label: 'Actor', cell: (u) => <span title={u.email ?? undefined}>{actorName(u, u.actorType)}</span> },
  { label: 'Role', cell: (u) => u.role ?? '—', tone: () => 'muted' },
  countColumn('Events', (u) => u.total),
  countColumn('Failed', (u) => u.failures, 'tone-bad'),
  countColumn('Denied', (u) => u.denied, 'tone-warn'),
  { label: 'Last seen', cell: (u) => lastSeen(u.lastSeenAt), tone: () => 'nowrap muted' },
];

type ComplianceGroup = AuditComplianceReport['groups'][number];

const COMPLIANCE_COLUMNS: Array<ReportColumn<ComplianceGroup>> = [
  { label: 'Action', cell: (g) => g.action, tone: () => 'mono' },
  countColumn('Count', (g) => g.count),
  countColumn('Failed', (g) => g.failure, 'tone-bad'),
  countColumn('Denied', (g) => g.denied, 'tone-warn'),
  countColumn('Actors', (g) => g.actors),
  { label: 'Last', cell: (g) => lastSeen(g.lastAt), tone: () => 'nowrap muted' },
];

type Answer<R extends (...a: never[]) => Promise<unknown>> = Awaited<ReturnType<R>>;

export const OVERVIEW_REPORT: AuditReport<Answer<typeof auditApi.stats>> = {
  name: 'stats',
  read: auditApi.stats,
  title: 'Events per day',
  icon: 'activity',
  testId: 'report-overview',
  summary: (s) => (
    <EventsSummary
      total={s.total}
      failed={s.byResult.failure + s.byResult.denied}
      testId="report-overview-total"
    />
  ),
  empty: noneInRange('No audit entries were written in this range.'),
  body: (s) => (
    <>
      <BarChart
        ariaLabel="Audit events per day by result"
        {...perDay(s.byDay, [
          { label: 'Success', color: CHART_COLORS.ok, value: (d) => d.success },
          { label: 'Failure', color: CHART_COLORS.bad, value: (d) => d.failure },
          { label: 'Denied', color: CHART_COLORS.warn, value: (d) => d.denied },
        ])}
        stacked
        height={170}
        testId="chart-events-per-day"
      />
      <div className="au-report-split">
        <div>
          <h3 className="au-report-sub">By category</h3>
          <BarList
            label="Events by category"
            unit="events"
            rows={CATEGORIES.filter((c) => s.byCategory[c] > 0)
              .sort((a, b) => s.byCategory[b] - s.byCategory[a])
              .map((c) => ({ key: c, label: CATEGORY_LABEL[c], value: s.byCategory[c] }))}
          />
        </div>
        <div>
          <h3 className="au-report-sub">Most frequent actions</h3>
          <BarList
            label="Most frequent actions"
            unit="events"
            rows={s.topActions.map((a) => ({
              key: a.action,
              label: a.action,
              value: a.count,
              tone: 'muted',
            }))}
          />
        </div>
      </div>
    </>
  ),
};

/** The security report; a latest event it lists opens with `onOpen` (the log's entry drawer). */
export const securityReport = (
  onOpen: (e: AuditEntry) => void,
): AuditReport<Answer<typeof auditApi.securityEvents>> => ({
  name: 'security-events',
  read: auditApi.securityEvents,
  title: 'Security events',
  icon: 'lock',
  testId: 'report-security',
  summary: (r) => <EventsSummary total={r.total} failed={r.failures} />,
  empty: noneInRange('No sign-ins, permission changes or policy changes in this range.'),
  body: (r) => (
    <>
      <BarChart
        ariaLabel="Security events per day"
        {...perDay(r.byDay, [
          { label: 'Succeeded', color: CHART_COLORS.accent, value: (d) => d.total - d.failures },
          { label: 'Failed or denied', color: CHART_COLORS.bad, value: (d) => d.failures },
        ])}
        stacked
        height={170}
        testId="chart-security-per-day"
      />
      <BarList
        label="Security events by action"
        unit="events"
        rows={r.byAction
          .filter((a) => a.count > 0)
          .map((a) => ({
            key: a.action,
            label: a.action,
            sub: a.failures ? `${formatCount(a.failures)} failed` : undefined,
            value: a.count,
            tone: a.failures ? 'bad' : 'accent',
          }))}
      />
      <h3 className="au-report-sub">Latest</h3>
      <table className="adm-table au-mini-table" data-testid="report-security-latest">
        <tbody>
          {r.latest.map((e) => (
            <tr key={e.id} className="clickable" onClick={() => onOpen(e)} data-testid="report-latest-row">
              <td className="nowrap muted" title={formatDateTime(e.timestamp)}>
                {compactTime(e.timestamp)}
              </td>
              <td className="mono">{e.action}</td>
              <td className="nowrap">{actorName(e.user, e.actorType)}</td>
              <td>
                <ResultPill result={e.result} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  ),
});

/** The eight actors with the most failed or denied actions, most first. */
const mostFailing = (users: AuditUserActivityRow[]) =>
  users
    .filter((u) => u.failures + u.denied > 0)
    .sort((a, b) => b.failures + b.denied - (a.failures + a.denied))
    .slice(0, 8);

export const USER_ACTIVITY_REPORT: AuditReport<Answer<typeof auditApi.userActivity>> = {
  name: 'user-activity',
  read: auditApi.userActivity,
  title: 'User activity',
  icon: 'users',
  testId: 'report-users',
  summary: (r) => (
    <>
      {plural(r.users.length, 'actor')}
      {r.truncated ? ' (the 500 most active)' : ''}
    </>
  ),
  empty: { when: (r) => r.users.length === 0, text: 'Nobody did anything recorded in this range.' },
  body: (r) => {
    const failing = mostFailing(r.users);
    return (
      <>
        <h3 className="au-report-sub">Failures per actor</h3>
        {failing.length ? (
          <BarList
            label="Failed or denied actions per actor"
            unit="failed or denied"
            testId="chart-failures-per-actor"
            rows={failing.map((u) => ({
              key: u.actorId,
              label: actorName(u, u.actorType),
              sub: u.role ?? undefined,
              value: u.failures + u.denied,
              tone: 'bad',
            }))}
          />
        ) : (
          <span className="muted small">No failed or denied actions.</span>
        )}
        <ReportTable
          rows={r.users.slice(0, 50)}
          columns={USER_COLUMNS}
          rowKey={(u) => `${u.actorType}-${u.actorId}`}
          testId="report-users-table"
          rowTestId="report-user-row"
        />
      </>
    );
  },
};

export const COMPLIANCE_REPORT: AuditReport<AuditComplianceReport> = {
  name: 'compliance',
  read: auditApi.compliance,
  title: 'Compliance',
  icon: 'audit',
  testId: 'report-compliance',
  summary: (r) => plural(r.total, 'recorded action'),
  empty: noneInRange('No data access, exports, device changes, policy changes or scripts in this range.'),
  body: (r) => (
    <>
      <BarChart
        ariaLabel="Compliance actions per day"
        {...perDay(r.byDay, [{ label: 'Actions', color: CHART_COLORS.accent, value: (d) => d.total }])}
        height={120}
        testId="chart-compliance-per-day"
      />
      <ReportTable
        rows={r.groups}
        columns={COMPLIANCE_COLUMNS}
        rowKey={(g) => g.action}
        testId="report-compliance-table"
        rowTestId="report-compliance-row"
      />
    </>
  ),
};
