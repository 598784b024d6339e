import { useState, type ReactNode } from 'react';
import type { DeviceDetail, LiveEventLogEntry } from '../../../../server/contract';
import { ApiError, errorMessage } from '../../lib/api/client';
import { formatDateTime } from '../../lib/format';
import { useNow } from '../../lib/hooks';
import { Icon, type IconName } from '../../ui/Icon';
import { SmallButton } from '../../ui/SmallButton';
import { Spinner } from '../../ui/basics';
import { devicesKeys, liveLogApi, useLiveRead } from './api';
import { ago, deviceName } from './format';
import { LevelBadge, prettyXml } from './parts';

// The pieces of the live event-log viewer (LiveEventLogTab): the wait against the device's 30 s, the explained
// failures (offline, no answer in time, anything else) and one record's detail, asked again for its raw XML.

/** How long the server waits for the device before answering 504. */
export const TIMEOUT_S = 30;

function isOffline(err: unknown): boolean {
  return err instanceof ApiError && (err.code === 'DEVICE_OFFLINE' || err.status === 409);
}

function isTimeout(err: unknown): boolean {
  return err instanceof ApiError && (err.code === 'LIVE_QUERY_TIMEOUT' || err.status === 504);
}

/** Shown while the device is being asked; counts the seconds against the 30 s limit from its own mount. */
export function Waiting({ what }: { what: string }) {
  const [since] = useState(() => Date.now());
  const now = useNow(500);
  const elapsed = Math.min(TIMEOUT_S, Math.floor((now - since) / 1000));
  return (
    <div className="ui-panel dashed dv-live-wait" data-testid="live-log-waiting" role="status">
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

export function LiveProblem({
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
    <SmallButton tone="secondary" icon="refresh" onClick={onRetry} testId="live-log-retry">
      Try again
    </SmallButton>
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

export function bytes(n: number): string {
  if (n >= 1024 * 1024 * 1024) return `${(n / 1024 / 1024 / 1024).toFixed(1)} GB`;
  if (n >= 1024 * 1024) return `${Math.round(n / 1024 / 1024)} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} B`;
}

export function RecordDetail({
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
        <SmallButton
          tone="ghost"
          icon="close"
          iconSize={13}
          onClick={onClose}
          aria-label="Close record"
          testId="live-log-detail-close"
        />
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
