import { Fragment, useEffect, useRef, type CSSProperties, type ReactNode } from 'react';
import { useVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import { Spinner } from './basics';
import './virtual-table.css';

// A dense, virtualized grid table for long lists: only the rows in view are in the DOM, so thousands of rows
// scroll smoothly. The caller draws the header cells and each row (a grid whose columns its own class sets);
// `onNearEnd` asks for the next page a little before the loaded rows run out.

/** The props a row must spread on its outermost element (position, height, aria-rowindex). */
export interface VirtualRowProps {
  role: 'row';
  'aria-rowindex': number;
  style: CSSProperties;
}

export function VirtualTable<T>({
  label,
  rows,
  total,
  rowHeight,
  getKey,
  head,
  renderRow,
  onNearEnd,
  loadingMore,
  loadingMoreLabel,
  prefetchRows = 120,
  dim,
  resetKey,
  className,
  scrollTestId,
  minWidth,
  activeIndex,
}: {
  label: string;
  rows: T[];
  /** All rows there are (the loaded ones may be fewer). */
  total: number;
  rowHeight: number;
  getKey: (row: T) => string;
  /** The header row's cells. */
  head: ReactNode;
  renderRow: (row: T, props: VirtualRowProps, item: VirtualItem) => ReactNode;
  onNearEnd?: () => void;
  loadingMore?: boolean;
  loadingMoreLabel?: string;
  /** Start fetching the next page this many rows before the end of what is loaded. */
  prefetchRows?: number;
  dim?: boolean;
  /** A new search, filter or sort starts at the top. */
  resetKey?: string;
  /** The grid class shared by the header and every row (it sets the columns). */
  className: string;
  scrollTestId?: string;
  /** Wider grids scroll sideways inside the table's frame. */
  minWidth?: number;
  /** The row the keyboard is on: scrolled into view whenever it changes. */
  activeIndex?: number | null;
}) {
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
      return row === undefined ? index : getKey(row);
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
    <div className={`ui-vtable${dim ? ' dim' : ''}`} role="table" aria-label={label} aria-rowcount={total}>
      <div className={`${className} ui-grid-head`} role="row">
        {head}
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
            <Spinner label={loadingMoreLabel ?? 'Loading more…'} />
          </div>
        ) : null}
      </div>
    </div>
  );
}
