import type { DeviceSort, DeviceSummary } from '../../../../server/contract';
import { Link } from '../../lib/router';
import { useNow } from '../../lib/hooks';
import { VirtualTable, type VirtualList, type VirtualTableSpec } from '../../ui';
import { OS_LABEL, STATUS_LABEL, STATUS_TONE, ago, deviceName, percentTone } from './format';

// The device list on the kit's virtualized table: thousands of devices scroll smoothly. Rows are links (keyboard, middle-click to a new tab); headers sort on the server.

export type SortKey = DeviceSort;

export const SORT_LABELS: Record<SortKey, string> = {
  hostname: 'Hostname',
  displayName: 'Display name',
  status: 'Status',
  osType: 'OS',
  lastSeenAt: 'Last seen',
  enrolledAt: 'Enrolled',
  agentVersion: 'Agent version',
  lastUser: 'Last user',
  cpuPercent: 'CPU',
};

const isSortKey = (key: string): key is SortKey => Object.hasOwn(SORT_LABELS, key);

const TABLE: VirtualTableSpec = {
  label: 'Devices',
  rowHeight: 42,
  className: 'dv-row',
  minWidth: 940,
  scrollTestId: 'device-table-scroll',
  columns: [
    { id: 'name', label: 'Device', sort: 'hostname' },
    { id: 'org', label: 'Organization' },
    { id: 'os', label: 'OS', sort: 'osType' },
    { id: 'agent', label: 'Agent', sort: 'agentVersion' },
    { id: 'user', label: 'Last user', sort: 'lastUser' },
    { id: 'cpu', label: 'CPU', sort: 'cpuPercent', className: 'dv-metric-col' },
    { id: 'ram', label: 'RAM', className: 'dv-metric-col' },
    { id: 'disk', label: 'Disk', className: 'dv-metric-col' },
    { id: 'seen', label: 'Last seen', sort: 'lastSeenAt', className: 'dv-right' },
  ].map((c) => ({ ...c, className: `dv-cell dv-col-${c.id} ${c.className ?? ''}` })),
};

function MiniBar({ value, label }: { value: number | null; label: string }) {
  if (value === null) return <span className="dv-metric muted">—</span>;
  const pct = Math.max(0, Math.min(100, value));
  return (
    <span className="dv-metric" title={`${label} ${pct.toFixed(1)}%`}>
      <span className="dv-bar">
        <span className={`dv-bar-fill tone-${percentTone(pct)}`} style={{ width: `${pct}%` }} />
      </span>
      <span className="dv-metric-num">{Math.round(pct)}%</span>
    </span>
  );
}

export function DeviceTable({
  list,
  orgName,
  sort,
  order,
  onSort,
  resetKey,
}: {
  list: VirtualList<DeviceSummary>;
  orgName: (id: string) => string;
  sort: SortKey;
  order: 'asc' | 'desc';
  onSort: (key: SortKey) => void;
  /** A new search, filter or sort starts at the top. */
  resetKey: string;
}) {
  const now = useNow(15_000);
  return (
    <VirtualTable
      spec={TABLE}
      list={list}
      resetKey={resetKey}
      sort={{ key: sort, order, onSort: (key) => isSortKey(key) && onSort(key), testIdPrefix: 'device-sort' }}
      renderRow={(d, row) => {
        const name = deviceName(d);
        return (
          <Link
            {...row}
            to={`/devices/${d.id}`}
            className={`dv-row dv-item status-${d.status}`}
            data-testid="device-row"
            data-device-id={d.id}
            data-status={d.status}
          >
            <div className="dv-cell dv-col-name" role="cell">
              <span
                className={`dv-dot tone-${STATUS_TONE[d.status]}`}
                title={STATUS_LABEL[d.status]}
                aria-label={STATUS_LABEL[d.status]}
                data-testid="device-status"
              />
              <span className="dv-two">
                <span className="dv-name" title={name}>
                  {name}
                </span>
                <span className="dv-sub">
                  {d.displayName && d.displayName !== d.hostname ? d.hostname : STATUS_LABEL[d.status]}
                  {d.health !== 'ok' ? (
                    <span className={`dv-health tone-${d.health === 'error' ? 'bad' : 'warn'}`}>
                      {' '}
                      · {d.health}
                    </span>
                  ) : null}
                </span>
              </span>
            </div>
            <div className="dv-cell dv-col-org" role="cell" title={orgName(d.orgId)}>
              {orgName(d.orgId)}
            </div>
            <div className="dv-cell dv-col-os" role="cell">
              <span className="dv-two">
                <span>{OS_LABEL[d.osType]}</span>
                <span className="dv-sub" title={d.osVersion}>
                  {d.osVersion} · {d.architecture}
                </span>
              </span>
            </div>
            <div className="dv-cell dv-col-agent mono" role="cell">
              {d.agentVersion}
            </div>
            <div className="dv-cell dv-col-user" role="cell" title={d.lastUser ?? undefined}>
              {d.lastUser ?? <span className="muted">—</span>}
            </div>
            <div className="dv-cell dv-col-cpu dv-metric-col" role="cell">
              <MiniBar value={d.metrics.cpuPercent} label="CPU" />
            </div>
            <div className="dv-cell dv-col-ram dv-metric-col" role="cell">
              <MiniBar value={d.metrics.ramPercent} label="RAM" />
            </div>
            <div className="dv-cell dv-col-disk dv-metric-col" role="cell">
              <MiniBar value={d.metrics.diskPercent} label="Disk" />
            </div>
            <div
              className="dv-cell dv-col-seen dv-right muted"
              role="cell"
              title={d.lastSeenAt ? new Date(d.lastSeenAt).toLocaleString() : 'Never reported'}
            >
              {d.status === 'online' ? (
                <span className="tone-ok">{ago(d.lastSeenAt, now)}</span>
              ) : (
                ago(d.lastSeenAt, now)
              )}
            </div>
          </Link>
        );
      }}
    />
  );
}
