import { useState } from 'react';
import type { DeviceDetail, LiveEventLogEntry } from '../../../../server/contract';
import { ApiError } from '../../lib/api/client';
import { localToIso } from '../../lib/dates';
import { formatDateTime } from '../../lib/format';
import { useDebounced } from '../../lib/hooks';
import { EmptyState, FilterBar, TextFilter } from '../../ui';
import { devicesKeys, LIVE_LEVELS, liveLogApi, useLiveRead } from './api';
import { EventLogFilters, useLogFilters } from './controls';
import { deviceName } from './format';
import { LiveProblem, RecordDetail, Waiting, bytes } from './live-log-parts';
import { LogEmpty, LogTable } from './LogTable';
import { LevelBadge, Stamp } from './parts';
import { SmallButton } from '../../ui/SmallButton';

// The live event-log viewer: every request goes to the device itself over the agent's socket (nothing is stored)
// and may take up to 30 s. An offline device (409 DEVICE_OFFLINE) and a device that does not answer in time
// (504 LIVE_QUERY_TIMEOUT) each get their own plain explanation and a retry.

const PAGE = 50;

export function LiveEventLogTab({ device, onRecheck }: { device: DeviceDetail; onRecheck: () => void }) {
  // A device the server knows to be disconnected is not asked until the technician says so.
  const [force, setForce] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const ask = device.connected || force;
  const logs = useLiveRead(ask ? devicesKeys.live(device.id, attempt, 'logs') : null, (signal) =>
    liveLogApi.logs(device.id, signal),
  );
  const descriptors = logs.data?.data ?? [];

  const [selected, setSelected] = useState<LiveEventLogEntry | null>(null);
  // Any change of log, filters or page leaves the selected record behind.
  const filters = useLogFilters({ log: '', level: '', source: '', eventId: '', start: '', end: '' }, () =>
    setSelected(null),
  );
  const { level, source, eventId, start, end } = filters.values;
  const logName = descriptors.some((d) => d.name === filters.values.log)
    ? filters.values.log
    : (descriptors[0]?.name ?? '');
  const descriptor = descriptors.find((d) => d.name === logName);
  const [eventsAttempt, setEventsAttempt] = useState(0);
  const debouncedSource = useDebounced(source.trim(), 400);
  const debouncedEventId = useDebounced(eventId.trim(), 400);
  const eventIdError = debouncedEventId && !/^\d+$/.test(debouncedEventId) ? 'Event id is a number.' : null;

  const eventsQuery = {
    page: filters.page,
    limit: PAGE,
    level,
    source: debouncedSource,
    eventId: debouncedEventId,
    startTime: localToIso(start),
    endTime: localToIso(end),
  };
  const eventsPath = logName && !eventIdError ? logName : null;
  const events = useLiveRead(
    eventsPath ? devicesKeys.live(device.id, eventsAttempt, 'events', logName, eventsQuery) : null,
    (signal) => liveLogApi.events(device.id, logName, eventsQuery, signal),
  );
  const rows = events.data?.data ?? [];
  const filtered = Boolean(level || debouncedSource || debouncedEventId || start || end);

  const retryAll = () => {
    setForce(true);
    onRecheck();
    setAttempt((a) => a + 1);
    setEventsAttempt((a) => a + 1);
  };

  if (!ask) {
    return (
      <div className="dv-tab" data-testid="live-log">
        <LiveProblem
          error={new ApiError(409, 'The device is not connected', 'DEVICE_OFFLINE')}
          device={device}
          onRetry={retryAll}
        />
      </div>
    );
  }

  return (
    <div className="dv-tab" data-testid="live-log">
      {logs.data ? (
        <div className="dv-live-top">
          <label className="dv-live-pick">
            <span className="muted small">Log</span>
            <select
              className="ui-compact"
              value={logName}
              onChange={(e) => filters.set('log', e.target.value)}
              disabled={descriptors.length === 0}
              data-testid="live-log-select"
            >
              {descriptors.length === 0 ? (
                <option value="">{logs.waiting ? 'Asking the device…' : 'No logs'}</option>
              ) : null}
              {descriptors.map((d) => (
                <option key={d.name} value={d.name}>
                  {d.displayName || d.name} ({d.recordCount.toLocaleString('en-US')})
                </option>
              ))}
            </select>
          </label>
          {descriptor ? (
            <div className="dv-live-meta muted small" data-testid="live-log-info">
              <span>{descriptor.recordCount.toLocaleString('en-US')} records</span>
              <span>max {bytes(descriptor.maxSize)}</span>
              <span>
                {descriptor.retentionDays > 0
                  ? `kept ${descriptor.retentionDays} days`
                  : 'overwritten as needed'}
              </span>
              <span>
                last write {descriptor.lastWriteTime ? formatDateTime(descriptor.lastWriteTime) : '—'}
              </span>
            </div>
          ) : null}
          <span className="fb-grow" />
          <span className="dv-live-badge" title="Read from the device on demand; nothing here is stored">
            <span className="dv-dot tone-ok" /> live from {deviceName(device)}
          </span>
          <SmallButton
            tone="ghost"
            icon="refresh"
            onClick={() => {
              setSelected(null);
              setEventsAttempt((a) => a + 1);
            }}
            disabled={!eventsPath || events.waiting}
            testId="live-log-refresh"
          >
            Refresh
          </SmallButton>
        </div>
      ) : null}

      {logs.waiting ? (
        <Waiting key={logs.key} what={`Asking ${deviceName(device)} which event logs it has…`} />
      ) : logs.error ? (
        <LiveProblem error={logs.error} device={device} onRetry={retryAll} />
      ) : descriptors.length === 0 ? (
        <EmptyState icon="audit" title="The device reports no event logs" compact testId="live-log-none" />
      ) : (
        <>
          <FilterBar>
            <EventLogFilters
              filters={filters}
              levels={LIVE_LEVELS}
              sourcePlaceholder="Source"
              testIdPrefix="live-log"
            >
              <TextFilter
                {...filters.bind('eventId')}
                numeric
                size="narrow"
                error={eventIdError}
                placeholder="Event id"
                label="Event id"
                testId="live-log-event-id"
              />
            </EventLogFilters>
            {eventIdError ? <span className="fb-problem">{eventIdError}</span> : null}
          </FilterBar>
          <div className={`dv-live-split${selected ? ' with-detail' : ''}`}>
            <div className="dv-live-list">
              {events.waiting ? (
                <Waiting key={events.key} what={`Reading ${descriptor?.displayName || logName}…`} />
              ) : events.error ? (
                <LiveProblem
                  error={events.error}
                  device={device}
                  onRetry={() => setEventsAttempt((a) => a + 1)}
                />
              ) : rows.length === 0 ? (
                <LogEmpty
                  filtered={filtered}
                  title="This log is empty"
                  filteredTitle="No record matches"
                  filteredText="The device found nothing for these filters."
                  testId="live-log-empty"
                />
              ) : (
                <LogTable
                  variant="dv-lv"
                  columns={['Time', 'Level', 'Source', 'Event', 'Message']}
                  pager={{
                    pagination: events.data?.pagination ?? null,
                    onPage: filters.setPage,
                    testId: 'live-log-pager',
                  }}
                >
                  {rows.map((e) => (
                    <button
                      type="button"
                      key={e.recordId}
                      className={`dv-log-row dv-lv${selected?.recordId === e.recordId ? ' selected' : ''}`}
                      onClick={() => setSelected(selected?.recordId === e.recordId ? null : e)}
                      aria-pressed={selected?.recordId === e.recordId}
                      data-testid="live-log-row"
                    >
                      <Stamp iso={e.timeCreated} />
                      <LevelBadge level={e.level} testId="live-log-row-level" />
                      <span className="dv-ellipsis" title={e.source}>
                        {e.source}
                      </span>
                      <span className="mono">{e.eventId}</span>
                      <span className="dv-ellipsis" data-testid="live-log-row-message">
                        {e.message}
                      </span>
                    </button>
                  ))}
                </LogTable>
              )}
            </div>
            {selected ? (
              <RecordDetail
                key={`${logName}:${selected.recordId}`}
                deviceId={device.id}
                logName={logName}
                entry={selected}
                onClose={() => setSelected(null)}
              />
            ) : null}
          </div>
        </>
      )}
    </div>
  );
}
