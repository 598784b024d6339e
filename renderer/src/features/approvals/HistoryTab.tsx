import { useCallback, useMemo } from 'react';
import { LoadState } from '../../ui';
import { navigate, useRouter } from '../../lib/router';
import { EmptyState, Pager } from '../../ui';
import { qs } from '../../lib/forms';
import { ChoiceSelect, FilterBar } from '../../ui';
import { FLOW_LABEL, FLOW_TYPES, REQUESTS_FORBIDDEN, STATUSES, STATUS_LABEL, deciderOf } from './format';
import { plural } from '../../lib/format';
import { upsert } from './live';
import {
  DeviceCell,
  EnforcementPill,
  RequestRowLink,
  RequestStatus,
  RiskCell,
  SubjectCell,
  TableHead,
  Time,
  UserCell,
} from './parts';
import { compactTime } from '../../lib/format';
import { selectRequests, useLiveList, type Patch } from './useLiveList';
import { approvalsApi } from './api';
import { SmallButton } from '../../ui/SmallButton';

// Every request, newest first, filtered by status and flow type; the filters and page live in the URL.

const LIMIT = 50;

interface HistoryFilters {
  status: string;
  flowType: string;
  page: number;
}

/** The filter bar's selects, one a filter (its URL parameter). */
const SELECTS = [
  {
    key: 'status',
    select: {
      ariaLabel: 'Status',
      emptyLabel: 'All statuses',
      options: STATUSES.map((s) => ({ value: s, label: STATUS_LABEL[s] })),
      testId: 'history-status',
    },
  },
  {
    key: 'flowType',
    select: {
      ariaLabel: 'Flow type',
      emptyLabel: 'All flow types',
      options: FLOW_TYPES.map((f) => ({ value: f, label: FLOW_LABEL[f] })),
      testId: 'history-flow-type',
    },
  },
] as const;

function readFilters(search: string): HistoryFilters {
  const p = new URLSearchParams(search);
  const status = p.get('status') ?? '';
  const flowType = p.get('flowType') ?? '';
  const page = Number(p.get('page') ?? '1');
  return {
    status: (STATUSES as string[]).includes(status) ? status : '',
    flowType: (FLOW_TYPES as string[]).includes(flowType) ? flowType : '',
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

export function HistoryTab() {
  const search = useRouter((s) => s.search);
  const filters = useMemo(() => readFilters(search), [search]);
  const set = useCallback((patch: Partial<HistoryFilters>) => {
    const next = { ...readFilters(window.location.search), page: 1, ...patch };
    navigate(
      `/approvals/history${qs({
        status: next.status,
        flowType: next.flowType,
        page: next.page > 1 ? next.page : null,
      })}`,
      { replace: true },
    );
  }, []);

  const patch: Patch = useCallback(
    (rows, event, request) => {
      if (rows.some((r) => r.id === request.id)) {
        if (filters.status && request.status !== filters.status) return 'refetch';
        return upsert(rows, request);
      }
      if (event !== 'elevation.requested' || filters.page !== 1) return null;
      if (filters.flowType && request.flowType !== filters.flowType) return null;
      if (filters.status && request.status !== filters.status) return null;
      return 'refetch';
    },
    [filters],
  );

  const list = useLiveList(
    approvalsApi.requests({
      status: filters.status || undefined,
      flowType: filters.flowType || undefined,
      order: 'newest',
      limit: LIMIT,
      page: filters.page,
    }),
    selectRequests,
    patch,
  );
  const filtered = Boolean(filters.status || filters.flowType);

  return (
    <div className="ap-tab" data-testid="approvals-history">
      <FilterBar>
        {SELECTS.map(({ key, select }) => (
          <ChoiceSelect
            key={key}
            {...select}
            value={filters[key]}
            onChange={(value) => set({ [key]: value })}
          />
        ))}
        {filtered ? (
          <SmallButton tone="ghost" onClick={() => set({ status: '', flowType: '' })} testId="history-clear">
            Clear filters
          </SmallButton>
        ) : null}
        <span className="ap-grow" />
        {list.pagination ? (
          <span className="muted small" data-testid="history-total">
            {plural(list.pagination.total, 'request')}
          </span>
        ) : null}
      </FilterBar>
      {!list.rows ? (
        <LoadState of={list} loading="Loading history…" forbidden={REQUESTS_FORBIDDEN} />
      ) : list.rows.length === 0 ? (
        <EmptyState
          icon="audit"
          title={filtered ? 'No request matches these filters' : 'No elevation requests yet'}
          testId="approvals-history-empty"
        >
          {filtered
            ? 'Try another status or flow type.'
            : 'Requests appear here once agents report elevation prompts, whatever was decided.'}
        </EmptyState>
      ) : (
        <div className="adm-table-card ap-table" role="table" aria-label="Elevation history">
          <TableHead
            variant="ap-history"
            columns={[
              'Requested',
              'Status',
              'Risk',
              'Request',
              'Device',
              'User',
              'Decided by',
              'On the device',
            ]}
          />
          {list.rows.map((r) => (
            <RequestRowLink key={r.id} request={r} variant="ap-history" fresh={list.fresh.has(r.id)}>
              <span className="ap-stamp mono">
                <Time iso={r.requestedAt}>{compactTime(r.requestedAt)}</Time>
              </span>
              <span>
                <RequestStatus status={r.status} enforcement={r.enforcementStatus} />
              </span>
              <RiskCell request={r} />
              <SubjectCell request={r} />
              <DeviceCell request={r} />
              <UserCell request={r} />
              <span className="ap-cell ap-muted">{deciderOf(r) ?? '—'}</span>
              <EnforcementPill value={r.enforcementStatus} />
            </RequestRowLink>
          ))}
          <Pager pagination={list.pagination} onPage={(page) => set({ ...filters, page })} />
        </div>
      )}
    </div>
  );
}
