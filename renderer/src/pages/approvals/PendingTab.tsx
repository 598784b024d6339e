import { useState } from 'react';
import type { ElevationRequestList } from '../../../../server/contract';
import { Icon } from '../../components/Icon';
import { useNow } from '../../lib/hooks';
import { useLive } from '../../live/socket';
import { EmptyState, LoadFailure, LoadingBlock, Pager } from '../tenants/admin-kit';
import { FLOW_LABEL, elapsedText, msSince, waitingTone } from './format';
import { upsert } from './live';
import { DeviceCell, RequestRowLink, RiskPill, SubjectCell, TableHead } from './parts';
import { useLiveList, type Patch } from './useLiveList';

// The inbox: requests waiting for a decision, the longest-waiting first, each with a ticking wait time.

const LIMIT = 100;

const selectList = (r: ElevationRequestList) => ({ rows: r.requests, pagination: r.pagination });

const patchPending: Patch = (rows, _event, request) => {
  if (request.status === 'pending') return upsert(rows, request, 'end');
  return rows.some((r) => r.id === request.id) ? rows.filter((r) => r.id !== request.id) : null;
};

export function LiveNote() {
  const state = useLive((s) => s.state);
  if (state === 'live') return null;
  return (
    <span className="ap-live-note" data-testid="approvals-live-paused">
      <Icon name="refresh" size={13} />
      {state === 'connecting' ? 'Connecting live updates…' : 'Live updates paused; reconnecting.'}
    </span>
  );
}

export function PendingTab() {
  const [page, setPage] = useState(1);
  const list = useLiveList(
    `/pam/elevation-requests?status=pending&order=oldest&limit=${LIMIT}&page=${page}`,
    selectList,
    patchPending,
  );
  const now = useNow(1000);

  if (list.error && !list.rows)
    return (
      <LoadFailure
        error={list.error}
        onRetry={list.reload}
        forbiddenTitle="Elevation requests are not available to you"
        forbiddenText="Your account cannot read elevation requests."
      />
    );
  if (!list.rows) return <LoadingBlock label="Loading pending requests…" />;

  return (
    <div className="ap-tab" data-testid="approvals-pending">
      <div className="ap-bar">
        <span className="muted small">
          Longest waiting first. Open a request to see everything about it and decide.
        </span>
        <span className="ap-grow" />
        <LiveNote />
      </div>
      {list.rows.length === 0 ? (
        <EmptyState icon="approvals" title="Nothing waits for a decision" testId="approvals-pending-empty">
          New requests appear here the moment an agent reports them, with a desktop notification if you turn
          those on.
        </EmptyState>
      ) : (
        <div className="adm-table-card ap-table" role="table" aria-label="Pending elevation requests">
          <TableHead
            variant="ap-pending"
            columns={['Waiting', 'Risk', 'Request', 'Device', 'User', 'Flow', 'Matched rule', '']}
          />
          {list.rows.map((r) => {
            const waited = msSince(r.requestedAt, now);
            return (
              <RequestRowLink
                key={r.id}
                request={r}
                variant="ap-pending"
                testId={`approval-row-${r.id}`}
                className={list.fresh.has(r.id) ? 'ap-fresh' : undefined}
              >
                <span
                  className={`ap-wait tone-${waitingTone(waited)}`}
                  title={`Requested ${new Date(r.requestedAt).toLocaleString()}`}
                  data-testid="approval-waiting"
                >
                  <Icon name="clock" size={13} />
                  {elapsedText(waited)}
                </span>
                <span>
                  <RiskPill risk={r.riskLevel} />
                </span>
                <SubjectCell request={r} />
                <DeviceCell request={r} />
                <span className="ap-cell" title={r.subjectUsername ?? undefined}>
                  {r.subjectUsername ?? <span className="muted">—</span>}
                </span>
                <span className="ap-cell ap-muted">{FLOW_LABEL[r.flowType]}</span>
                <span className="ap-cell ap-muted">{r.pamRuleName ?? '—'}</span>
                <Icon name="chevron" size={14} className="ap-chev" />
              </RequestRowLink>
            );
          })}
          <Pager pagination={list.pagination} onPage={setPage} />
        </div>
      )}
    </div>
  );
}
