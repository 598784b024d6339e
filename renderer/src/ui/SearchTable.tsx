import type { ReactElement, ReactNode } from 'react';
import { ListCount, ListToolbar, type ListToolbarProps } from './filters';
import { AdminTable, NoMatchRow } from './table';

// A searchable admin list: the toolbar (search box, filters, count) over the table card, with the row that says
// the search found nothing. The admin list screens (roles, partners, organizations) all stacked these three the
// same way; this piece stacks them once.

export function SearchTable({
  search,
  count,
  countTestId,
  table,
  after,
  noMatch,
  children,
  ...toolbar
}: Omit<ListToolbarProps, 'query' | 'onQuery' | 'count'> & {
  /** The search box's text and change, as useRowSearch gives them. */
  search: { query: string; onQuery: (value: string) => void };
  /** The muted "how many" text at the toolbar's right end. */
  count: ReactNode;
  countTestId?: string;
  table: { testId: string; columns: Array<string | ReactElement> };
  after?: ReactNode;
  /** The text of the row shown when no row is left; null while there are rows. */
  noMatch: ReactNode | null;
  children: ReactNode;
}) {
  return (
    <>
      <ListToolbar {...search} {...toolbar} count={<ListCount testId={countTestId}>{count}</ListCount>} />
      <AdminTable testId={table.testId} columns={table.columns} after={after}>
        {children}
        {/* One more column than the headers: the actions column AdminTable adds. */}
        {noMatch !== null ? <NoMatchRow colSpan={table.columns.length + 1}>{noMatch}</NoMatchRow> : null}
      </AdminTable>
    </>
  );
}
