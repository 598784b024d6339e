import type { ReactNode } from 'react';
import type { Paginated } from '../../../../server/contract';
import { asList, paginationOf, type QueryState } from '../../lib/query';
import { AdminTable, Card, ListStates, Pager, type IconName } from '../../ui';

/**
 * One of an organization's paged lists on its page (sites, contacts): a card with the count in its title, the
 * list's loading, failure and empty states, and its table flush with the card's edges over the pager.
 */
export function OrgListCard<T>({
  noun,
  icon,
  testId,
  actions,
  of,
  onPage,
  empty,
  table,
  children,
}: {
  /** What the card lists, capitalized and plural: the title ("Sites · 12") and the loading line say it. */
  noun: string;
  icon: IconName;
  testId: string;
  actions: ReactNode;
  of: QueryState<Paginated<T>>;
  onPage: (page: number) => void;
  /** Shown instead of the table while the list has no row. */
  empty: ReactNode;
  table: { testId: string; columns: string[]; pagerTestId: string };
  /** A table row per listed item. */
  children: (row: T) => ReactNode;
}) {
  const list = asList(of.data);
  const pagination = paginationOf(of.data);
  return (
    <Card
      title={of.data ? `${noun} · ${pagination?.total ?? list.length}` : noun}
      icon={icon}
      testId={testId}
      className="tn-sites"
      actions={actions}
    >
      <ListStates of={of} loading={`Loading ${noun.toLowerCase()}…`} empty={list.length === 0 ? empty : null}>
        <div className="tn-table-wrap">
          <AdminTable
            bare
            testId={table.testId}
            columns={table.columns}
            after={<Pager pagination={pagination} onPage={onPage} testId={table.pagerTestId} />}
          >
            {list.map(children)}
          </AdminTable>
        </div>
      </ListStates>
    </Card>
  );
}
