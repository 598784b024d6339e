import { DIAGNOSTIC_LEVELS, type DiagnosticLevel } from '../../../../server/contract';
import { useDiagnosticLogs } from './api';
import { DateRangeFilter, TextFilter, ToggleChips } from '../../ui';
import { useLogFilters } from './controls';
import { useDebounced } from '../../lib/hooks';
import { LogTab, type LogKind } from './LogTable';
import { JsonBlock, LevelBadge, Stamp } from './parts';
import { localToIso } from '../../lib/dates';

// The agent's own log lines (spec 2): level chips, exact component, message search, time window; newest first.

const PAGE = 200;
const DIAGNOSTIC_LOGS: LogKind = {
  testId: 'device-diagnostics',
  subject: { name: 'diagnostic logs', reads: 'logs' },
  variant: 'dv-diag',
  columns: ['Time', 'Level', 'Component', 'Message'],
  rowTestId: 'diag-row',
  pagerTestId: 'diag-pager',
  empty: {
    title: 'No diagnostic logs yet',
    filteredTitle: 'No log line matches',
    text: 'The agent uploads its own log lines in batches; none have arrived yet.',
    testId: 'diag-empty',
  },
};

export function DiagnosticLogsTab({ deviceId }: { deviceId: string }) {
  const filters = useLogFilters({
    levels: [] as DiagnosticLevel[],
    component: '',
    search: '',
    since: '',
    until: '',
  });
  const { levels, component, search, since, until } = filters.values;
  const debouncedComponent = useDebounced(component.trim(), 300);
  const debouncedSearch = useDebounced(search.trim(), 300);

  const logs = useDiagnosticLogs(deviceId, {
    level: levels.join(','),
    component: debouncedComponent,
    search: debouncedSearch,
    since: localToIso(since),
    until: localToIso(until),
    page: filters.page,
    limit: PAGE,
  });
  const rows = logs.data?.data ?? [];
  const filtered = Boolean(levels.length || debouncedComponent || debouncedSearch || since || until);

  return (
    <LogTab
      kind={DIAGNOSTIC_LOGS}
      filtered={filtered}
      filters={
        <>
          <ToggleChips
            label="Levels"
            options={DIAGNOSTIC_LEVELS}
            values={levels}
            onChange={(v) => filters.set('levels', v)}
            testIdPrefix="diag-level"
          />
          <TextFilter
            {...filters.bind('component')}
            placeholder="Component (exact)"
            label="Component"
            testId="diag-component"
          />
          <TextFilter
            {...filters.bind('search')}
            type="search"
            size="wide"
            placeholder="Search messages"
            label="Search messages"
            testId="diag-search"
          />
          <DateRangeFilter
            from={filters.bind('since')}
            to={filters.bind('until')}
            labels={['Since', 'Until']}
            testIds={['diag-since', 'diag-until']}
          />
        </>
      }
      of={logs}
      onPage={filters.setPage}
      rows={rows}
      row={(e) => {
        const fieldCount = Object.keys(e.fields).length;
        return {
          disabled: fieldCount === 0 && e.message.length <= 120,
          detail: (
            <>
              <div className="dv-message">{e.message}</div>
              <JsonBlock value={e.fields} />
              {e.agentVersion ? <div className="muted small">Agent {e.agentVersion}</div> : null}
            </>
          ),
          cells: (
            <>
              <Stamp iso={e.timestamp} />
              <LevelBadge level={e.level} />
              <span className="mono dv-ellipsis" title={e.component}>
                {e.component}
              </span>
              <span className="dv-ellipsis">
                {e.message}
                {fieldCount ? <span className="muted"> · {fieldCount} fields</span> : null}
              </span>
            </>
          ),
        };
      }}
    />
  );
}
