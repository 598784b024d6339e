import { useState } from 'react';
import type { DeviceEventLogEntry, Paginated } from '../../../../server/contract';
import {
  EmptyState,
  LoadFailure,
  LoadingBlock,
  Pager,
  paginationOf,
  qs,
  useResource,
} from '../tenants/admin-kit';
import { useDebounced } from './hooks';
import { FilterBar, JsonBlock, LevelBadge, Stamp, localToIso } from './parts';

// Stored event logs (spec 2): what the agent submitted, filtered by category, level, exact source and dates.

const PAGE = 100;
const CATEGORIES = ['security', 'hardware', 'application', 'system'];
const LEVELS = ['info', 'warning', 'error', 'critical'];

export function EventLogsTab({ deviceId }: { deviceId: string }) {
  const [category, setCategory] = useState('');
  const [level, setLevel] = useState('');
  const [source, setSource] = useState('');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const debouncedSource = useDebounced(source.trim(), 300);

  const path = `/devices/${encodeURIComponent(deviceId)}/eventlogs${qs({
    category,
    level,
    source: debouncedSource,
    startDate: localToIso(start),
    endDate: localToIso(end),
    page,
    limit: PAGE,
  })}`;
  const logs = useResource<Paginated<DeviceEventLogEntry>>(path);
  const rows = logs.data?.data ?? [];
  const resetPage =
    <T,>(fn: (v: T) => void) =>
    (v: T) => {
      fn(v);
      setPage(1);
    };
  const filtered = Boolean(category || level || debouncedSource || start || end);

  return (
    <div className="dv-tab" data-testid="device-eventlogs">
      <FilterBar>
        <select
          value={category}
          onChange={(e) => resetPage(setCategory)(e.target.value)}
          aria-label="Category"
          data-testid="eventlog-category"
        >
          <option value="">All categories</option>
          {CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
        <select
          value={level}
          onChange={(e) => resetPage(setLevel)(e.target.value)}
          aria-label="Level"
          data-testid="eventlog-level"
        >
          <option value="">All levels</option>
          {LEVELS.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
        <input
          type="text"
          value={source}
          onChange={(e) => resetPage(setSource)(e.target.value)}
          placeholder="Source (exact)"
          aria-label="Source"
          className="dv-filter-text"
          data-testid="eventlog-source"
        />
        <label className="dv-date">
          <span className="muted small">From</span>
          <input
            type="datetime-local"
            value={start}
            onChange={(e) => resetPage(setStart)(e.target.value)}
            data-testid="eventlog-start"
          />
        </label>
        <label className="dv-date">
          <span className="muted small">To</span>
          <input
            type="datetime-local"
            value={end}
            onChange={(e) => resetPage(setEnd)(e.target.value)}
            data-testid="eventlog-end"
          />
        </label>
        {filtered ? (
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => {
              setCategory('');
              setLevel('');
              setSource('');
              setStart('');
              setEnd('');
              setPage(1);
            }}
          >
            Clear
          </button>
        ) : null}
      </FilterBar>
      {logs.error && !logs.data ? (
        <LoadFailure
          error={logs.error}
          onRetry={logs.reload}
          forbiddenTitle="Event logs are not available to you"
          forbiddenText="Your account cannot read this device's logs."
        />
      ) : !logs.data ? (
        <LoadingBlock label="Loading event logs…" />
      ) : rows.length === 0 ? (
        <EmptyState
          icon="audit"
          title={filtered ? 'No event matches' : 'No event logs stored'}
          compact
          testId="eventlog-empty"
        >
          {filtered
            ? 'Nothing matches these filters.'
            : 'The agent submits operating-system events in batches; they appear here once it has. For the device’s own logs right now, use the live event log.'}
        </EmptyState>
      ) : (
        <div className="adm-table-card">
          <div className="dv-log">
            <div className="dv-log-row dv-log-head dv-ev">
              <span>Time</span>
              <span>Level</span>
              <span>Category</span>
              <span>Source</span>
              <span>Event</span>
              <span>Message</span>
            </div>
            {rows.map((e) => (
              <div key={e.id} className={`dv-log-entry${open === e.id ? ' open' : ''}`}>
                <button
                  type="button"
                  className="dv-log-row dv-ev"
                  onClick={() => setOpen(open === e.id ? null : e.id)}
                  aria-expanded={open === e.id}
                  data-testid="eventlog-row"
                >
                  <Stamp iso={e.timestamp} />
                  <LevelBadge level={e.level} />
                  <span className="cap">{e.category}</span>
                  <span className="dv-ellipsis" title={e.source}>
                    {e.source}
                  </span>
                  <span className="mono">{e.eventId ?? '—'}</span>
                  <span className="dv-ellipsis">{e.message}</span>
                </button>
                {open === e.id ? (
                  <div className="dv-log-detail">
                    <div className="dv-message">{e.message}</div>
                    <JsonBlock value={e.details} />
                  </div>
                ) : null}
              </div>
            ))}
          </div>
          <Pager pagination={paginationOf(logs.data)} onPage={setPage} testId="eventlog-pager" />
        </div>
      )}
    </div>
  );
}
