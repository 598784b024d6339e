import { useState } from 'react';
import type { DiagnosticLevel, DiagnosticLogEntry, Paginated } from '../../../../server/contract';
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

// The agent's own log lines (spec 2): level chips, exact component, message search, time window; newest first.

const PAGE = 200;
const LEVELS: DiagnosticLevel[] = ['debug', 'info', 'warn', 'error'];

export function DiagnosticLogsTab({ deviceId }: { deviceId: string }) {
  const [levels, setLevels] = useState<DiagnosticLevel[]>([]);
  const [component, setComponent] = useState('');
  const [search, setSearch] = useState('');
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const debouncedComponent = useDebounced(component.trim(), 300);
  const debouncedSearch = useDebounced(search.trim(), 300);

  const path = `/devices/${encodeURIComponent(deviceId)}/diagnostic-logs${qs({
    level: levels.join(','),
    component: debouncedComponent,
    search: debouncedSearch,
    since: localToIso(since),
    until: localToIso(until),
    page,
    limit: PAGE,
  })}`;
  const logs = useResource<Paginated<DiagnosticLogEntry>>(path);
  const rows = logs.data?.data ?? [];
  const filtered = Boolean(levels.length || debouncedComponent || debouncedSearch || since || until);
  const toggle = (l: DiagnosticLevel) => {
    setLevels((ls) => (ls.includes(l) ? ls.filter((x) => x !== l) : [...ls, l]));
    setPage(1);
  };

  return (
    <div className="dv-tab" data-testid="device-diagnostics">
      <FilterBar>
        <div className="dv-chips" role="group" aria-label="Levels">
          {LEVELS.map((l) => (
            <button
              key={l}
              type="button"
              aria-pressed={levels.includes(l)}
              className={`dv-chip${levels.includes(l) ? ' on' : ''}`}
              onClick={() => toggle(l)}
              data-testid={`diag-level-${l}`}
            >
              {l}
            </button>
          ))}
        </div>
        <input
          type="text"
          value={component}
          onChange={(e) => {
            setComponent(e.target.value);
            setPage(1);
          }}
          placeholder="Component (exact)"
          aria-label="Component"
          className="dv-filter-text"
          data-testid="diag-component"
        />
        <input
          type="search"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
          placeholder="Search messages"
          aria-label="Search messages"
          className="dv-filter-text wide"
          data-testid="diag-search"
        />
        <label className="dv-date">
          <span className="muted small">Since</span>
          <input
            type="datetime-local"
            value={since}
            onChange={(e) => {
              setSince(e.target.value);
              setPage(1);
            }}
            data-testid="diag-since"
          />
        </label>
        <label className="dv-date">
          <span className="muted small">Until</span>
          <input
            type="datetime-local"
            value={until}
            onChange={(e) => {
              setUntil(e.target.value);
              setPage(1);
            }}
            data-testid="diag-until"
          />
        </label>
      </FilterBar>
      {logs.error && !logs.data ? (
        <LoadFailure
          error={logs.error}
          onRetry={logs.reload}
          forbiddenTitle="Diagnostic logs are not available to you"
          forbiddenText="Your account cannot read this device's logs."
        />
      ) : !logs.data ? (
        <LoadingBlock label="Loading diagnostic logs…" />
      ) : rows.length === 0 ? (
        <EmptyState
          icon="audit"
          title={filtered ? 'No log line matches' : 'No diagnostic logs yet'}
          compact
          testId="diag-empty"
        >
          {filtered
            ? 'Nothing matches these filters.'
            : 'The agent uploads its own log lines in batches; none have arrived yet.'}
        </EmptyState>
      ) : (
        <div className="adm-table-card">
          <div className="dv-log">
            <div className="dv-log-row dv-log-head dv-diag">
              <span>Time</span>
              <span>Level</span>
              <span>Component</span>
              <span>Message</span>
            </div>
            {rows.map((e) => {
              const expandable = Object.keys(e.fields).length > 0 || e.message.length > 120;
              return (
                <div key={e.id} className={`dv-log-entry${open === e.id ? ' open' : ''}`}>
                  <button
                    type="button"
                    className="dv-log-row dv-diag"
                    onClick={() => setOpen(open === e.id ? null : e.id)}
                    aria-expanded={open === e.id}
                    disabled={!expandable}
                    data-testid="diag-row"
                  >
                    <Stamp iso={e.timestamp} />
                    <LevelBadge level={e.level} />
                    <span className="mono dv-ellipsis" title={e.component}>
                      {e.component}
                    </span>
                    <span className="dv-ellipsis">
                      {e.message}
                      {Object.keys(e.fields).length ? (
                        <span className="muted"> · {Object.keys(e.fields).length} fields</span>
                      ) : null}
                    </span>
                  </button>
                  {open === e.id ? (
                    <div className="dv-log-detail">
                      <div className="dv-message">{e.message}</div>
                      <JsonBlock value={e.fields} />
                      {e.agentVersion ? <div className="muted small">Agent {e.agentVersion}</div> : null}
                    </div>
                  ) : null}
                </div>
              );
            })}
          </div>
          <Pager pagination={paginationOf(logs.data)} onPage={setPage} testId="diag-pager" />
        </div>
      )}
    </div>
  );
}
