import { useEffect, useMemo, useState } from 'react';
import type { ElevationRequest } from '../../../../server/contract';
import { useDebounced, useIdSet } from '../../lib/hooks';
import { useRouter } from '../../lib/router';
import { formatCount } from '../../lib/format';
import { ListEmpty, PagedListStates } from '../../ui';
import { SmallButton } from '../../ui/SmallButton';
import { inboxQuery, useInboxList, type InboxFilters } from './api';
import { BulkOutcome } from './BulkOutcome';
import { useBulkRun } from './useBulkRun';
import { DenySelectedDialog } from './DenySelectedDialog';
import { REQUESTS_FORBIDDEN } from './format';
import { isFiltered, NO_FILTERS, readInboxFilters, writeInboxFilters } from './inbox-filters';
import { InboxTable } from './InboxTable';
import { InboxToolbar } from './InboxToolbar';
import { LiveBar } from './parts';
import { useInboxRows } from './useInboxRows';

// The inbox: requests waiting for a decision, critical first and the longest waiting first within a risk, with
// filters and search in the address, new arrivals pinned on top for a moment, and Deny selected.

export function PendingTab({ canApprove }: { canApprove: boolean }) {
  const search = useRouter((s) => s.search);
  const filters = useMemo(() => readInboxFilters(search), [search]);
  // Typed filters reach the address (and the server) once typing pauses.
  const [typed, setTyped] = useState({ q: filters.q, device: filters.device, user: filters.user });
  const settled = useDebounced(typed, 300);
  useEffect(() => {
    const now = readInboxFilters(window.location.search);
    if (settled.q !== now.q || settled.device !== now.device || settled.user !== now.user)
      writeInboxFilters({ ...now, ...settled });
  }, [settled]);
  const set = (patch: Partial<InboxFilters>) => writeInboxFilters({ ...filters, ...patch });

  const query = inboxQuery(filters);
  const list = useInboxList(query);
  const view = useInboxRows(list, filters);
  const total = Math.max(view.rows.length, list.total + view.delta);

  const { ids: selected, toggle, set: setSelected } = useIdSet();
  const run = useBulkRun<ElevationRequest[]>(() => {
    setSelected(new Set());
    list.reload();
  });
  // Only rows still on screen stay selected: a request decided elsewhere leaves the selection with its row.
  const chosen = view.rows.filter((r) => selected.has(r.id));

  const clearAll = () => {
    setTyped({ q: '', device: '', user: '' });
    writeInboxFilters(NO_FILTERS);
  };
  const filtered = isFiltered(filters);

  return (
    <div className="ap-tab ap-inbox" data-testid="approvals-pending">
      <InboxToolbar
        filters={filters}
        typed={typed}
        onType={(patch) => setTyped((t) => ({ ...t, ...patch }))}
        onSet={set}
      />
      <LiveBar>
        {list.loading ? null : (
          <span className="ap-inbox-count" data-testid="inbox-count">
            {formatCount(total)} waiting
          </span>
        )}
        Critical first, then the longest waiting; new requests show on top for a moment.
      </LiveBar>
      {run.summary ? <BulkOutcome summary={run.summary} onDismiss={run.dismiss} /> : null}
      {chosen.length > 0 ? (
        <div className="ap-selection" role="status" data-testid="inbox-selection">
          <span>
            <strong data-testid="inbox-selected-count">{chosen.length}</strong> selected
          </span>
          {canApprove ? (
            <SmallButton tone="danger" icon="close" onClick={() => run.open(chosen)} testId="deny-selected">
              Deny selected
            </SmallButton>
          ) : (
            <span className="muted small">Your role can view requests only.</span>
          )}
          <SmallButton tone="ghost" onClick={() => setSelected(new Set())}>
            Clear selection
          </SmallButton>
        </div>
      ) : null}

      <PagedListStates
        list={list}
        shown={view.rows.length}
        loading="Loading pending requests…"
        forbidden={REQUESTS_FORBIDDEN}
        empty={
          <ListEmpty
            filtered={filtered}
            icon="approvals"
            title="Nothing waits for a decision"
            testId="approvals-pending-empty"
            noMatch={{
              title: 'No pending request matches',
              text: 'Nothing waiting matches the search and filters above.',
            }}
            action={
              filtered ? (
                <SmallButton tone="secondary" onClick={clearAll} testId="inbox-clear-filters">
                  Clear search and filters
                </SmallButton>
              ) : undefined
            }
          >
            New requests appear here the moment an agent reports them, with a desktop notification if you turn
            those on.
          </ListEmpty>
        }
      >
        <InboxTable
          list={{ ...list, rows: view.rows, total }}
          fresh={view.fresh}
          selected={selected}
          onToggle={toggle}
          onToggleAll={(on) => setSelected(on ? new Set(view.rows.map((r) => r.id)) : new Set())}
          resetKey={JSON.stringify(query)}
        />
      </PagedListStates>

      {run.pending ? <DenySelectedDialog requests={run.pending} {...run.props} /> : null}
    </div>
  );
}
