import { paginationOf } from '../../lib/query';
import { useEventLogs } from './api';
import { ChoiceSelect, DateRangeFilter, FilterBar } from '../../ui';
import { LevelAndSource, useLogFilters } from './controls';
import { useDebounced } from '../../lib/hooks';
import { ExpandableLogRow, LogEmpty, LogTable, ResourceStates, useOpenRow } from './LogTable';
import { JsonBlock, LevelBadge, Stamp } from './parts';
import { localToIso } from '../../lib/dates';
import { SmallButton } from '../../ui/SmallButton';

// Stored event logs (spec 2): what the agent submitted, filtered by category, level, exact source and dates.

const PAGE = 100;
const CATEGORIES = ['security', 'hardware', 'application', 'system'];
const LEVELS = ['info', 'warning', 'error', 'critical'];

export function EventLogsTab({ deviceId }: { deviceId: string }) {
  const filters = useLogFilters({ category: '', level: '', source: '', start: '', end: '' });
  const { category, level, source, start, end } = filters.values;
  const open = useOpenRow();
  const debouncedSource = useDebounced(source.trim(), 300);

  const logs = useEventLogs(deviceId, {
    category,
    level,
    source: debouncedSource,
    startDate: localToIso(start),
    endDate: localToIso(end),
    page: filters.page,
    limit: PAGE,
  });
  const rows = logs.data?.data ?? [];
  const filtered = Boolean(category || level || debouncedSource || start || end);

  return (
    <div className="dv-tab" data-testid="device-eventlogs">
      <FilterBar>
        <ChoiceSelect
          {...filters.bind('category')}
          ariaLabel="Category"
          emptyLabel="All categories"
          options={CATEGORIES}
          testId="eventlog-category"
        />
        <LevelAndSource
          level={filters.bind('level')}
          source={filters.bind('source')}
          levels={LEVELS}
          sourcePlaceholder="Source (exact)"
          testIdPrefix="eventlog"
        />
        <DateRangeFilter
          from={filters.bind('start')}
          to={filters.bind('end')}
          testIds={['eventlog-start', 'eventlog-end']}
        />
        {filtered ? (
          <SmallButton tone="ghost" onClick={filters.clear}>
            Clear
          </SmallButton>
        ) : null}
      </FilterBar>
      <ResourceStates
        resource={logs}
        isEmpty={rows.length === 0}
        loadingLabel="Loading event logs…"
        forbiddenTitle="Event logs are not available to you"
        forbiddenText="Your account cannot read this device's logs."
        empty={
          <LogEmpty
            filtered={filtered}
            title="No event logs stored"
            filteredTitle="No event matches"
            testId="eventlog-empty"
          >
            The agent submits operating-system events in batches; they appear here once it has. For the
            device’s own logs right now, use the live event log.
          </LogEmpty>
        }
      >
        {(data) => (
          <LogTable
            variant="dv-ev"
            columns={['Time', 'Level', 'Category', 'Source', 'Event', 'Message']}
            pager={{ pagination: paginationOf(data), onPage: filters.setPage, testId: 'eventlog-pager' }}
          >
            {rows.map((e) => (
              <ExpandableLogRow
                key={e.id}
                variant="dv-ev"
                open={open.isOpen(e.id)}
                onToggle={() => open.toggle(e.id)}
                testId="eventlog-row"
                detail={
                  <>
                    <div className="dv-message">{e.message}</div>
                    <JsonBlock value={e.details} />
                  </>
                }
              >
                <Stamp iso={e.timestamp} />
                <LevelBadge level={e.level} />
                <span className="cap">{e.category}</span>
                <span className="dv-ellipsis" title={e.source}>
                  {e.source}
                </span>
                <span className="mono">{e.eventId ?? '—'}</span>
                <span className="dv-ellipsis">{e.message}</span>
              </ExpandableLogRow>
            ))}
          </LogTable>
        )}
      </ResourceStates>
    </div>
  );
}
