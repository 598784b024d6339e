import { useState } from 'react';
import { Icon } from '../../ui/Icon';
import { LoadState } from '../../ui';
import { useNow } from '../../lib/hooks';
import { EmptyState, Pager } from '../../ui';
import { FLOW_LABEL, REQUESTS_FORBIDDEN, msSince, waitingTone } from './format';
import { upsert, without } from './live';
import {
  DeviceCell,
  Elapsed,
  LiveBar,
  RequestRowLink,
  RiskCell,
  SubjectCell,
  TableHead,
  UserCell,
} from './parts';
import { selectRequests, useLiveList, type Patch } from './useLiveList';
import { approvalsApi } from './api';

// The inbox: requests waiting for a decision, the longest-waiting first, each with a ticking wait time.

const LIMIT = 100;

const patchPending: Patch = (rows, _event, request) =>
  request.status === 'pending' ? upsert(rows, request, 'end') : without(rows, request.id);

export function PendingTab() {
  const [page, setPage] = useState(1);
  const list = useLiveList(
    approvalsApi.requests({ status: 'pending', order: 'oldest', limit: LIMIT, page }),
    selectRequests,
    patchPending,
  );
  const now = useNow(1000);

  if (!list.rows)
    return <LoadState of={list} loading="Loading pending requests…" forbidden={REQUESTS_FORBIDDEN} />;

  return (
    <div className="ap-tab" data-testid="approvals-pending">
      <LiveBar>Longest waiting first. Open a request to see everything about it and decide.</LiveBar>
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
              <RequestRowLink key={r.id} request={r} variant="ap-pending" fresh={list.fresh.has(r.id)}>
                <Elapsed
                  ms={waited}
                  tone={waitingTone(waited)}
                  title={`Requested ${new Date(r.requestedAt).toLocaleString()}`}
                  testId="approval-waiting"
                />
                <RiskCell request={r} />
                <SubjectCell request={r} />
                <DeviceCell request={r} />
                <UserCell request={r} />
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
