import { useQuery } from '@tanstack/react-query';
import { useDocumentTitle, useNow } from '../../lib/hooks';
import { useRouter } from '../../lib/router';
import { StatusPill } from '../../ui/basics';
import { RecordFrame, RecordPlaceholder, Tabs, type RecordPage } from '../../ui';
import { STATUS_LABEL, STATUS_TONE, ago, deviceName } from './format';
import { devicesApi, devicesKeys } from './api';
import { OverviewTab } from './OverviewTab';
import { EventLogsTab } from './EventLogsTab';
import { DiagnosticLogsTab } from './DiagnosticLogsTab';
import { LiveEventLogTab } from './LiveEventLogTab';
import { CommandsTab } from './CommandsTab';
import { DecommissionTab } from './DecommissionTab';
import { ElevationsTab, PerformanceTab, SoftwareTab } from '../device-history';
import './devices.css';

// /devices/:id — one device: header with its state, then tabs (?tab=) for inventory, stored logs, the live
// event-log viewer, commands and decommissioning.

/** The tabs in order, each by its ?tab= id, with its label. */
const TAB_LABEL = {
  overview: 'Overview',
  performance: 'Performance',
  software: 'Software',
  elevations: 'Elevations',
  events: 'Event logs',
  diagnostics: 'Diagnostic logs',
  live: 'Live event log',
  commands: 'Commands',
  decommission: 'Decommission',
} as const;

type TabId = keyof typeof TAB_LABEL;

const PAGE: RecordPage = {
  noun: 'device',
  icon: 'devices',
  className: 'dv-detail adm',
  back: { to: '/devices', label: 'Devices' },
};

const DETAIL_REFRESH_MS = 20_000;

export function DeviceDetailPage({ deviceId }: { deviceId: string }) {
  const search = useRouter((s) => s.search);
  const requested = new URLSearchParams(search).get('tab');
  const tab: TabId = requested && Object.hasOwn(TAB_LABEL, requested) ? (requested as TabId) : 'overview';
  // Pushes patch this query's data in place (api.ts, registerDeviceLiveCache); metrics and "last seen" change
  // with every heartbeat, which sends no console event, so the detail is also re-read now and then.
  const query = useQuery({
    queryKey: devicesKeys.detail(deviceId),
    queryFn: () => devicesApi.detail(deviceId),
    refetchInterval: DETAIL_REFRESH_MS,
  });
  const device = { data: query.data, error: query.error, reload: () => void query.refetch() };
  const now = useNow(10_000);

  const d = device.data ?? null;
  useDocumentTitle(d ? deviceName(d) : 'Device');

  if (!d) {
    return (
      <RecordPlaceholder
        page={PAGE}
        of={device}
        notFound="This device does not exist, or it belongs to an organization outside your access."
      />
    );
  }

  const name = deviceName(d);
  const base = `/devices/${encodeURIComponent(deviceId)}`;

  return (
    <RecordFrame
      page={PAGE}
      title={
        <span className="dv-title">
          <span data-testid="device-title">{name}</span>
          <StatusPill tone={STATUS_TONE[d.status]} testId="device-status-pill">
            {STATUS_LABEL[d.status]}
          </StatusPill>
          {d.status !== 'decommissioned' ? (
            <span
              className={`dv-conn${d.connected ? ' on' : ''}`}
              title={
                d.connected
                  ? 'The agent holds its live connection'
                  : 'The agent has no live connection right now'
              }
              data-testid="device-connected"
            >
              {d.connected ? 'Connected' : 'Not connected'}
            </span>
          ) : null}
        </span>
      }
      sub={
        <span className="dv-headline">
          {d.displayName && d.displayName !== d.hostname ? <span className="mono">{d.hostname}</span> : null}
          <span>
            {d.orgName}
            {d.siteName ? ` · ${d.siteName}` : ''}
          </span>
          <span title={d.lastSeenAt ?? undefined}>Last seen {ago(d.lastSeenAt, now)}</span>
          <span>
            Agent <span className="mono">{d.agentVersion}</span>
          </span>
        </span>
      }
    >
      <Tabs
        label="Device sections"
        tabs={Object.entries(TAB_LABEL).map(([id, label]) => ({
          to: id === 'overview' ? base : `${base}?tab=${id}`,
          label,
          testId: `device-tab-${id}`,
          active: tab === id,
        }))}
      />
      {d.status === 'decommissioned' ? (
        <div className="dv-banner" data-testid="device-decommissioned">
          Decommissioned {d.decommissionedAt ? ago(d.decommissionedAt, now) : ''}. The record is kept for
          history; the agent no longer reports.
        </div>
      ) : null}
      {tab === 'overview' ? <OverviewTab device={d} onSaved={device.reload} /> : null}
      {tab === 'performance' ? <PerformanceTab deviceId={deviceId} /> : null}
      {tab === 'software' ? <SoftwareTab deviceId={deviceId} /> : null}
      {tab === 'elevations' ? <ElevationsTab deviceId={deviceId} /> : null}
      {tab === 'events' ? <EventLogsTab deviceId={deviceId} /> : null}
      {tab === 'diagnostics' ? <DiagnosticLogsTab deviceId={deviceId} /> : null}
      {tab === 'live' ? <LiveEventLogTab device={d} onRecheck={device.reload} /> : null}
      {tab === 'commands' ? <CommandsTab device={d} /> : null}
      {tab === 'decommission' ? <DecommissionTab device={d} /> : null}
    </RecordFrame>
  );
}
