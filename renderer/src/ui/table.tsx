import { Fragment, type ReactElement, type ReactNode } from 'react';
import type { Pagination } from '../../../server/contract';
import { formatCount } from '../lib/format';
import { Link, openOnRowClick } from '../lib/router';
import { SmallButton } from './SmallButton';
import './kit.css';

// Tables: the table card with its header cells and actions column, the row that opens a page, the row that says
// a search found nothing, and the pager under a paginated list.

/**
 * The table card: a header cell per column (a plain title, or a whole <th>), an actions column last, the rows,
 * and `after` under the table. `bare` leaves out the card frame, for a table that already sits in a card.
 */
export function AdminTable({
  className,
  testId,
  columns,
  after,
  bare = false,
  children,
}: {
  className?: string;
  testId: string;
  columns: Array<string | ReactElement>;
  after?: ReactNode;
  bare?: boolean;
  children: ReactNode;
}) {
  const table = (
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
  );
  if (bare)
    return (
      <>
        {table}
        {after}
      </>
    );
  return (
    <div className="adm-table-card">
      {table}
      {after}
    </div>
  );
}

/**
 * The first cell of a row: the thing's name (a link to it when `to` is given) and a quieter line under it (a
 * slug, an address, a description); `subClassName` styles that line.
 */
export function TitleCell({
  title,
  to,
  titleTestId,
  sub,
  subClassName,
}: {
  title: ReactNode;
  to?: string;
  titleTestId?: string;
  sub?: ReactNode;
  subClassName?: string;
}) {
  return (
    <td>
      <div className="adm-cell-main">
        {to ? (
          <Link to={to} className="adm-cell-title" data-testid={titleTestId}>
            {title}
          </Link>
        ) : (
          <span className="adm-cell-title">{title}</span>
        )}
        {sub ? (
          <span className={subClassName ? `adm-cell-sub ${subClassName}` : 'adm-cell-sub'}>{sub}</span>
        ) : null}
      </div>
    </td>
  );
}

/**
 * A table row that stands for a page: a click anywhere but on its own controls opens `to` (see openOnRowClick);
 * `name` is the row's `data-name`.
 */
export function LinkRow({
  to,
  controls,
  testId,
  name,
  children,
}: {
  to: string;
  controls?: string;
  testId: string;
  name: string;
  children: ReactNode;
}) {
  return (
    <tr className="clickable" data-testid={testId} data-name={name} onClick={openOnRowClick(to, controls)}>
      {children}
    </tr>
  );
}

/** The table row that says a search left no rows. */
export function NoMatchRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className="muted ui-norow">
        {children}
      </td>
    </tr>
  );
}

/**
 * Previous / Next under a paginated list. In a table card (default) it shows only when there is more than one
 * page; with `noun` it stands under a list, always says how many there are (`<noun>-count`) and which page.
 */
export function Pager({
  pagination,
  onPage,
  testId = 'pager',
  noun,
}: {
  pagination: Pagination | null;
  onPage: (page: number) => void;
  testId?: string;
  noun?: string;
}) {
  if (!pagination) return null;
  const { page, limit, total } = pagination;
  if (noun ? total === 0 : total <= limit) return null;
  const pages = Math.max(1, Math.ceil(total / limit));
  const from = (page - 1) * limit + 1;
  const to = Math.min(total, page * limit);
  const buttons = (
    <>
      <SmallButton tone="ghost" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </SmallButton>
      {noun ? (
        <span className="small muted">
          Page {page} of {pages}
        </span>
      ) : null}
      <SmallButton tone="ghost" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </SmallButton>
    </>
  );
  if (!noun)
    return (
      <div className="adm-pager" data-testid={testId}>
        <span className="muted small">
          {from}–{to} of {total}
        </span>
        {buttons}
      </div>
    );
  return (
    <div className="ui-list-pager">
      <span className="muted small" data-testid={`${noun}-count`}>
        {from}–{to} of {formatCount(total)}
      </span>
      {pages > 1 ? <div className="row gap-sm">{buttons}</div> : null}
    </div>
  );
}
