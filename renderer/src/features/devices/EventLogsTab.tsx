import { EVENT_LOG_CATEGORIES, EVENT_LOG_LEVELS } from '../../../../server/contract';
import { useEventLogs } from './api';
import { ChoiceSelect } from '../../ui';
import { EventLogFilters, useLogFilters } from './controls';
import { useDebounced } from '../../lib/hooks';
import { LogTab, type LogKind } from './LogTable';
import { JsonBlock, LevelBadge, Stamp } from './parts';
import { localToIso } from '../../lib/dates';
import { SmallButton } from '../../ui/SmallButton';

// Stored event logs (spec 2): what the agent submitted, filtered by category, level, exact source and dates.

const PAGE = 100;
const EVENT_LOGS: LogKind = {
  testId: 'device-eventlogs',
  subject: { name: 'event logs', reads: 'logs' },
  variant: 'dv-ev',
  columns: ['Time', 'Level', 'Category', 'Source', 'Event', 'Message'],
  rowTestId: 'eventlog-row',
  pagerTestId: 'eventlog-pager',
  empty: {
    title: 'No event logs stored',
    filteredTitle: 'No event matches',
    text:
      'The agent submits operating-system events in batches; they appear here once it has. For the device’s ' +
      'own logs right now, use the live event log.',
    testId: 'eventlog-empty',
  },
};

export function EventLogsTab({ deviceId }: { deviceId: string }) {
  const filters = useLogFilters({ category: '', level: '', source: '', start: '', end: '' });
  const { category, level, source, start, end } = filters.values;
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
    <LogTab
      kind={EVENT_LOGS}
      filtered={filtered}
      filters={
        <>
          <ChoiceSelect
            {...filters.bind('category')}
            ariaLabel="Category"
            emptyLabel="All categories"
            options={EVENT_LOG_CATEGORIES}
            testId="eventlog-category"
          />
          <EventLogFilters
            filters={filters}
            levels={EVENT_LOG_LEVELS}
            sourcePlaceholder="Source (exact)"
            testIdPrefix="eventlog"
          />
          {filtered ? (
            <SmallButton tone="ghost" onClick={filters.clear}>
              Clear
            </SmallButton>
          ) : null}
        </>
      }
      of={logs}
      onPage={filters.setPage}
      rows={rows}
      row={(e) => ({
        detail: (
          <>
            <div className="dv-message">{e.message}</div>
            <JsonBlock value={e.details} />
          </>
        ),
        cells: (
          <>
            <Stamp iso={e.timestamp} />
            <LevelBadge level={e.level} />
            <span className="cap">{e.category}</span>
            <span className="dv-ellipsis" title={e.source}>
              {e.source}
            </span>
            <span className="mono">{e.eventId ?? '—'}</span>
            <span className="dv-ellipsis">{e.message}</span>
          </>
        ),
      })}
    />
  );
}
