// Over 400 lines: one viewer (log picker, filters, pages fetched from the device, record detail) whose parts share the live query's state.
import { useState, type ReactNode } from 'react';
import type { DeviceDetail, LiveEventLogEntry } from '../../../../server/contract';
import { ApiError, errorMessage } from '../../lib/api/client';
import { Icon, type IconName } from '../../ui/Icon';
import { Spinner } from '../../ui/basics';
import { useNow } from '../../lib/hooks';
import { formatDateTime } from '../../lib/format';
import { EmptyState } from '../../ui';
import { devicesKeys, liveLogApi, useLiveRead } from './api';
import { DateRangeFilter, FilterBar, TextFilter } from '../../ui';
import { LevelAndSource, useLogFilters } from './controls';
import { ago, deviceName } from './format';
import { useDebounced } from '../../lib/hooks';
import { LogEmpty, LogTable } from './LogTable';
import { LevelBadge, Stamp, prettyXml } from './parts';
import { localToIso } from '../../lib/dates';

// The live event-log viewer: every request goes to the device itself over the agent's socket (nothing is stored)
// and may take up to 30 s. An offline device (409 DEVICE_OFFLINE) and a device that does not answer in time
// (504 LIVE_QUERY_TIMEOUT) each get their own plain explanation and a retry.

const PAGE = 50;
const TIMEOUT_S = 30;
const LEVELS = ['critical', 'error', 'warning', 'information', 'verbose'];

function isOffline(err: unknown): boolean {
  return err instanceof ApiError && (err.code === 'DEVICE_OFFLINE' || err.status === 409);
}

function isTimeout(err: unknown): boolean {
  return err instanceof ApiError && (err.code === 'LIVE_QUERY_TIMEOUT' || err.status === 504);
}

/** Shown while the device is being asked; counts the seconds against the 30 s limit from its own mount. */
function Waiting({ what }: { what: string }) {
  const [since] = useState(() => Date.now());
  const now = useNow(500);
  const elapsed = Math.min(TIMEOUT_S, Math.floor((now - since) / 1000));
  return (
    <div className="dv-live-wait" data-testid="live-log-waiting" role="status">
      <Spinner />
      <div>
        <div>{what}</div>
        <div className="muted small">
          {elapsed < 3
            ? 'Waiting for the device to answer…'
            : `Waiting for the device: ${elapsed}s of at most ${TIMEOUT_S}s`}
        </div>
      </div>
    </div>
  );
}

/** One explained failure of a live query: an icon, what happened, what to do, and a retry. */
function LiveState({
  tone,
  icon,
  title,
  testId,
  action,
  children,
}: {
  tone?: 'offline' | 'timeout';
  icon: IconName;
  title: ReactNode;
  testId: string;
  action: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={`dv-live-state${tone ? ` ${tone}` : ''}`} data-testid={testId}>
      <div className="dv-live-state-icon">
        <Icon name={icon} size={22} />
      </div>
      <div className="dv-live-state-text">
        <h3>{title}</h3>
        {children}
      </div>
      {action}
    </div>
  );
}

function LiveProblem({
  error,
  device,
  onRetry,
}: {
  error: unknown;
  device: DeviceDetail;
  onRetry: () => void;
}) {
  const now = useNow(10_000);
  const retry = (
    <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry} data-testid="live-log-retry">
      <Icon name="refresh" size={14} />
      Try again
    </button>
  );
  if (isOffline(error))
    return (
      <LiveState
        tone="offline"
        icon="devices"
        title={`${deviceName(device)} is offline`}
        testId="live-log-offline"
        action={retry}
      >
        <p>
          Live event logs are read from the device itself, so its agent must be connected. Last seen{' '}
          {ago(device.lastSeenAt, now)}. Stored event logs are still available on the Event logs tab.
        </p>
        {error instanceof ApiError && error.message ? (
          <p className="muted small">Server: {error.message}</p>
        ) : null}
      </LiveState>
    );
  if (isTimeout(error))
    return (
      <LiveState
        tone="timeout"
        icon="clock"
        title={`No answer within ${TIMEOUT_S} seconds`}
        testId="live-log-timeout"
        action={retry}
      >
        <p>
          The agent is connected but did not answer in time. It may be busy, or the query may be too broad:
          narrow the filters or try again.
        </p>
      </LiveState>
    );
  return (
    <LiveState icon="alert" title="The live query failed" testId="live-log-error" action={retry}>
      <p>{errorMessage(error)}</p>
    </LiveState>
  );
}

function bytes(n: number): string {
  if (n >= 1024 * 1024 * 1024) return `${(n / 1024 / 1024 / 1024).toFixed(1)} GB`;
  if (n >= 1024 * 1024) return `${Math.round(n / 1024 / 1024)} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} B`;
}

function RecordDetail({
  deviceId,
  logName,
  entry,
  onClose,
}: {
  deviceId: string;
  logName: string;
  entry: LiveEventLogEntry;
  onClose: () => void;
}) {
  // The list already carries the record; asking for it again by id confirms it and gets the full raw XML.
  const full = useLiveRead(devicesKeys.live(deviceId, 0, 'event', logName, entry.recordId), (signal) =>
    liveLogApi.event(deviceId, logName, entry.recordId, signal),
  );
  const fetched = full.data;
  const e = fetched ?? entry;
  const rows: Array<[string, ReactNode]> = [
    ['Time', formatDateTime(e.timeCreated)],
    ['Level', <LevelBadge key="l" level={e.level} />],
    ['Source', e.source],
    [
      'Event id',
      <span key="i" className="mono">
        {e.eventId}
      </span>,
    ],
    ['Category', e.category || '—'],
    ['User', e.user ?? '—'],
    ['Computer', e.computer],
    [
      'Record',
      <span key="r" className="mono">
        {e.recordId}
      </span>,
    ],
  ];
  return (
    <aside className="dv-live-detail" data-testid="live-log-detail">
      <div className="dv-live-detail-head">
        <strong>Record {e.recordId}</strong>
        {full.waiting ? <Spinner /> : null}
        <span className="fb-grow" />
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          onClick={onClose}
          aria-label="Close record"
          data-testid="live-log-detail-close"
        >
          <Icon name="close" size={13} />
        </button>
      </div>
      <dl className="dv-kv">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <div className="dv-live-section">Message</div>
      <div className="dv-message" data-testid="live-log-message">
        {e.message}
      </div>
      <div className="dv-live-section">Raw XML</div>
      <pre className="ui-pre dv-pre dv-xml" data-testid="live-log-xml">
        {prettyXml(e.rawXml)}
      </pre>
      {full.error && !fetched ? (
        <div className="muted small">
          Showing the record from the list; asking the device again failed: {errorMessage(full.error)}
        </div>
      ) : null}
    </aside>
  );
}

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
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => {
              setSelected(null);
              setEventsAttempt((a) => a + 1);
            }}
            disabled={!eventsPath || events.waiting}
            data-testid="live-log-refresh"
          >
            <Icon name="refresh" size={14} />
            Refresh
          </button>
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
            <LevelAndSource
              level={filters.bind('level')}
              source={filters.bind('source')}
              levels={LEVELS}
              sourcePlaceholder="Source"
              testIdPrefix="live-log"
            />
            <TextFilter
              {...filters.bind('eventId')}
              numeric
              size="narrow"
              error={eventIdError}
              placeholder="Event id"
              label="Event id"
              testId="live-log-event-id"
            />
            <DateRangeFilter
              from={filters.bind('start')}
              to={filters.bind('end')}
              testIds={['live-log-start', 'live-log-end']}
            />
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
