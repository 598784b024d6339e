import { useState } from 'react';
import { formatDateTime } from '../../lib/format';
import { Link } from '../../lib/router';
import { AdminTable, LoadState, Pager } from '../../ui';
import { Card } from '../../ui/basics';
import { SmallButton } from '../../ui/SmallButton';
import { usePostureDevices, type PostureDrill } from './api';

// The drill-down of one product and status in one organization: the devices behind the count, by hostname,
// each opening its device page.

export function PostureDevicesPanel({ drill, onClose }: { drill: PostureDrill; onClose: () => void }) {
  const [page, setPage] = useState(1);
  const devices = usePostureDevices(drill, page);
  const data = devices.data;
  return (
    <Card
      title={`${drill.product} · ${drill.status}`}
      icon="devices"
      testId="posture-drill"
      actions={
        <SmallButton tone="ghost" onClick={onClose} testId="posture-drill-close">
          Close
        </SmallButton>
      }
    >
      {!data ? (
        <LoadState
          of={devices}
          loading="Loading devices…"
          forbidden={{ title: 'Not available to you', text: 'Reading devices needs devices:read.' }}
        />
      ) : (
        <AdminTable
          bare
          testId="posture-devices"
          columns={['Device', 'Product status', 'Device status', 'Reported']}
          after={
            <Pager pagination={data.pagination} onPage={setPage} noun="devices" testId="posture-pager" />
          }
        >
          {data.data.devices.map((d) => (
            <tr key={d.id} data-testid="posture-device-row">
              <td>
                <Link to={`/devices/${encodeURIComponent(d.id)}`} className="mono">
                  {d.hostname}
                </Link>
              </td>
              <td>{d.status}</td>
              <td className="muted">{d.deviceStatus}</td>
              <td className="muted">{formatDateTime(d.postureReportedAt, { seconds: false })}</td>
              <td />
            </tr>
          ))}
        </AdminTable>
      )}
    </Card>
  );
}
