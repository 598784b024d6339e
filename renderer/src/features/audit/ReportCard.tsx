import type { ReactNode } from 'react';
import { formatCount } from '../../lib/format';
import type { AuditReportQuery } from '../../../../server/contract';
import { Card, EmptyState, LoadState, type IconName } from '../../ui';
import { useAuditReport, type AuditReportName } from './api';

// The frame of one report (its card, the load state until the report is there, then what it draws of it) and
// the table its lists use.

const FORBIDDEN = {
  title: 'This report is not available to you',
  text: 'Audit reports need the audit:read permission.',
};

/** One report as data: which read it is, its card's title, icon and test id, and what it draws of the answer. */
export interface AuditReport<T> {
  name: AuditReportName;
  read: (q: AuditReportQuery) => Promise<T>;
  title: string;
  icon: IconName;
  testId: string;
  /** A figure or two beside the title, once the report is there. */
  summary?: (data: T) => ReactNode;
  /** When the report has nothing in the range, and the sentence that says what would have shown. */
  empty: { when: (data: T) => boolean; text: string };
  body: (data: T) => ReactNode;
}

/** A report's card over the range in `query`: the load state until the report is there, then its body. */
export function ReportCard<T>({ report, query }: { report: AuditReport<T>; query: AuditReportQuery }) {
  const { title, summary, empty } = report;
  const of = useAuditReport(report.name, query, report.read);
  const data = of.data;
  return (
    <Card
      title={title}
      icon={report.icon}
      testId={report.testId}
      className="au-report"
      actions={data && summary ? <span className="au-report-summary">{summary(data)}</span> : undefined}
    >
      {!data ? (
        <LoadState of={of} loading={`Loading ${title.toLowerCase()}…`} forbidden={FORBIDDEN} />
      ) : empty.when(data) ? (
        <EmptyState icon="audit" title="Nothing in this range" compact testId="report-empty">
          {empty.text}
        </EmptyState>
      ) : (
        <div className="au-report-body">{report.body(data)}</div>
      )}
    </Card>
  );
}

/** "N events · M failed or denied", the second figure red when it is not zero. */
export function EventsSummary({ total, failed, testId }: { total: number; failed: number; testId?: string }) {
  return (
    <>
      <strong data-testid={testId}>{formatCount(total)}</strong> events ·{' '}
      <span className={failed ? 'tone-bad' : 'muted'}>{formatCount(failed)} failed or denied</span>
    </>
  );
}

/** A column of a report table: its header, how a row fills its cell, and whether it holds a number. */
export interface ReportColumn<T> {
  label: string;
  cell: (row: T) => ReactNode;
  num?: boolean;
  /** Extra classes of the cell for this row (a tone when the number is not zero). */
  tone?: (row: T) => string;
}

/** A count column: grey at zero, in `tone` otherwise. */
export function countColumn<T>(
  label: string,
  count: (row: T) => number,
  tone?: 'tone-bad' | 'tone-warn',
): ReportColumn<T> {
  return {
    label,
    num: true,
    cell: (row) => formatCount(count(row)),
    tone: (row) => (count(row) === 0 ? 'muted' : (tone ?? '')),
  };
}

/** A report's table: a header row of the columns' labels, then one row per item, scrolling past its height. */
export function ReportTable<T>({
  rows,
  columns,
  rowKey,
  testId,
  rowTestId,
}: {
  rows: T[];
  columns: Array<ReportColumn<T>>;
  rowKey: (row: T) => string;
  testId: string;
  rowTestId: string;
}) {
  return (
    <div className="adm-table-scroll au-report-table">
      <table className="adm-table" data-testid={testId}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.label} className={c.num ? 'num' : undefined}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} data-testid={rowTestId}>
              {columns.map((c) => (
                <td
                  key={c.label}
                  className={[c.num ? 'num' : '', c.tone?.(row) ?? ''].join(' ').trim() || undefined}
                >
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
