import type { KeyboardEvent } from 'react';
import type { AuditEntry } from '../../../../server/contract';
import { compactTime, formatDateTime } from '../../lib/format';
import { VirtualTable, type VirtualList, type VirtualTableSpec } from '../../ui';
import { actorName, CategoryBadge, ResultPill } from './parts';

// The audit log on the kit's virtualized table, newest first. The frame holds the keyboard: up and down move
// the highlighted row (and the open drawer follows it), Enter opens it, Escape (the drawer's own) closes.

const TABLE: VirtualTableSpec = {
  label: 'Audit log',
  rowHeight: 40,
  className: 'au-row',
  minWidth: 880,
  scrollTestId: 'audit-log-scroll',
  columns: (
    [
      ['time', 'Time'],
      ['actor', 'Actor'],
      ['action', 'Action'],
      ['resource', 'Resource'],
      ['category', 'Category'],
      ['result', 'Result'],
    ] as const
  ).map(([id, label]) => ({ id, label, className: `au-cell au-col-${id}` })),
};

export function LogTable({
  list,
  active,
  openId,
  onActive,
  onOpen,
  resetKey,
}: {
  list: VirtualList<AuditEntry>;
  /** The highlighted row's index (-1: none yet). */
  active: number;
  openId: string | null;
  onActive: (index: number) => void;
  onOpen: (entry: AuditEntry | null) => void;
  resetKey: string;
}) {
  const { rows } = list;
  const move = (index: number) => {
    const next = Math.max(0, Math.min(rows.length - 1, index));
    const entry = rows[next];
    if (!entry) return;
    onActive(next);
    // The drawer shows whichever row the keyboard is on while it is open.
    if (openId) onOpen(entry);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      move(active < 0 ? 0 : active + (e.key === 'ArrowDown' ? 1 : -1));
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      move(e.key === 'Home' ? 0 : rows.length - 1);
    } else if (e.key === 'Enter') {
      const entry = rows[active];
      if (entry) {
        e.preventDefault();
        onOpen(entry);
      }
    }
  };

  return (
    <div
      className="au-log-frame"
      tabIndex={0}
      onKeyDown={onKeyDown}
      aria-activedescendant={rows[active] ? `audit-row-${rows[active].id}` : undefined}
      data-testid="audit-log"
    >
      <VirtualTable
        spec={TABLE}
        list={list}
        resetKey={resetKey}
        activeIndex={active}
        renderRow={(e, row, item) => {
          const isActive = item.index === active;
          return (
            <div
              {...row}
              id={`audit-row-${e.id}`}
              className={`au-row au-item${isActive ? ' active' : ''}${openId === e.id ? ' open' : ''}`}
              aria-selected={isActive}
              onClick={() => {
                onActive(item.index);
                onOpen(e);
              }}
              data-testid="audit-row"
              data-id={e.id}
              data-action={e.action}
              data-result={e.result}
            >
              <div className="au-cell au-col-time muted" role="cell" title={formatDateTime(e.timestamp)}>
                {compactTime(e.timestamp)}
              </div>
              <div className="au-cell au-col-actor" role="cell" title={e.user.email ?? undefined}>
                {actorName(e.user, e.actorType)}
              </div>
              <div className="au-cell au-col-action mono" role="cell" title={e.action}>
                {e.action}
              </div>
              <div
                className="au-cell au-col-resource"
                role="cell"
                title={e.resource.name ?? e.resource.id ?? undefined}
              >
                <span className="muted mono">{e.resource.type}</span>
                {e.resource.name ? <span className="au-resource-name"> {e.resource.name}</span> : null}
              </div>
              <div className="au-cell au-col-category" role="cell">
                <CategoryBadge category={e.category} />
              </div>
              <div className="au-cell au-col-result" role="cell">
                <ResultPill result={e.result} />
              </div>
            </div>
          );
        }}
      />
    </div>
  );
}
