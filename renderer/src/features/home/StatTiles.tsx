import type { DashboardResponse, RiskLevel } from '../../../../server/contract';
import { formatCount, formatDuration, relativeTo } from '../../lib/format';
import { Link } from '../../lib/router';
import { Icon, type IconName } from '../../ui';
import { links } from './links';

// The Overview's top row: what needs the technician now, one tile each, the number large, each tile (and each
// risk in the approvals tile) a link to the list that holds exactly those items.

export const RISK_LABEL: Record<RiskLevel, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
};

function Tile({
  to,
  icon,
  label,
  value,
  tone,
  testId,
  children,
}: {
  to: string;
  icon: IconName;
  label: string;
  value: number;
  /** Colours the number when it calls for attention. */
  tone?: 'bad' | 'warn' | 'ok';
  testId: string;
  children?: React.ReactNode;
}) {
  return (
    <section className="ov-tile" data-testid={testId}>
      <Link to={to} className="ov-tile-link" data-testid={`${testId}-link`}>
        <span className="ov-tile-label">
          <Icon name={icon} size={14} />
          {label}
        </span>
        <span
          className={`ov-tile-value${tone ? ` tone-${tone}` : ''}`}
          data-testid={`${testId}-value`}
          data-value={value}
        >
          {formatCount(value)}
        </span>
      </Link>
      {children ? <div className="ov-tile-foot">{children}</div> : null}
    </section>
  );
}

function PendingTile({ d, now }: { d: NonNullable<DashboardResponse['elevations']>; now: number }) {
  const total = d.pending.reduce((sum, p) => sum + p.count, 0);
  const worst = d.pending.find((p) => p.count > 0);
  return (
    <Tile
      to={links.pending()}
      icon="approvals"
      label="Pending approvals"
      value={total}
      tone={worst?.risk === 'critical' ? 'bad' : total > 0 ? 'warn' : undefined}
      testId="ov-pending"
    >
      <div className="ov-risks">
        {d.pending.map((p) => (
          <Link
            key={p.risk}
            to={links.pending(p.risk)}
            className={`ov-risk ov-risk-${p.risk}${p.count === 0 ? ' none' : ''}`}
            data-testid={`ov-pending-${p.risk}`}
            data-count={p.count}
            title={
              p.oldestRequestedAt
                ? `${RISK_LABEL[p.risk]}: the oldest has waited since ${new Date(p.oldestRequestedAt).toLocaleString()}`
                : `${RISK_LABEL[p.risk]}: none waiting`
            }
          >
            <span className="ov-risk-count">{formatCount(p.count)}</span>
            <span className="ov-risk-name">{RISK_LABEL[p.risk]}</span>
            {p.oldestRequestedAt ? (
              <span className="ov-risk-wait">
                <Icon name="clock" size={10} />
                {formatDuration(now - Date.parse(p.oldestRequestedAt))}
              </span>
            ) : null}
          </Link>
        ))}
      </div>
    </Tile>
  );
}

export function StatTiles({ data, now }: { data: DashboardResponse; now: number }) {
  const { elevations, devices, agentUpdates } = data;
  const next = elevations?.activeGrants.endingSoonest[0];
  const latest = agentUpdates?.behind[0]?.latestVersion;
  return (
    <div className="ov-tiles">
      {elevations ? <PendingTile d={elevations} now={now} /> : null}
      {elevations ? (
        <Tile
          to={links.activeGrants}
          icon="lock"
          label="Active grants"
          value={elevations.activeGrants.total}
          testId="ov-grants"
        >
          {next ? (
            <span className="muted">
              Next ends {relativeTo(Date.parse(next.expiresAt), now)} on{' '}
              <span className="ov-strong">{next.deviceHostname}</span>
            </span>
          ) : (
            <span className="muted">No elevation is in force.</span>
          )}
        </Tile>
      ) : null}
      {devices ? (
        <Tile
          to={links.devices('offline')}
          icon="devices"
          label="Devices offline"
          value={devices.offline}
          tone={devices.offline > 0 ? 'warn' : undefined}
          testId="ov-offline"
        >
          <Link to={links.devices('online')} className="ov-foot-link" data-testid="ov-online">
            <span className="ov-dot ok" aria-hidden="true" />
            {formatCount(devices.online)} online
          </Link>
          {devices.other > 0 ? (
            <span className="muted"> · {formatCount(devices.other)} in maintenance or quarantine</span>
          ) : null}
        </Tile>
      ) : null}
      {agentUpdates ? (
        <Tile
          to={links.outdatedAgents(agentUpdates)}
          icon="refresh"
          label="Agents behind"
          value={agentUpdates.total}
          tone={agentUpdates.total > 0 ? 'warn' : undefined}
          testId="ov-agents"
        >
          <span className="muted">
            {agentUpdates.total > 0 && latest
              ? `Below the latest build (${latest}); offered at next heartbeat`
              : 'Every agent runs the latest registered build.'}
          </span>
        </Tile>
      ) : null}
    </div>
  );
}
