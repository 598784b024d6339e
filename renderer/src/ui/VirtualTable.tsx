import { Fragment, useEffect, useRef, type CSSProperties, type ReactNode } from 'react';
import { useVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import { formatCount } from '../lib/format';
import { Spinner } from './basics';
import './virtual-table.css';

// A dense, virtualized grid table for long lists: only the rows in view are in the DOM, so thousands of rows
// scroll smoothly. The caller describes the table once (`spec`: name, row grid, columns), hands over the list's
// state as it is (`list`: the paged-list hook's fits) and draws each row (a grid whose columns its class sets);
// the next page is asked for a little before the loaded rows run out.

/** The props a row must spread on its outermost element (position, height, aria-rowindex). */
export interface VirtualRowProps {
  role: 'row';
  'aria-rowindex': number;
  style: CSSProperties;
}

/** The rows a VirtualTable shows and how it reads more: lib/paged-list's PagedList as it is, or rows in memory. */
export interface VirtualList<T> {
  rows: T[];
  /** All rows there are (the loaded ones may be fewer). */
  total: number;
  loadMore?: () => void;
  loadingMore?: boolean;
  /** Showing the previous query's rows while the current one loads: the table is dimmed. */
  switching?: boolean;
}

/** A header cell: its label, its class; a sortable one names its sort key. */
export interface VirtualColumn {
  id: string;
  label: ReactNode;
  className?: string;
  sort?: string;
}

/** What does not change about a table: its name, its row grid, its columns. */
export interface VirtualTableSpec {
  label: string;
  rowHeight: number;
  /** The grid class shared by the header and every row (it sets the columns). */
  className: string;
  /** Wider grids scroll sideways inside the table's frame. */
  minWidth?: number;
  scrollTestId?: string;
  /** The header from data; a table with a header of its own passes `head` instead. */
  columns?: VirtualColumn[];
}

/** The sort a table's header shows and changes (a column's button is `<testIdPrefix>-<sort key>`). */
export interface VirtualSort {
  key: string;
  order: 'asc' | 'desc';
  onSort: (key: string) => void;
  testIdPrefix: string;
}

function HeaderCell({ column, sort }: { column: VirtualColumn; sort?: VirtualSort }) {
  const active = column.sort !== undefined && column.sort === sort?.key;
  const by = column.sort;
  return (
    <div
      role="columnheader"
      className={column.className}
      aria-sort={active ? (sort?.order === 'asc' ? 'ascending' : 'descending') : undefined}
    >
      {by !== undefined && sort ? (
        <button
          type="button"
          className={`ui-vsort${active ? ' on' : ''}`}
          onClick={() => sort.onSort(by)}
          data-testid={`${sort.testIdPrefix}-${by}`}
        >
          {column.label}
          <span className="ui-vsort-arrow" aria-hidden="true">
            {active ? (sort.order === 'asc' ? '▲' : '▼') : '↕'}
          </span>
        </button>
      ) : (
        column.label
      )}
    </div>
  );
}

export function VirtualTable<T>({
  spec,
  list,
  getKey,
  head,
  sort,
  renderRow,
  resetKey,
  activeIndex,
  prefetchRows = 120,
}: {
  spec: VirtualTableSpec;
  list: VirtualList<T>;
  /** A row's key; without it, the row's own `id` (most rows are records), else its index. */
  getKey?: (row: T) => string;
  /** The header row's cells, for a table whose spec has no columns. */
  head?: ReactNode;
  sort?: VirtualSort;
  renderRow: (row: T, props: VirtualRowProps, item: VirtualItem) => ReactNode;
  /** A new search, filter or sort starts at the top. */
  resetKey?: string;
  /** The row the keyboard is on: scrolled into view whenever it changes. */
  activeIndex?: number | null;
  /** Start fetching the next page this many rows before the end of what is loaded. */
  prefetchRows?: number;
}) {
  const { rows, total, loadMore: onNearEnd, loadingMore, switching } = list;
  const { label, rowHeight, className, minWidth, scrollTestId, columns } = spec;
  const scroller = useRef<HTMLDivElement>(null);
  // No React Compiler in this build: the virtualizer's non-memoizable functions are fine here.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: 12,
    getItemKey: (index) => {
      const row = rows[index];
      if (row === undefined) return index;
      if (getKey) return getKey(row);
      const id: unknown = (row as { id?: unknown }).id;
      return typeof id === 'string' ? id : index;
    },
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items[items.length - 1]?.index ?? 0;

  useEffect(() => {
    if (scroller.current) scroller.current.scrollTop = 0;
  }, [resetKey]);

  useEffect(() => {
    if (activeIndex !== undefined && activeIndex !== null && activeIndex >= 0)
      virtualizer.scrollToIndex(activeIndex, { align: 'auto' });
  }, [activeIndex, virtualizer]);

  useEffect(() => {
    if (onNearEnd && rows.length < total && lastIndex >= rows.length - prefetchRows) onNearEnd();
  }, [lastIndex, rows.length, total, onNearEnd, prefetchRows]);

  return (
    <div
      className={`ui-vtable${switching ? ' dim' : ''}`}
      role="table"
      aria-label={label}
      aria-rowcount={total}
    >
      <div className={`${className} ui-grid-head`} role="row">
        {columns ? columns.map((c) => <HeaderCell key={c.id} column={c} sort={sort} />) : head}
      </div>
      <div className="ui-vscroll" ref={scroller} style={{ minWidth }} data-testid={scrollTestId}>
        <div className="ui-vbody" style={{ height: virtualizer.getTotalSize() }} role="rowgroup">
          {items.map((item) => {
            const row = rows[item.index];
            if (row === undefined) return null;
            return (
              <Fragment key={item.key}>
                {renderRow(
                  row,
                  {
                    role: 'row',
                    'aria-rowindex': item.index + 1,
                    style: { transform: `translateY(${item.start}px)`, height: rowHeight },
                  },
                  item,
                )}
              </Fragment>
            );
          })}
        </div>
        {loadingMore ? (
          <div className="ui-vmore">
            <Spinner label={`Loading more of ${formatCount(total)}…`} />
          </div>
        ) : null}
      </div>
    </div>
  );
}
