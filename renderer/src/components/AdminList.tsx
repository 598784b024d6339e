import { Fragment, type ReactElement, type ReactNode } from 'react';
import { LoadFailure, LoadingBlock } from '../pages/tenants/admin-kit';

// The scaffolding every administration list repeats: what shows until its data is there, and the table card.
// Built on the admin kit (classes from admin-kit.css); shared by the approvals and elevation policy sections.

/** What a refusal (403) of a list says: whose data it is and why the caller cannot read it. */
export interface Forbidden {
  title: string;
  text: ReactNode;
}

/**
 * Shown while a read has no data: the failure (a refusal explained calmly, anything else with Retry) once it
 * failed, a spinner until then.
 */
export function LoadState({
  of,
  loading,
  forbidden,
}: {
  of: { error: unknown; reload: () => void };
  loading?: string;
  forbidden: Forbidden;
}) {
  if (of.error)
    return (
      <LoadFailure
        error={of.error}
        onRetry={of.reload}
        forbiddenTitle={forbidden.title}
        forbiddenText={forbidden.text}
      />
    );
  return <LoadingBlock label={loading} />;
}

/**
 * The table card: a header cell per column (a plain title, or a whole <th>), an actions column last, the rows,
 * and `after` under the table.
 */
export function AdminTable({
  className,
  testId,
  columns,
  after,
  children,
}: {
  className?: string;
  testId: string;
  columns: Array<string | ReactElement>;
  after?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="adm-table-card">
      <div className="adm-table-scroll">
        <table className={className ? `adm-table ${className}` : 'adm-table'} data-testid={testId}>
          <thead>
            <tr>
              {columns.map((c, i) =>
                typeof c === 'string' ? <th key={c}>{c}</th> : <Fragment key={i}>{c}</Fragment>,
              )}
              <th className="actions" aria-label="Actions" />
            </tr>
          </thead>
          <tbody>{children}</tbody>
        </table>
      </div>
      {after}
    </div>
  );
}
