import { useState } from 'react';
import type { ElevationRequest } from '../../../../server/contract';
import { formatDateTime } from '../../lib/format';
import { Link } from '../../lib/router';
import { EmptyState, LoadState, Pager } from '../../ui';
import { StatusPill } from '../../ui/basics';
import { STATUS_LABEL, STATUS_TONE, requestPath } from '../approvals';
import { useDeviceElevations } from './api';
import './device-history.css';

// /devices/:id?tab=elevations — this device's elevation requests, newest first, each opening the request page
// (GET /pam/elevation-requests?deviceId=…, so the caller sees exactly what the approvals history shows them).

/** What was asked for: the executable's file name, else the tool, else the flow. */
function whatOf(r: ElevationRequest): string {
  const path = r.targetExecutablePath;
  if (path) return path.split(/[\\/]/).pop() || path;
  if (r.toolName) return r.toolName;
  return r.flowType === 'tech_jit_admin' ? 'Technician admin session' : 'Elevation';
}

export function ElevationsTab({ deviceId }: { deviceId: string }) {
  const [page, setPage] = useState(1);
  const list = useDeviceElevations(deviceId, page);
  const data = list.data;

  if (!data) {
    return (
      <LoadState
        of={list}
        loading="Loading elevation requests…"
        forbidden={{
          title: 'Elevation requests are not available to you',
          text: 'Reading them needs devices:read.',
        }}
      />
    );
  }
  if (data.requests.length === 0) {
    return (
      <EmptyState icon="approvals" title="No elevation requests" testId="device-elevations-empty">
        When someone on this device asks for administrator rights, the request shows here.
      </EmptyState>
    );
  }
  return (
    <div className="dh-elevations" data-testid="device-elevations">
      <ul className="dh-elev-list">
        {data.requests.map((r) => (
          <li key={r.id}>
            <Link to={requestPath(r.id)} className="dh-elev" data-testid="device-elevation-row">
              <span className="dh-elev-when">{formatDateTime(r.requestedAt, { seconds: false })}</span>
              <span
                className="dh-cell dh-strong"
                title={r.targetExecutablePath ?? r.commandLine ?? undefined}
              >
                {whatOf(r)}
              </span>
              <span className="dh-cell">{r.subjectUsername ?? <span className="muted">—</span>}</span>
              <span>
                <StatusPill tone={STATUS_TONE[r.status]}>{STATUS_LABEL[r.status]}</StatusPill>
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <Pager pagination={data.pagination} onPage={setPage} noun="requests" testId="device-elevations-pager" />
    </div>
  );
}
